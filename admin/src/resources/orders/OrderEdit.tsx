import { Edit, SimpleForm, TextInput } from "react-admin";
import { AddressInput } from "../../common/AddressInput";

export function OrderEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect="show" title="Billing details">
      <SimpleForm>
        <TextInput source="billing_name" label="Billing name" />
        <AddressInput source="billing_address" label="Billing address" />
      </SimpleForm>
    </Edit>
  );
}
