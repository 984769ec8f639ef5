// A free plan the merchant gives a customer without a checkout (comped or free tiers): a paid plan
// needs the customer's card, so the server refuses it next to the product field.
import { AutocompleteInput, ReferenceInput, SimpleForm, required } from "react-admin";
import { MetadataInput } from "../../common/inputs";
import { RecordCreate } from "../../common/layouts";

type Values = { customer_id: string; product_id: string; metadata_rows?: { key?: string; value?: string }[] };

export function SubscriptionCreate() {
  return (
    <RecordCreate<Values> transform={(data) => data}>
      <SimpleForm>
        <ReferenceInput source="customer_id" reference="customers">
          <AutocompleteInput label="Customer" optionText="email" validate={required()} filterToQuery={(q: string) => ({ q })} />
        </ReferenceInput>
        <ReferenceInput source="product_id" reference="products" filter={{ is_recurring: true, is_archived: false }}>
          <AutocompleteInput
            label="Free plan"
            optionText="name"
            validate={required()}
            filterToQuery={(q: string) => ({ q })}
            helperText="A free recurring product; paid plans start through a checkout"
          />
        </ReferenceInput>
        <MetadataInput />
      </SimpleForm>
    </RecordCreate>
  );
}
