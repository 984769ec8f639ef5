// License keys granted by license-key benefits: status, usage and activation limits, expiry.
import { DateTimeInput, Edit, NumberField, NumberInput, SelectInput, Show, SimpleForm, SimpleShowLayout, TextField } from "react-admin";
import VpnKeyIcon from "@mui/icons-material/VpnKey";
import type { LicenseKeyRead } from "../../api";
import { CopyableTextField, DateTimeField, EnumField } from "../../common/fields";
import { enumValues, metaFilters } from "../../common/generic";
import { choicesOf } from "../../common/inputs";
import { formatDateTime, humanize } from "../../common/format";
import { ResourceList, ShowActions, recordDetails, facts } from "../../common/layouts";
import { LinkField, ReferenceNameField } from "../../common/references";

function LicenseKeyList() {
  return (
    <ResourceList
      mobile={{
        primaryText: (k: LicenseKeyRead) => k.display_key,
        secondaryText: (k: LicenseKeyRead) =>
          facts(k.customer.email, humanize(k.status), k.expires_at && `expires ${formatDateTime(k.expires_at)}`),
        tertiaryText: (k: LicenseKeyRead) => `${k.usage} used`,
      }}
      filters={metaFilters("license-keys", [])}
      create={false}
      exportFields={["id", "display_key", "status", "customer.email", "usage", "limit_usage", "limit_activations", "expires_at"]}
    >
      <TextField source="display_key" label="Key" sortable={false} />
      <TextField source="customer.email" label="Customer" sortable={false} />
      <EnumField source="status" />
      <NumberField source="usage" sortable={false} />
      <DateTimeField source="expires_at" label="Expires" />
    </ResourceList>
  );
}

function LicenseKeyShow() {
  return (
    <Show actions={<ShowActions />}>
      <SimpleShowLayout>
        <CopyableTextField source="key" label="Key" />
        <EnumField source="status" />
        <LinkField label="Customer" source="customer_id" reference="customers" text="customer.email" />
        <ReferenceNameField label="Benefit" source="benefit_id" reference="benefits" />
        <NumberField source="usage" />
        <NumberField source="limit_usage" label="Usage limit" emptyText="—" />
        <NumberField source="limit_activations" label="Activation limit" emptyText="—" />
        <NumberField source="validations" />
        <DateTimeField source="last_validated_at" label="Last validated" />
        <DateTimeField source="expires_at" label="Expires" />
        {recordDetails({ created: false, metadata: false })}
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
