// Products: name, active prices, how often they bill, visibility; archived ones behind the filter.
import { BooleanField, TextField } from "react-admin";
import { DateTimeField } from "../../common/fields";
import { metaFilters } from "../../common/generic";
import { ResourceList } from "../../common/layouts";
import { PricesField } from "./PricesField";
import { BillingField, VisibilityField } from "./terms";

export function ProductList() {
  return (
    <ResourceList
      filters={metaFilters("products", ["query", "is_archived"], ["query", "is_archived", "is_recurring", "visibility", "benefit_id"])}
      filterDefaultValues={{ is_archived: false }}
      sort={{ field: "created_at", order: "DESC" }}
      exportFields={[
        "id",
        "name",
        "description",
        "recurring_interval",
        "recurring_interval_count",
        "trial_interval",
        "trial_interval_count",
        "visibility",
        "is_archived",
        "created_at",
      ]}
    >
      <TextField source="name" />
      <PricesField label="Prices" />
      <BillingField label="Billing" />
      <VisibilityField label="Visibility" />
      <BooleanField source="is_archived" label="Archived" sortable={false} />
      <DateTimeField source="created_at" label="Created" />
    </ResourceList>
  );
}
