import { BooleanField, Datagrid, List, TextField } from "react-admin";
import { DateTimeField, EnumField } from "../../common/fields";
import { ListActions, metaFilters } from "../../common/generic";
import { csvExporter } from "../../common/csv";
import { PricesField } from "./prices";

export function ProductList() {
  return (
    <List
      filters={metaFilters("products", ["query", "is_archived"], ["query", "is_archived", "is_recurring", "benefit_id"])}
      filterDefaultValues={{ is_archived: false }}
      sort={{ field: "created_at", order: "DESC" }}
      actions={<ListActions />}
      exporter={csvExporter("products", ["id", "name", "description", "recurring_interval", "is_archived", "created_at"])}
    >
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <TextField source="name" />
        <PricesField label="Prices" />
        <EnumField source="recurring_interval" label="Billing" />
        <BooleanField source="is_archived" label="Archived" sortable={false} />
        <DateTimeField source="created_at" label="Created" />
      </Datagrid>
    </List>
  );
}
