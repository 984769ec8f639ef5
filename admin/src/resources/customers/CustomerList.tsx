import { TextField } from "react-admin";
import { DateTimeField } from "../../common/fields";
import { metaFilters } from "../../common/generic";
import { ResourceList } from "../../common/layouts";
import { ServerExportButton } from "../../common/ServerExportButton";

export function CustomerList() {
  return (
    <ResourceList
      actions={<ServerExportButton path="/v1/customers/export" name="customers" />}
      filters={metaFilters("customers", ["query"])}
      sort={{ field: "created_at", order: "DESC" }}
      exportFields={["id", "email", "name", "external_id", "billing_address", "created_at"]}
    >
      <TextField source="email" />
      <TextField source="name" emptyText="—" />
      <TextField source="external_id" label="External id" emptyText="—" sortable={false} />
      <DateTimeField source="created_at" label="Created" />
    </ResourceList>
  );
}
