import { AutocompleteArrayInput, ReferenceArrayInput } from "react-admin";
import { humanize } from "../../common/format";

/** The benefits a purchase grants, chosen among the organization's (`benefit_ids`). */
export function BenefitsInput() {
  return (
    <ReferenceArrayInput source="benefit_ids" reference="benefits">
      <AutocompleteArrayInput
        label="Benefits granted with this product"
        optionText={(b: { description: string; type: string }) => `${b.description} (${humanize(b.type)})`}
        filterToQuery={(q: string) => ({ q })}
        helperText="What a buyer gets: license keys, files, a note… Make new ones under Benefits."
        fullWidth
      />
    </ReferenceArrayInput>
  );
}
