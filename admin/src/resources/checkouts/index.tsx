// Checkout sessions: who is buying what, for how much, and where it stands.
import { Datagrid, FunctionField, List, Show, SimpleShowLayout, TextField } from "react-admin";
import ShoppingCartIcon from "@mui/icons-material/ShoppingCart";
import { Link } from "react-router-dom";
import type { Checkout } from "../../api";
import { CopyableTextField, DateTimeField, EnumField, IdField, MetadataField, MoneyField } from "../../common/fields";
import { ListActions, metaFilters } from "../../common/generic";
import { csvExporter } from "../../common/csv";

function CheckoutList() {
  return (
    <List filters={metaFilters("checkouts", ["query", "status"])} sort={{ field: "created_at", order: "DESC" }} actions={<ListActions create={false} />} exporter={csvExporter("checkouts", ["id", "created_at", "status", "customer_email", "product.name", "amount", "discount_amount", "total_amount", "currency", "expires_at"])}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <DateTimeField source="created_at" label="Created" />
        <TextField source="customer_email" label="Customer" emptyText="—" sortable={false} />
        <TextField source="product.name" label="Product" sortable={false} />
        <MoneyField source="total_amount" label="Total" />
        <EnumField source="status" />
        <DateTimeField source="expires_at" label="Expires" />
      </Datagrid>
    </List>
  );
}

function CheckoutShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <EnumField source="status" />
        <CopyableTextField source="url" label="Checkout page" />
        <TextField source="product.name" label="Product" />
        <MoneyField source="amount" />
        <MoneyField source="discount_amount" label="Discount" />
        <MoneyField source="tax_amount" label="Tax" />
        <MoneyField source="total_amount" label="Total" />
        <TextField source="customer_email" label="Customer email" emptyText="—" />
        <TextField source="customer_name" label="Customer name" emptyText="—" />
        <FunctionField label="Customer" render={(c: Checkout) => (c.customer_id ? <Link to={`/customers/${c.customer_id}/show`}>{c.customer_id}</Link> : "—")} />
        <FunctionField label="Subscription" render={(c: Checkout) => (c.subscription_id ? <Link to={`/subscriptions/${c.subscription_id}/show`}>{c.subscription_id}</Link> : "—")} />
        <FunctionField label="Custom fields" render={(c: Checkout) => Object.entries(c.custom_field_data ?? {}).map(([k, v]) => `${k}: ${String(v)}`).join(", ") || "—"} />
        <DateTimeField source="expires_at" label="Expires" />
        <IdField source="id" label="ID" />
        <DateTimeField source="created_at" label="Created" />
        <MetadataField source="metadata" label="Metadata" />
      </SimpleShowLayout>
    </Show>
  );
}

export default { list: CheckoutList, show: CheckoutShow, icon: ShoppingCartIcon };
