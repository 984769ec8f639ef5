// Checkout sessions: who is buying what, for how much, and where it stands.
import { FunctionField, Show, SimpleShowLayout, TextField } from "react-admin";
import ShoppingCartIcon from "@mui/icons-material/ShoppingCart";
import type { Checkout } from "../../api";
import { CopyableTextField, DateTimeField, EnumField, MoneyField } from "../../common/fields";
import { formatDateTime, formatMoney, humanize } from "../../common/format";
import { metaFilters } from "../../common/generic";
import { ResourceList, recordDetails, facts } from "../../common/layouts";
import { LinkField, ReferenceNameField } from "../../common/references";

function CheckoutList() {
  return (
    <ResourceList
      mobile={{
        primaryText: (c: Checkout) => c.customer_email ?? c.product?.name ?? c.id,
        secondaryText: (c: Checkout) => facts(c.product?.name, humanize(c.status), formatDateTime(c.created_at)),
        tertiaryText: (c: Checkout) => formatMoney(c.total_amount, c.currency),
      }}
      filters={metaFilters("checkouts", ["query", "status"])}
      sort={{ field: "created_at", order: "DESC" }}
      create={false}
      exportFields={[
        "id",
        "created_at",
        "status",
        "customer_email",
        "product.name",
        "amount",
        "discount_amount",
        "total_amount",
        "currency",
        "expires_at",
      ]}
    >
      <DateTimeField source="created_at" label="Created" />
      <TextField source="customer_email" label="Customer" emptyText="—" sortable={false} />
      <TextField source="product.name" label="Product" sortable={false} />
      <MoneyField source="total_amount" label="Total" />
      <EnumField source="status" />
      <DateTimeField source="expires_at" label="Expires" />
    </ResourceList>
  );
}

function CheckoutShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <EnumField source="status" />
        <CopyableTextField source="url" label="Checkout page" />
        <LinkField label="Product" source="product_id" reference="products" text="product.name" />
        <MoneyField source="amount" />
        <MoneyField source="discount_amount" label="Discount" />
        <MoneyField source="tax_amount" label="Tax" />
        <MoneyField source="total_amount" label="Total" />
        <TextField source="customer_email" label="Customer email" emptyText="—" />
        <TextField source="customer_name" label="Customer name" emptyText="—" />
        <ReferenceNameField label="Customer" source="customer_id" reference="customers" />
        <LinkField label="Subscription" source="subscription_id" reference="subscriptions" />
        <FunctionField
          label="Custom fields"
          render={(c: Checkout) =>
            Object.entries(c.custom_field_data ?? {})
              .map(([k, v]) => `${k}: ${String(v)}`)
              .join(", ") || "—"
          }
        />
        <DateTimeField source="expires_at" label="Expires" />
        {recordDetails()}
      </SimpleShowLayout>
    </Show>
  );
}

export default { list: CheckoutList, show: CheckoutShow, icon: ShoppingCartIcon };
