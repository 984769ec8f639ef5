// Payments: every charge attempt, succeeded or declined, with the decline reason.
import { Datagrid, FunctionField, List, Show, SimpleShowLayout, TextField } from "react-admin";
import PaymentIcon from "@mui/icons-material/Payment";
import { Link } from "react-router-dom";
import type { Payment } from "../../api";
import { DateTimeField, EnumField, IdField, MoneyField } from "../../common/fields";
import { ListActions, metaFilters } from "../../common/generic";
import { csvExporter } from "../../common/csv";

const card = (p: Payment) => ("method_metadata" in p && p.method_metadata ? `${p.method_metadata.brand} •••• ${p.method_metadata.last4}` : p.method);

function PaymentList() {
  return (
    <List filters={metaFilters("payments", ["status", "customer_email"])} sort={{ field: "created_at", order: "DESC" }} actions={<ListActions create={false} />} exporter={csvExporter("payments", ["id", "created_at", "status", "amount", "currency", "method", "decline_reason", "order_id", "checkout_id"])}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <DateTimeField source="created_at" label="Date" />
        <MoneyField source="amount" />
        <EnumField source="status" />
        <FunctionField label="Method" sortBy="method" render={card} />
        <TextField source="decline_message" label="Decline" emptyText="—" sortable={false} />
      </Datagrid>
    </List>
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
        <FunctionField label="Order" render={(p: Payment) => (p.order_id ? <Link to={`/orders/${p.order_id}/show`}>{p.order_id}</Link> : "—")} />
        <FunctionField label="Checkout" render={(p: Payment) => (p.checkout_id ? <Link to={`/checkouts/${p.checkout_id}/show`}>{p.checkout_id}</Link> : "—")} />
        <IdField source="id" label="ID" />
        <DateTimeField source="created_at" label="Date" />
      </SimpleShowLayout>
    </Show>
  );
}

export default { list: PaymentList, show: PaymentShow, icon: PaymentIcon };
