// Refunds: made from an order's page; listed and filtered here.
import { Datagrid, FunctionField, List, Show, SimpleShowLayout, BooleanField } from "react-admin";
import UndoIcon from "@mui/icons-material/Undo";
import { Link } from "react-router-dom";
import type { Refund } from "../../api";
import { DateTimeField, EnumField, IdField, MetadataField, MoneyField } from "../../common/fields";
import { ListActions, metaFilters } from "../../common/generic";
import { csvExporter } from "../../common/csv";

function RefundList() {
  return (
    <List filters={metaFilters("refunds", ["succeeded"])} sort={{ field: "created_at", order: "DESC" }} actions={<ListActions create={false} />} exporter={csvExporter("refunds", ["id", "created_at", "status", "reason", "amount", "tax_amount", "currency", "order_id", "customer_id"])}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <DateTimeField source="created_at" label="Date" />
        <MoneyField source="amount" />
        <EnumField source="reason" />
        <EnumField source="status" />
        <FunctionField label="Order" render={(r: Refund) => <Link to={`/orders/${r.order_id}/show`} onClick={(e) => e.stopPropagation()}>View order</Link>} />
      </Datagrid>
    </List>
  );
}

function RefundShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <MoneyField source="amount" />
        <MoneyField source="tax_amount" label="Tax refunded" />
        <EnumField source="reason" />
        <EnumField source="status" />
        <BooleanField source="revoke_benefits" label="Benefits revoked" />
        <FunctionField label="Order" render={(r: Refund) => <Link to={`/orders/${r.order_id}/show`}>{r.order_id}</Link>} />
        <FunctionField label="Customer" render={(r: Refund) => <Link to={`/customers/${r.customer_id}/show`}>{r.customer_id}</Link>} />
        <IdField source="id" label="ID" />
        <DateTimeField source="created_at" label="Date" />
        <MetadataField source="metadata" label="Metadata" />
      </SimpleShowLayout>
    </Show>
  );
}

export default { list: RefundList, show: RefundShow, icon: UndoIcon };
