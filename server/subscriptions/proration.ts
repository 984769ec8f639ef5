// What every price change of a subscription shares: the share of its period left on its own clock,
// and settling the proration lines (invoice: an order for a positive difference, charged at once;
// prorate, or a credit: the lines join the next renewal's order).
import type { Knex } from "knex";
import { findCustomer, type CustomerRow } from "../customers/repository.js";
import { taxOrderLines } from "../orders/lines-tax.js";
import { createOrderForCheckout } from "../orders/service.js";
import type { PriceRow, ProductRow } from "../products/repository.js";
import { prorationItem } from "./billing.js";
import { orderDependents, type ProrationLine, type SubscriptionRow } from "./repository.js";

export const isEnded = (row: SubscriptionRow) => row.status === "canceled" || row.status === "incomplete_expired" || row.ended_at !== null;

/** The share of the current period left at `now` (0 to 1). */
export function periodLeft(row: SubscriptionRow, now: Date): number {
  const start = new Date(row.current_period_start).getTime();
  const end = new Date(row.current_period_end).getTime();
  return end > start ? Math.min(1, Math.max(0, end - now.getTime()) / (end - start)) : 0;
}

/** The span a proration line covers: from the change to the period's end. */
export function prorationSpan(row: SubscriptionRow, now: Date): { start: string; end: string } {
  const end = new Date(row.current_period_end).getTime();
  return { start: new Date(Math.min(now.getTime(), end)).toISOString(), end: new Date(end).toISOString() };
}

/**
 * Settles the lines of a change: with `invoice` and a positive net, an order for them (billing
 * reason subscription_update) that the workflow charges at once; otherwise they are added to the
 * subscription's pending prorations. Returns the columns to write on the subscription.
 */
export async function settleProration(
  trx: Knex.Transaction,
  row: SubscriptionRow,
  target: { product: ProductRow; price: PriceRow },
  lines: ProrationLine[],
  behavior: "invoice" | "prorate",
  now: Date,
): Promise<{ pending_prorations: ProrationLine[]; pending_order_id: string | null }> {
  const net = lines.reduce((n, l) => n + l.amount, 0);
  const pending = [...(row.pending_prorations ?? [])];
  if (behavior !== "invoice" || net <= 0) return { pending_prorations: [...pending, ...lines], pending_order_id: null };
  const customer = (await findCustomer(trx, row.customer_id)) as CustomerRow;
  const taxed = await taxOrderLines(
    trx,
    { organizationId: row.organization_id, customer, product: target.product, currency: row.currency, date: now },
    lines.map(prorationItem),
    0,
  );
  const order = await createOrderForCheckout(
    trx,
    {
      organizationId: row.organization_id,
      customerId: row.customer_id,
      productId: target.product.id,
      productPriceId: target.price.id,
      checkoutId: null,
      subscriptionId: row.id,
      billingReason: "subscription_update",
      currency: row.currency,
      subtotalAmount: taxed.subtotal,
      discountAmount: 0,
      discountId: null,
      taxAmount: taxed.taxAmount,
      items: taxed.items,
      billingName: customer.billing_name ?? customer.name,
      billingAddress: customer.billing_address,
      metadata: row.metadata,
      customFieldData: {},
      tax: taxed.tax,
    },
    orderDependents,
  );
  return { pending_prorations: pending, pending_order_id: order.id };
}
