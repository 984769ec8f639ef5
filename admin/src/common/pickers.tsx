// Required pickers a create form uses to choose a customer or a product, searched as typed.
import { AutocompleteInput, ReferenceInput, required } from "react-admin";

export function CustomerPicker({ source = "customer_id" }: { source?: string }) {
  return (
    <ReferenceInput source={source} reference="customers">
      <AutocompleteInput label="Customer" optionText="email" validate={required()} filterToQuery={(q: string) => ({ q })} />
    </ReferenceInput>
  );
}

/** Products matching `filter` (the list's filters: is_recurring, is_archived…). */
export function ProductPicker({
  label,
  filter,
  helperText,
  source = "product_id",
}: {
  label: string;
  filter: Record<string, unknown>;
  helperText: string;
  source?: string;
}) {
  return (
    <ReferenceInput source={source} reference="products" filter={filter}>
      <AutocompleteInput
        label={label}
        optionText="name"
        validate={required()}
        filterToQuery={(q: string) => ({ q })}
        helperText={helperText}
      />
    </ReferenceInput>
  );
}
