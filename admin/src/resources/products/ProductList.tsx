// Products: name, active prices, billing interval; archived ones behind the filter.
import { BooleanField, TextField } from "react-admin";
import { DateTimeField, EnumField } from "../../common/fields";
import { metaFilters } from "../../common/generic";
import { ResourceList } from "../../common/layouts";
import { PricesField } from "./prices";

export function ProductList() {
  return (
    <ResourceList
      filters={metaFilters("products", ["query", "is_archived"], ["query", "is_archived", "is_recurring", "benefit_id"])}
      filterDefaultValues={{ is_archived: false }}
      sort={{ field: "created_at", order: "DESC" }}
      exportFields={["id", "name", "description", "recurring_interval", "is_archived", "created_at"]}
    >
      <TextField source="name" />
      <PricesField label="Prices" />
      <EnumField source="recurring_interval" label="Billing" />
      <BooleanField source="is_archived" label="Archived" sortable={false} />
      <DateTimeField source="created_at" label="Created" />
    </ResourceList>
  );
}
