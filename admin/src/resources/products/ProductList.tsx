// Products: name, active prices, how often they bill, visibility; archived ones behind the filter.
import { BooleanField, TextField } from "react-admin";
import type { Product } from "../../api";
import { DateTimeField } from "../../common/fields";
import { billingText, humanize } from "../../common/format";
import { metaFilters } from "../../common/generic";
import { ResourceList, facts } from "../../common/layouts";
import { PricesField } from "./PricesField";
import { priceText } from "./priceText";
import { BillingField, VisibilityField } from "./terms";

export function ProductList() {
  return (
    <ResourceList
      mobile={{
        primaryText: (p: Product) => p.name,
        secondaryText: (p: Product) =>
          facts(billingText(p.recurring_interval, p.recurring_interval_count), humanize(p.visibility), p.is_archived && "archived"),
        tertiaryText: (p: Product) => (p.prices[0] ? priceText(p.prices[0], p.recurring_interval, p.recurring_interval_count) : ""),
      }}
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
