import { FunctionField, TextField } from "react-admin";
import type { TestClock } from "../../api";
import { DateTimeField, EnumField } from "../../common/fields";
import { formatDateTime, humanize } from "../../common/format";
import { ResourceList, facts } from "../../common/layouts";

export function TestClockList() {
  return (
    <ResourceList
      mobile={{
        primaryText: (c: TestClock) => c.name ?? formatDateTime(c.frozen_time),
        secondaryText: (c: TestClock) => facts(formatDateTime(c.frozen_time), humanize(c.status), `${c.customer_ids.length} customers`),
      }}
      exportFields={false}
    >
      <TextField source="name" emptyText="—" sortable={false} />
      <DateTimeField source="frozen_time" label="Clock time" />
      <EnumField source="status" />
      <FunctionField label="Customers" render={(c: TestClock) => c.customer_ids.length} />
      <DateTimeField source="created_at" label="Created" />
    </ResourceList>
  );
}
