// The product form (create and edit): name, description, billing interval (every how many, the
// free trial), visibility, tax category, prices, the benefits it grants (saved by their own call,
// dataProvider/products.ts), attached custom fields, media, metadata.
import {
  ArrayInput,
  AutocompleteInput,
  BooleanInput,
  ReferenceInput,
  SelectInput,
  SimpleForm,
  SimpleFormIterator,
  TextInput,
  required,
} from "react-admin";
import { Typography } from "@mui/material";
import { EnumInput, MetadataInput } from "../../common/inputs";
import { enumValues } from "../../common/generic";
import { PricesInput } from "./PricesInput";
import { BenefitsInput } from "./BenefitsInput";
import { MediaInput } from "./media";
import { TermsInputs } from "./terms";

const TAX_CATEGORIES = [
  { id: "digital_service", name: "Digital service" },
  { id: "saas", name: "Software as a service" },
  { id: "ebook", name: "E-book" },
  { id: "general", name: "General" },
];

export function ProductForm({ record }: { record?: Record<string, unknown> }) {
  return (
    <SimpleForm record={record}>
      <TextInput source="name" validate={required()} fullWidth />
      <TextInput source="description" multiline minRows={2} fullWidth />
      <EnumInput
        source="recurring_interval"
        label="Billing"
        values={enumValues("products", "recurring_interval")}
        emptyText="One-time purchase"
        helperText="Leave empty for a one-time product"
      />
      <TermsInputs />
      <SelectInput
        source="tax_category"
        label="Tax category"
        choices={TAX_CATEGORIES}
        helperText="E-books take a reduced rate in many countries; the others the standard rate"
      />
      <PricesInput />
      <BenefitsInput />
      <Typography variant="subtitle2" sx={{ mt: 2 }}>
        Checkout fields
      </Typography>
      <ArrayInput source="attached_custom_fields" label="Custom fields asked at checkout">
        <SimpleFormIterator inline>
          <ReferenceInput source="custom_field_id" reference="custom-fields">
            <AutocompleteInput
              label="Custom field"
              optionText="name"
              validate={required()}
              filterToQuery={(q: string) => ({ q })}
              sx={{ minWidth: 240 }}
            />
          </ReferenceInput>
          <BooleanInput source="required" label="Required" defaultValue={false} helperText={false} />
        </SimpleFormIterator>
      </ArrayInput>
      <MediaInput />
      <MetadataInput />
    </SimpleForm>
  );
}
