// License keys granted by license-key benefits: status, usage and activation limits, expiry.
import { Datagrid, DateTimeInput, Edit, EditButton, List, NumberField, NumberInput, SelectInput, Show, SimpleForm, SimpleShowLayout, TextField, TopToolbar } from "react-admin";
import VpnKeyIcon from "@mui/icons-material/VpnKey";
import { CopyableTextField, DateTimeField, EnumField, IdField } from "../../common/fields";
import { ListActions, enumValues, metaFilters } from "../../common/generic";
import { choicesOf } from "../../common/inputs";
import { csvExporter } from "../../common/csv";

function LicenseKeyList() {
  return (
    <List filters={metaFilters("license-keys", [])} actions={<ListActions create={false} />} exporter={csvExporter("license-keys", ["id", "display_key", "status", "customer.email", "usage", "limit_usage", "limit_activations", "expires_at"])}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <TextField source="display_key" label="Key" sortable={false} />
        <TextField source="customer.email" label="Customer" sortable={false} />
        <EnumField source="status" />
        <NumberField source="usage" sortable={false} />
        <DateTimeField source="expires_at" label="Expires" />
      </Datagrid>
    </List>
  );
}

function LicenseKeyShow() {
  return (
    <Show actions={<TopToolbar><EditButton /></TopToolbar>}>
      <SimpleShowLayout>
        <CopyableTextField source="key" label="Key" />
        <EnumField source="status" />
        <TextField source="customer.email" label="Customer" />
        <NumberField source="usage" />
        <NumberField source="limit_usage" label="Usage limit" emptyText="—" />
        <NumberField source="limit_activations" label="Activation limit" emptyText="—" />
        <NumberField source="validations" />
        <DateTimeField source="last_validated_at" label="Last validated" />
        <DateTimeField source="expires_at" label="Expires" />
        <IdField source="id" label="ID" />
      </SimpleShowLayout>
    </Show>
  );
}

function LicenseKeyEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect="show">
      <SimpleForm>
        <SelectInput source="status" choices={choicesOf(enumValues("license-keys", "status"))} />
        <NumberInput source="usage" min={0} />
        <NumberInput source="limit_usage" label="Usage limit" min={1} />
        <NumberInput source="limit_activations" label="Activation limit" min={1} />
        <DateTimeInput source="expires_at" label="Expires" />
      </SimpleForm>
    </Edit>
  );
}

export default { list: LicenseKeyList, show: LicenseKeyShow, edit: LicenseKeyEdit, icon: VpnKeyIcon, recordRepresentation: "display_key" };
