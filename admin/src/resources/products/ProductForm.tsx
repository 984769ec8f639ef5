// The product form (create and edit): name, description, billing interval (every how many, the
// free trial), visibility, prices, attached custom fields, media, metadata. Benefits are granted
// from the product's page (their own call).
import { ArrayInput, AutocompleteInput, BooleanInput, ReferenceInput, SimpleForm, SimpleFormIterator, TextInput, required } from "react-admin";
import { Typography } from "@mui/material";
import { EnumInput, MetadataInput } from "../../common/inputs";
import { enumValues } from "../../common/generic";
import { PricesInput } from "./prices";
import { MediaInput } from "./media";
import { TermsInputs } from "./terms";

export function ProductForm({ record }: { record?: Record<string, unknown> }) {
  return (
    <SimpleForm record={record}>
      <TextInput source="name" validate={required()} fullWidth />
      <TextInput source="description" multiline minRows={2} fullWidth />
      <EnumInput source="recurring_interval" label="Billing" values={enumValues("products", "recurring_interval")} emptyText="One-time purchase" helperText="Leave empty for a one-time product" />
      <TermsInputs />
      <PricesInput />
      <Typography variant="subtitle2" sx={{ mt: 2 }}>Checkout fields</Typography>
      <ArrayInput source="attached_custom_fields" label="Custom fields asked at checkout">
        <SimpleFormIterator inline>
          <ReferenceInput source="custom_field_id" reference="custom-fields">
            <AutocompleteInput label="Custom field" optionText="name" validate={required()} filterToQuery={(q: string) => ({ q })} sx={{ minWidth: 240 }} />
          </ReferenceInput>
          <BooleanInput source="required" label="Required" defaultValue={false} helperText={false} />
        </SimpleFormIterator>
      </ArrayInput>
      <MediaInput />
      <MetadataInput />
    </SimpleForm>
  );
}
