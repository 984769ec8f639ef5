import { FunctionField, TextField } from "react-admin";
import type { TestClock } from "../../api";
import { DateTimeField, EnumField } from "../../common/fields";
import { ResourceList } from "../../common/layouts";

export function TestClockList() {
  return (
    <ResourceList exportFields={false}>
      <TextField source="name" emptyText="—" sortable={false} />
      <DateTimeField source="frozen_time" label="Clock time" />
      <EnumField source="status" />
      <FunctionField label="Customers" render={(c: TestClock) => c.customer_ids.length} />
      <DateTimeField source="created_at" label="Created" />
    </ResourceList>
  );
}
