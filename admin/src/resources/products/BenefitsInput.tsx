import { AutocompleteArrayInput, ReferenceArrayInput } from "react-admin";
import { humanize } from "../../common/format";
import { NewBenefitDialog } from "./NewBenefitDialog";

/** The benefits a purchase grants, chosen among the organization's (`benefit_ids`), or made here. */
export function BenefitsInput() {
  return (
    <ReferenceArrayInput source="benefit_ids" reference="benefits">
      <AutocompleteArrayInput
        label="Benefits granted with this product"
        optionText={(b: { description: string; type: string }) => `${b.description} (${humanize(b.type)})`}
        filterToQuery={(q: string) => ({ q })}
        create={<NewBenefitDialog />}
        createLabel="New benefit…"
        createItemLabel="New benefit: %{item}"
        helperText="What a buyer gets: license keys, files, a note…"
        fullWidth
      />
    </ReferenceArrayInput>
  );
}
