import { TextField } from "react-admin";
import type { Benefit } from "../../api";
import { DateTimeField, EnumField } from "../../common/fields";
import { formatDateTime, humanize } from "../../common/format";
import { metaFilters } from "../../common/generic";
import { ResourceList, facts } from "../../common/layouts";

export function BenefitList() {
  return (
    <ResourceList
      mobile={{
        primaryText: (b: Benefit) => b.description,
        secondaryText: (b: Benefit) => facts(humanize(b.type), formatDateTime(b.created_at)),
      }}
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
