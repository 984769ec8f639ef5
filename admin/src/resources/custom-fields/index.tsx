// Custom fields asked at checkout: text, number, date, checkbox or select, each with its own
// properties (length bounds, value bounds, options).
import {
  ArrayInput,
  BooleanInput,
  FormDataConsumer,
  NumberInput,
  Show,
  SimpleForm,
  SimpleFormIterator,
  SimpleShowLayout,
  TextField,
  TextInput,
  required,
  FunctionField,
} from "react-admin";
import TextFieldsIcon from "@mui/icons-material/TextFields";
import type { CustomField } from "../../api";
import { DateTimeField, EnumField } from "../../common/fields";
import { enumValues, metaFilters } from "../../common/generic";
import { humanize } from "../../common/format";
import { EnumInput, MetadataInput } from "../../common/inputs";
import { RecordCreate, RecordEdit, ResourceList, ShowActions, recordDetails, facts } from "../../common/layouts";

function CustomFieldList() {
  return (
    <ResourceList
      mobile={{
        primaryText: (f: CustomField) => f.name,
        secondaryText: (f: CustomField) => facts(f.slug, humanize(f.type)),
      }}
      filters={metaFilters("custom-fields", ["query", "type"])}
      sort={{ field: "created_at", order: "DESC" }}
      exportFields={["id", "name", "slug", "type", "created_at"]}
    >
      <TextField source="name" />
      <TextField source="slug" />
      <EnumField source="type" />
      <DateTimeField source="created_at" label="Created" />
    </ResourceList>
  );
}

function CustomFieldShow() {
  return (
    <Show actions={<ShowActions remove />}>
      <SimpleShowLayout>
        <TextField source="name" />
        <TextField source="slug" />
        <EnumField source="type" />
        <TextField source="properties.form_label" label="Label at checkout" emptyText="—" />
        <TextField source="properties.form_help_text" label="Help text" emptyText="—" />
        <FunctionField
          label="Options"
          render={(f: CustomField) => (f.type === "select" ? f.properties.options.map((o) => `${o.label} (${o.value})`).join(", ") : "—")}
        />
        {recordDetails({ created: false })}
      </SimpleShowLayout>
    </Show>
  );
}

function Form({ create }: { create: boolean }) {
  return (
    <SimpleForm>
      <EnumInput
        source="type"
        values={enumValues("custom-fields", "type")}
        validate={required()}
        helperText={create ? undefined : "Fixed once created"}
      />
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

type Values = Record<string, unknown> & { properties?: Record<string, unknown> };

function body(data: Values): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data.properties ?? {})) if (v !== "" && v !== null && v !== undefined) properties[k] = v;
  return { ...data, properties };
}

function CustomFieldCreate() {
  return (
    <RecordCreate<Values> transform={body}>
      <Form create />
    </RecordCreate>
  );
}

function CustomFieldEdit() {
  return (
    <RecordEdit<CustomField, Values> transform={body}>
      <Form create={false} />
    </RecordEdit>
  );
}

export default {
  list: CustomFieldList,
  show: CustomFieldShow,
  create: CustomFieldCreate,
  edit: CustomFieldEdit,
  icon: TextFieldsIcon,
  recordRepresentation: "name",
};
