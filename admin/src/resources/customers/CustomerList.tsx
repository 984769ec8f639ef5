import { FunctionField, TextField } from "react-admin";
import type { Customer } from "../../api";
import { taxIdText } from "../../common/address";
import { DateTimeField } from "../../common/fields";
import { formatDateTime } from "../../common/format";
import { metaFilters } from "../../common/generic";
import { ResourceList, facts } from "../../common/layouts";
import { ServerExportButton } from "../../common/ServerExportButton";

export function CustomerList() {
  return (
    <ResourceList
      mobile={{
        primaryText: (c: Customer) => c.email,
        secondaryText: (c: Customer) => facts(c.name, c.billing_address?.country, c.tax_id?.[0], formatDateTime(c.created_at)),
      }}
      actions={<ServerExportButton path="/v1/customers/export" name="customers" />}
      filters={metaFilters("customers", ["query"])}
      sort={{ field: "created_at", order: "DESC" }}
      exportFields={["id", "email", "name", "external_id", "tax_id", "billing_address", "created_at"]}
    >
      <TextField source="email" />
      <TextField source="name" emptyText="—" />
      <FunctionField label="Country" render={(c: Customer) => c.billing_address?.country ?? "—"} />
      <FunctionField label="Tax ID" render={(c: Customer) => taxIdText(c.tax_id)} />
      <TextField source="external_id" label="External id" emptyText="—" sortable={false} />
      <DateTimeField source="created_at" label="Created" />
    </ResourceList>
  );
}
