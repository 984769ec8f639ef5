// Custom fields asked at checkout: text, number, date, checkbox or select, each with its own
// properties (length bounds, value bounds, options).
import { ArrayInput, BooleanInput, Create, Datagrid, DeleteButton, Edit, EditButton, FormDataConsumer, List, NumberInput, Show, SimpleForm, SimpleFormIterator, SimpleShowLayout, TextField, TextInput, TopToolbar, required, FunctionField } from "react-admin";
import TextFieldsIcon from "@mui/icons-material/TextFields";
import type { CustomField } from "../../api";
import { DateTimeField, EnumField, IdField, MetadataField } from "../../common/fields";
import { ListActions, enumValues, metaFilters } from "../../common/generic";
import { EnumInput, MetadataInput, metadataToRows, rowsToMetadata } from "../../common/inputs";
import { csvExporter } from "../../common/csv";

function CustomFieldList() {
  return (
    <List filters={metaFilters("custom-fields", ["query", "type"])} sort={{ field: "created_at", order: "DESC" }} actions={<ListActions />} exporter={csvExporter("custom-fields", ["id", "name", "slug", "type", "created_at"])}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <TextField source="name" />
        <TextField source="slug" />
        <EnumField source="type" />
        <DateTimeField source="created_at" label="Created" />
      </Datagrid>
    </List>
  );
}

function CustomFieldShow() {
  return (
    <Show actions={<TopToolbar><EditButton /><DeleteButton mutationMode="pessimistic" /></TopToolbar>}>
      <SimpleShowLayout>
        <TextField source="name" />
        <TextField source="slug" />
        <EnumField source="type" />
        <TextField source="properties.form_label" label="Label at checkout" emptyText="—" />
        <TextField source="properties.form_help_text" label="Help text" emptyText="—" />
        <FunctionField label="Options" render={(f: CustomField) => (f.type === "select" ? f.properties.options.map((o) => `${o.label} (${o.value})`).join(", ") : "—")} />
        <IdField source="id" label="ID" />
        <MetadataField source="metadata" label="Metadata" />
      </SimpleShowLayout>
    </Show>
  );
}

function Form({ create }: { create: boolean }) {
  return (
    <SimpleForm>
      <EnumInput source="type" values={enumValues("custom-fields", "type")} validate={required()} helperText={create ? undefined : "Fixed once created"} />
      <TextInput source="name" validate={required()} />
      <TextInput source="slug" validate={required()} helperText="The key of its value in custom_field_data" />
      <TextInput source="properties.form_label" label="Label at checkout" />
      <TextInput source="properties.form_help_text" label="Help text" />
      <TextInput source="properties.form_placeholder" label="Placeholder" />
      <FormDataConsumer>
        {({ formData }) => {
          switch (formData.type) {
            case "text":
              return (
                <>
                  <BooleanInput source="properties.textarea" label="Several lines" />
                  <NumberInput source="properties.min_length" label="Minimum length" min={0} />
                  <NumberInput source="properties.max_length" label="Maximum length" min={0} />
                </>
              );
            case "number":
              return (
                <>
                  <NumberInput source="properties.ge" label="At least" />
                  <NumberInput source="properties.le" label="At most" />
                </>
              );
            case "select":
              return (
                <ArrayInput source="properties.options" label="Options" validate={required()}>
                  <SimpleFormIterator inline>
                    <TextInput source="value" validate={required()} helperText={false} />
                    <TextInput source="label" validate={required()} helperText={false} />
                  </SimpleFormIterator>
                </ArrayInput>
              );
            default:
              return null;
          }
        }}
      </FormDataConsumer>
      <MetadataInput />
    </SimpleForm>
  );
}

type Values = Record<string, unknown> & { properties?: Record<string, unknown>; metadata_rows?: { key?: string; value?: string }[] };

function body(data: Values): Record<string, unknown> {
  const { metadata_rows, ...rest } = data;
  const properties: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rest.properties ?? {})) if (v !== "" && v !== null && v !== undefined) properties[k] = v;
  return { ...rest, properties, metadata: rowsToMetadata(metadata_rows) };
}

function CustomFieldCreate() {
  return (
    <Create transform={body} redirect="show">
      <Form create />
    </Create>
  );
}

function CustomFieldEdit() {
  return (
    <Edit mutationMode="pessimistic" transform={body} redirect="show" queryOptions={{ select: (f: CustomField) => ({ ...f, metadata_rows: metadataToRows(f.metadata) }) }}>
      <Form create={false} />
    </Edit>
  );
}

export default { list: CustomFieldList, show: CustomFieldShow, create: CustomFieldCreate, edit: CustomFieldEdit, icon: TextFieldsIcon, recordRepresentation: "name" };
