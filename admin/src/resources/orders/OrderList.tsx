// The orders list: the server's own filters (status, dates, customer email) and the contract's others.
import { FunctionField, SelectArrayInput, TextField } from "react-admin";
import type { Order } from "../../api";
import { DateTimeField, EnumField, MoneyField } from "../../common/fields";
import { enumValues, metaFilters } from "../../common/generic";
import { choicesOf } from "../../common/inputs";
import { formatDateTime, formatMoney, humanize } from "../../common/format";
import { ResourceList, facts } from "../../common/layouts";
import { ServerExportButton } from "../../common/ServerExportButton";
import { CheckedTextFilter, DateTimeFilter, ShowsErrors, useServerFilterError } from "../../common/filterErrors";
import { adminResourcesByName } from "../../../../generated/admin-resources";

/** Status: any of the contract's order statuses; the server's 422 about it shows under it. */
function StatusFilter({ source, label }: { source: string; label: string; alwaysOn?: boolean }) {
  useServerFilterError(source);
  return (
    <ShowsErrors>
      <SelectArrayInput source={source} label={label} choices={choicesOf(enumValues("orders", "status"))} sx={{ minWidth: 180 }} />
    </ShowsErrors>
  );
}

const OWN_FILTERS = ["status", "created_after", "created_before", "customer_email"];

const filters = [
  <StatusFilter key="status" source="status" label="Status" alwaysOn />,
  <DateTimeFilter key="created_after" source="created_after" label="From" alwaysOn />,
  <DateTimeFilter key="created_before" source="created_before" label="Until" alwaysOn />,
  <CheckedTextFilter
    key="customer_email"
    source="customer_email"
    label="Customer email"
    helperText="part of the email, any case"
    alwaysOn
  />,
  // the contract's other filters, as the generic lists render them
  ...metaFilters(
    "orders",
    ["product_billing_type"],
    (adminResourcesByName.orders?.filters ?? []).map((f) => f.name).filter((n) => !OWN_FILTERS.includes(n)),
  ),
];

export function OrderList() {
  return (
    <ResourceList
      mobile={{
        primaryText: (o: Order) => o.customer.email,
        secondaryText: (o: Order) =>
          facts(
            o.product?.name,
            humanize(o.status),
            o.billing_address?.country,
            o.tax_amount ? `tax ${formatMoney(o.tax_amount, o.currency)}` : null,
            formatDateTime(o.created_at),
          ),
        tertiaryText: (o: Order) => formatMoney(o.total_amount, o.currency),
      }}
      actions={<ServerExportButton path="/v1/orders/export" name="orders" />}
      filters={filters}
      sort={{ field: "created_at", order: "DESC" }}
      exportFields={[
        "id",
        "created_at",
        "status",
        "billing_reason",
        "customer.email",
        "customer.tax_id",
        "billing_name",
        "billing_address.line1",
        "billing_address.line2",
        "billing_address.postal_code",
        "billing_address.city",
        "billing_address.state",
        "billing_address.country",
        "product.name",
        "subtotal_amount",
        "discount_amount",
        "tax_amount",
        "tax_rate.display_name",
        "taxability_reason",
        "total_amount",
        "refunded_amount",
        "currency",
        "subscription_id",
      ]}
    >
      <DateTimeField source="created_at" label="Date" />
      <TextField source="customer.email" label="Customer" sortBy="customer" />
      <TextField source="product.name" label="Product" sortBy="product" />
      <FunctionField label="Country" render={(o: Order) => o.billing_address?.country ?? "—"} />
      <MoneyField source="tax_amount" label="Tax" sortable={false} />
      <MoneyField source="total_amount" label="Total" sortBy="amount" />
      <EnumField source="status" />
      <EnumField source="billing_reason" label="Reason" />
    </ResourceList>
  );
}
