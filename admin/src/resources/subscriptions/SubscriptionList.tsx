import { TextField, BooleanField } from "react-admin";
import type { Subscription } from "../../api";
import { DateTimeField, EnumField } from "../../common/fields";
import { formatDateTime, formatMoney, humanize, perPeriod } from "../../common/format";
import { metaFilters } from "../../common/generic";
import { ResourceList, facts } from "../../common/layouts";
import { ServerExportButton } from "../../common/ServerExportButton";
import { SubscriptionAmountField } from "./SubscriptionAmountField";

export function SubscriptionList() {
  return (
    <ResourceList
      mobile={{
        primaryText: (s: Subscription) => s.customer.email,
        secondaryText: (s: Subscription) =>
          facts(s.product.name, humanize(s.status), s.current_period_end ? `renews ${formatDateTime(s.current_period_end)}` : null),
        tertiaryText: (s: Subscription) =>
          `${formatMoney(s.amount, s.currency)} ${perPeriod(s.recurring_interval, s.recurring_interval_count)}`,
      }}
      actions={<ServerExportButton path="/v1/subscriptions/export" name="subscriptions" />}
      filters={metaFilters("subscriptions", ["active"])}
      sort={{ field: "started_at", order: "DESC" }}
      exportFields={[
        "id",
        "status",
        "customer.email",
        "product.name",
        "amount",
        "currency",
        "recurring_interval",
        "started_at",
        "current_period_end",
        "cancel_at_period_end",
        "ends_at",
      ]}
    >
      <TextField source="customer.email" label="Customer" sortBy="customer" />
      <TextField source="product.name" label="Product" sortBy="product" />
      <SubscriptionAmountField label="Amount" sortBy="amount" />
      <EnumField source="status" />
      <DateTimeField source="current_period_end" label="Renews / ends" />
      <DateTimeField source="trial_end" label="Trial ends" />
      <BooleanField source="cancel_at_period_end" label="Cancels" sortable={false} />
    </ResourceList>
  );
}
