import { SimpleForm, TextInput, required, email } from "react-admin";
import { MetadataInput } from "../../common/inputs";
import { AddressInput } from "../../common/AddressInput";

export function Form() {
  return (
    <SimpleForm>
      <TextInput source="email" validate={[required(), email()]} />
      <TextInput source="name" />
      <TextInput source="external_id" label="External id" helperText="Your system's id for this customer" />
      <AddressInput source="billing_address" label="Billing address" />
      <MetadataInput />
    </SimpleForm>
  );
}

export type Values = Record<string, unknown> & { billing_address?: Record<string, string | null> | null };

export function body(data: Values): Record<string, unknown> {
  const { billing_address, ...rest } = data;
  const hasAddress = billing_address && Object.values(billing_address).some((v) => v);
  return { ...rest, external_id: rest.external_id || null, name: rest.name || null, billing_address: hasAddress ? billing_address : null };
}
