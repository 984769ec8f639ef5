import { FunctionField, TextField } from "react-admin";
import type { Meter } from "../../api";
import { DateTimeField } from "../../common/fields";
import { metaFilters } from "../../common/generic";
import { ResourceList, facts } from "../../common/layouts";
import { aggregationText, unitText, filterText } from "./meterText";

export function MeterList() {
  return (
    <ResourceList
      mobile={{
        primaryText: (m: Meter) => m.name,
        secondaryText: (m: Meter) => facts(aggregationText(m), unitText(m)),
      }}
      filters={metaFilters("meters", ["query", "is_archived"])}
      filterDefaultValues={{ is_archived: false }}
      sort={{ field: "created_at", order: "DESC" }}
    >
      <TextField source="name" />
      <FunctionField label="Counts" render={(m: Meter) => aggregationText(m)} />
      <FunctionField label="Unit" render={(m: Meter) => unitText(m)} />
      <FunctionField label="Events" render={(m: Meter) => filterText(m.filter)} />
      <DateTimeField source="created_at" label="Created" />
    </ResourceList>
  );
}
