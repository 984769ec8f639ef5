// A free plan the merchant gives a customer without a checkout (comped or free tiers): a paid plan
// needs the customer's card, so the server refuses it next to the product field.
import { SimpleForm } from "react-admin";
import { MetadataInput } from "../../common/inputs";
import { RecordCreate } from "../../common/layouts";
import { CustomerPicker, ProductPicker } from "../../common/pickers";

type Values = { customer_id: string; product_id: string; metadata_rows?: { key?: string; value?: string }[] };

export function SubscriptionCreate() {
  return (
    <RecordCreate<Values> transform={(data) => data}>
      <SimpleForm>
        <CustomerPicker />
        <ProductPicker
          label="Free plan"
          filter={{ is_recurring: true, is_archived: false }}
          helperText="A free recurring product; paid plans start through a checkout"
        />
        <MetadataInput />
      </SimpleForm>
    </RecordCreate>
  );
}
