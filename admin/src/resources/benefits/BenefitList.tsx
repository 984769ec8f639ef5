import { TextField } from "react-admin";
import { DateTimeField, EnumField } from "../../common/fields";
import { metaFilters } from "../../common/generic";
import { ResourceList } from "../../common/layouts";

export function BenefitList() {
  return (
    <ResourceList
      filters={metaFilters("benefits", ["query", "type"])}
      sort={{ field: "created_at", order: "DESC" }}
      exportFields={["id", "type", "description", "created_at"]}
    >
      <TextField source="description" />
      <EnumField source="type" />
      <DateTimeField source="created_at" label="Created" />
    </ResourceList>
  );
}
