// What every price change of a subscription shares: its proration behaviour, the share of its period
// left on its own clock, settling the proration lines (invoice and reset: an order for a positive
// difference, charged at once; prorate, or a credit: the lines join the next renewal's order), and
// the pending update a next_period change leaves.
import { randomUUID } from "node:crypto";
import type { Knex } from "knex";
import type { components } from "../../generated/types.js";
import { invalid } from "../kit/errors.js";
import { iso } from "../kit/time.js";
import type { OrganizationRow } from "../organizations/repository.js";
import { addIntervals } from "./periods.js";
import { requireCustomer } from "../customers/repository.js";
import { taxOrderLines } from "../orders/lines-tax.js";
import { createOrderForCheckout, type OrderItemInput } from "../orders/service.js";
import type { PriceRow, ProductRow } from "../products/repository.js";
import { orderDependents, type PendingUpdate, type ProrationLine, type SubscriptionRow } from "./repository.js";

/** A proration as an order line, over the span it covers (none recorded: a credit carried over). */
export function prorationItem(line: ProrationLine): OrderItemInput {
  const period = line.start && line.end ? { start: new Date(line.start), end: new Date(line.end) } : null;
  return { label: line.label, amount: Number(line.amount), taxAmount: 0, proration: true, productPriceId: line.product_price_id, period };
}

export type ProrationBehavior = components["schemas"]["SubscriptionProrationBehavior"];

/** The behaviour of a change: the one asked for, else the organization's default; `reset` only where enabled. */
export function prorationBehavior(org: OrganizationRow, asked: ProrationBehavior | null | undefined): ProrationBehavior {
  if (asked === "reset" && org.feature_settings?.reset_proration_behavior_enabled !== true) {
    throw invalid(
      ["body", "proration_behavior"],
      "The 'reset' proration behavior is not enabled for this organization.",
      "value_error",
      asked,
    );
  }
  return asked ?? org.subscription_settings?.proration_behavior ?? "prorate";
}

/** The period a `reset` change starts: from now, one period of the given cadence. */
export function resetPeriod(
  now: Date,
  interval: SubscriptionRow["recurring_interval"],
  count: number,
): Pick<SubscriptionRow, "billing_anchor" | "period_index" | "current_period_start" | "current_period_end"> {
  return { billing_anchor: now, period_index: 0, current_period_start: now, current_period_end: addIntervals(now, interval, count) };
}

/** `row`'s pending update with `change` merged in: a product and a seat change wait together. */
export function schedulePending(row: SubscriptionRow, change: { product_id?: string; seats?: number | null }): PendingUpdate {
  const prev = row.pending_update ?? null;
  const at = new Date().toISOString();
  return {
    id: prev?.id ?? randomUUID(),
    created_at: prev?.created_at ?? at,
    modified_at: prev ? at : null,
    applies_at: iso(row.current_period_end)!,
    product_id: change.product_id ?? prev?.product_id ?? null,
    seats: change.seats === undefined ? (prev?.seats ?? null) : change.seats,
  };
}

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
  const customer = await requireCustomer(trx, row.customer_id);
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
