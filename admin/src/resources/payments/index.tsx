// Payments: every charge attempt, succeeded or declined, with the decline reason.
import { FunctionField, Show, SimpleShowLayout, TextField } from "react-admin";
import PaymentIcon from "@mui/icons-material/Payment";
import type { Payment } from "../../api";
import { DateTimeField, EnumField, MoneyField } from "../../common/fields";
import { formatDateTime, formatMoney, humanize } from "../../common/format";
import { metaFilters } from "../../common/generic";
import { ResourceList, recordDetails, facts } from "../../common/layouts";
import { LinkField } from "../../common/references";

const card = (p: Payment) =>
  "method_metadata" in p && p.method_metadata ? `${p.method_metadata.brand} •••• ${p.method_metadata.last4}` : p.method;

function PaymentList() {
  return (
    <ResourceList
      mobile={{
        primaryText: (p: Payment) => card(p),
        secondaryText: (p: Payment) => facts(humanize(p.status), p.decline_message, formatDateTime(p.created_at)),
        tertiaryText: (p: Payment) => formatMoney(p.amount, p.currency),
      }}
      filters={metaFilters("payments", ["status", "customer_email"])}
      sort={{ field: "created_at", order: "DESC" }}
      create={false}
      exportFields={["id", "created_at", "status", "amount", "currency", "method", "decline_reason", "order_id", "checkout_id"]}
    >
      <DateTimeField source="created_at" label="Date" />
      <MoneyField source="amount" />
      <EnumField source="status" />
      <FunctionField label="Method" sortBy="method" render={card} />
      <TextField source="decline_message" label="Decline" emptyText="—" sortable={false} />
    </ResourceList>
  );
}

function PaymentShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <MoneyField source="amount" />
        <EnumField source="status" />
        <FunctionField label="Method" render={card} />
        <TextField source="decline_reason" label="Decline reason" emptyText="—" />
        <TextField source="decline_message" label="Decline message" emptyText="—" />
        <LinkField label="Order" source="order_id" reference="orders" />
        <LinkField label="Checkout" source="checkout_id" reference="checkouts" />
        {recordDetails({ created: "Date", metadata: false })}
      </SimpleShowLayout>
    </Show>
  );
}

export default { list: PaymentList, show: PaymentShow, icon: PaymentIcon };
