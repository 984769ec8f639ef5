import { TextField, BooleanField } from "react-admin";
import { DateTimeField, EnumField } from "../../common/fields";
import { metaFilters } from "../../common/generic";
import { ResourceList } from "../../common/layouts";
import { ServerExportButton } from "../../common/ServerExportButton";
import { SubscriptionAmountField } from "./SubscriptionAmountField";

export function SubscriptionList() {
  return (
    <ResourceList
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
