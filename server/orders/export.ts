// The orders export (orders:export): one CSV row per order, oldest first, with Polar's columns
// (amounts in minor units, as the API's), then the buyer's tax id, the rate the tax was charged at
// and why, and the billing address lines.
import type { Knex } from "knex";
import type { OpQuery } from "../../generated/handlers.js";
import { ADDRESS_LINE_COLUMNS, addressLineCells } from "../customers/address.js";
import { csvFile } from "../kit/csv.js";
import { checkTimeZone, zonedIso } from "../kit/timezones.js";
import { netAmount, totalAmount } from "./models.js";
import { ordersOldestFirst, type OrderScope } from "./repository.js";

const COLUMNS = [
  "Email",
  "Created At",
  "Product",
  "Net Amount",
  "Currency",
  "Status",
  "Invoice number",
  "Customer Name",
  "Billing Name",
  "Billing Country",
  "Subtotal",
  "Discount",
  "Tax",
  "Total",
  "Refunded Amount",
  "Billing Reason",
  "Tax ID",
  "Tax Rate",
  "Taxability Reason",
  ...ADDRESS_LINE_COLUMNS,
  "ID",
];

export async function exportOrders(db: Knex, scope: OrderScope, query: OpQuery<"orders:export">): Promise<string> {
  const tz = await checkTimeZone(db, query.timezone, ["query", "timezone"]);
  const rows = await ordersOldestFirst(db, scope, { organization_id: query.organization_id, product_id: query.product_id });
  return csvFile(
    COLUMNS,
    rows.map((o) => [
      o.customer_email,
      zonedIso(tz, o.created_at),
      o.product_name,
      netAmount(o),
      o.currency,
      o.status,
      o.invoice_number,
      o.customer_name,
      o.billing_name,
      o.billing_address?.country,
      o.subtotal_amount,
      o.discount_amount,
      o.tax_amount,
      totalAmount(o),
      o.refunded_amount,
      o.billing_reason,
      o.customer_tax_id?.[0],
      o.tax_rate?.display_name,
      o.taxability_reason,
      ...addressLineCells(o.billing_address),
      o.id,
    ]),
  );
}
