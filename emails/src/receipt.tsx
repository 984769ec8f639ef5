// An order's receipt: line items, discount, tax, total, and its order and invoice links.
import { formatDate, formatMoney, formatPercent } from "./format.js";
import { Action, P, Rows, TextLink } from "./layout.js";
import type { Brand, OrderSummary } from "./messages.js";

/** "VAT (20%)"; a label that already names its rates ("VAT 19% (Germany)") is shown as it is. */
function taxLabel(order: OrderSummary): string {
  const label = order.tax_label ?? "Tax";
  return order.tax_rate === null || /\d%/.test(label) ? label : `${label} (${formatPercent(order.tax_rate)})`;
}

export function Receipt({ order, brand }: { order: OrderSummary; brand: Brand }) {
  const money = (amount: number) => formatMoney(amount, order.currency);
  const rows: [string, string][] = order.items.map((item) => [item.label, money(item.amount)]);
  if (order.discount_amount !== 0 || order.tax_amount !== 0) rows.push(["Subtotal", money(order.subtotal_amount)]);
  if (order.discount_amount !== 0) {
    rows.push([order.discount_name ? `Discount (${order.discount_name})` : "Discount", `−${money(order.discount_amount)}`]);
  }
  if (order.tax_amount !== 0 || order.tax_rate !== null) rows.push([taxLabel(order), money(order.tax_amount)]);
  rows.push(["Total", money(order.total_amount)]);
  return (
    <>
      <P>
        {order.invoice_number ? `Invoice ${order.invoice_number}, ` : ""}
        {formatDate(order.created_at)}
      </P>
      <Rows rows={rows} strongLast />
      <Action href={order.order_url} brand={brand}>
        View your order
      </Action>
      {order.invoice_url ? (
        <P>
          <TextLink href={order.invoice_url}>Download the invoice (PDF)</TextLink>
        </P>
      ) : null}
    </>
  );
}
