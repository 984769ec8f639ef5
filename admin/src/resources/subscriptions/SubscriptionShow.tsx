import { Show, SimpleShowLayout, TextField, BooleanField, FunctionField } from "react-admin";
import type { Subscription } from "../../api";
import { DateTimeField, EnumField } from "../../common/fields";
import { billingText } from "../../common/format";
import { recordDetails } from "../../common/layouts";
import { LinkField } from "../../common/references";
import { SeatsSection } from "../customer-seats";
import { Actions } from "./SubscriptionActions";
import { SubscriptionAmountField } from "./SubscriptionAmountField";
import { TrialDatesField } from "./TrialDatesField";

export function SubscriptionShow() {
  return (
    <Show actions={<Actions />}>
      <SimpleShowLayout>
        <EnumField source="status" />
        <LinkField label="Customer" source="customer_id" reference="customers" text="customer.email" />
        <LinkField label="Product" source="product_id" reference="products" text="product.name" />
        <SubscriptionAmountField label="Amount" />
        <FunctionField label="Billing" render={(s: Subscription) => billingText(s.recurring_interval, s.recurring_interval_count)} />
        <TrialDatesField label="Free trial" />
        <LinkField label="Discount" source="discount_id" reference="discounts" text="discount.name" />
        <DateTimeField source="started_at" label="Started" />
        <DateTimeField source="current_period_start" label="Period start" />
        <DateTimeField source="current_period_end" label="Period end" />
        <BooleanField source="cancel_at_period_end" label="Cancels at period end" />
        <DateTimeField source="ends_at" label="Ends" />
        <DateTimeField source="ended_at" label="Ended" />
        <EnumField source="customer_cancellation_reason" label="Cancellation reason" />
        <TextField source="customer_cancellation_comment" label="Cancellation comment" emptyText="—" />
        {recordDetails({ created: false })}
      </SimpleShowLayout>
      <SeatsSection of="subscription" />
    </Show>
  );
}
