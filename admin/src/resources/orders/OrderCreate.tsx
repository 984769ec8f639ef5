// A draft order: a one-time fixed-price product for a customer with a saved card, charged later
// from the order's page ("Charge saved card"). The amount and label default to the product's.
import { SimpleForm, TextInput } from "react-admin";
import { MetadataInput, MoneyInput } from "../../common/inputs";
import { RecordCreate } from "../../common/layouts";
import { CustomerPicker, ProductPicker } from "../../common/pickers";

type Values = Record<string, unknown> & { amount?: number | null; description?: string | null };

export function OrderCreate() {
  return (
    <RecordCreate<Values>
      transform={(data) => Object.assign({}, data, { amount: data.amount ?? null, description: data.description || null })}
    >
      <SimpleForm>
        <CustomerPicker />
        <ProductPicker
          label="Product"
          filter={{ is_recurring: false, is_archived: false }}
          helperText="A one-time product with a fixed price"
        />
        <MoneyInput source="amount" label="Amount" helperText="In the product's currency; its price when left empty" />
        <TextInput source="description" label="Line label" helperText="The product's name when left empty" />
        <MetadataInput />
      </SimpleForm>
    </RecordCreate>
  );
}
