// Moving a subscription to another product: the checks and proration lines for each behaviour
// (invoice, prorate, next_period: none now, reset: the new price in full for a period from now),
// writing the new product, and the change a `next_period` product or seat change leaves waiting
// as `pending_update`, applied by the renewal (billing.ts) before it prices the new period.
import type { Knex } from "knex";
import { scheduleBenefitGrants } from "../benefit-grants/service.js";
import { ensureCustomerMeters } from "../customer-meters/service.js";
import { priceAmount } from "../discounts/amounts.js";
import { ApiError, invalid } from "../kit/errors.js";
import { isUuid } from "../kit/ids.js";
import { logger } from "../kit/logger.js";
import { findOrganization, type OrganizationRow } from "../organizations/repository.js";
import { isFreePrice } from "../products/models.js";
import { findProduct, findProductOf, unarchivedPrices, type PriceRow, type ProductRow } from "../products/repository.js";
import { seatsAmount } from "../products/seat-tiers.js";
import { AlreadyCanceledSubscription, UpdateSubscriptionPlanNotAllowed } from "./errors.js";
import { addIntervals } from "./periods.js";
import { isEnded, prorationBehavior, resetPeriod, type ProrationBehavior } from "./proration.js";
import {
  deleteSubscriptionPrices,
  insertSubscriptionPrices,
  seatPriceOf,
  updateSubscription,
  type ProrationLine,
  type SubscriptionRow,
} from "./repository.js";
import { seatsAfterProductChange } from "./seats-change.js";
import type { RowPatch } from "../kit/db.js";

/** The price a subscription takes on the new product: its first live fixed, custom or free price. */
function basePrice(prices: PriceRow[]): PriceRow | undefined {
  return prices.find((p) => !p.is_archived && p.amount_type !== "metered_unit") ?? prices.find((p) => !p.is_archived);
}

/** Whether the product bills on the subscription's cadence (interval and count). */
export function sameCadence(row: SubscriptionRow, product: ProductRow): boolean {
  return product.recurring_interval === row.recurring_interval && product.recurring_interval_count === row.recurring_interval_count;
}

/** What moving a subscription to another product means, decided before anything is written. */
export interface ProductChangePlan {
  product: ProductRow;
  oldProduct: ProductRow;
  price: PriceRow;
  prices: PriceRow[];
  newAmount: number;
  /** The seats it keeps on a seat-based price; null on another. */
  seats: number | null;
  lines: ProrationLine[];
  behavior: ProrationBehavior;
  net: number;
  /** When the period the change leaves ends: a reset's new one, else the current one. */
  periodEnd: Date;
}

/**
 * The checks and the proration of a product change, on the subscription's own clock: the same
 * for the change itself, the portal's preview of it (which writes nothing) and a pending change.
 */
export async function planProductChange(
  trx: Knex,
  row: SubscriptionRow,
  change: { productId: string; prorationBehavior?: ProrationBehavior | null },
  now: Date,
  by: "merchant" | "customer",
  loc: (string | number)[] = ["body", "product_id"],
): Promise<ProductChangePlan> {
  const org = (await findOrganization(trx, row.organization_id)) as OrganizationRow;
  // As Polar, before any other check.
  if (by === "customer" && !org.subscription_settings?.allow_customer_updates) throw new UpdateSubscriptionPlanNotAllowed();
  if (isEnded(row)) throw new AlreadyCanceledSubscription();
  const behavior = prorationBehavior(org, change.prorationBehavior);
  const product = isUuid(change.productId) ? await findProductOf(trx, row.organization_id, change.productId) : undefined;
  if (!product) throw invalid(loc, "Product not found.", "value_error", change.productId);
  if (product.id === row.product_id) throw invalid(loc, "The subscription is already on this product.", "value_error", change.productId);
  if (product.is_archived) throw invalid(loc, "This product is archived.", "value_error", change.productId);
  if (product.visibility === "draft") throw invalid(loc, "This product is a draft.", "value_error", change.productId);
  // A customer moves only to what the storefront offers; the merchant also to private products.
  if (by === "customer" && product.visibility !== "public") throw invalid(loc, "Product not found.", "value_error", change.productId);
  if (!product.recurring_interval)
    throw invalid(loc, "A subscription can only move to a recurring product.", "value_error", change.productId);
  const prices = await unarchivedPrices(trx, product.id);
  const price = basePrice(prices);
  if (!price) throw invalid(loc, "This product has no price.", "value_error", change.productId);
  const currency = price.price_currency ?? row.currency;
  if (!isFreePrice(price) && currency !== row.currency) {
    throw invalid(loc, "The new product is priced in another currency.", "value_error", change.productId);
  }
  // As Polar: a seat-based subscription (its price, or seats it carries) moves only onto another seat-based price.
  if (price.amount_type !== "seat_based" && (row.seats != null || (await seatPriceOf(trx, row.id)))) {
    throw invalid(loc, "Can't switch from a seat-based to a non-seat-based product.", "value_error", change.productId);
  }
  const oldProduct = (await findProduct(trx, row.product_id)) as ProductRow;
  const seats = seatsAfterProductChange(row, price);
  const newAmount = priceAmount(price, null, undefined, seats);

  const lines: ProrationLine[] = [];
  // A trial was not paid for and costs nothing: the new price is first charged when it ends.
  const trialing = row.status === "trialing";
  const end = new Date(row.current_period_end).getTime();
  let periodEnd = new Date(end);
  if (behavior === "reset" && !trialing) {
    // No credit for the time left: the new price in full, for a period from now.
    periodEnd = resetPeriod(now, product.recurring_interval, product.recurring_interval_count).current_period_end;
    const span = { start: now.toISOString(), end: periodEnd.toISOString() };
    if (newAmount > 0) lines.push(Object.assign({ label: product.name, amount: newAmount, product_price_id: price.id }, span));
  } else if (behavior === "invoice" || behavior === "prorate") {
    // What is left of the current period, as a fraction, on this subscription's clock. The new
    // product's price is for its own period: on another cadence (a year, every 3 months) the
    // time left is charged as a share of that period.
    const start = new Date(row.current_period_start).getTime();
    const remaining = Math.max(0, end - now.getTime());
    const left = end > start ? Math.min(1, remaining / (end - start)) : 0;
    const newPeriod = addIntervals(now, product.recurring_interval, product.recurring_interval_count).getTime() - now.getTime();
    const newLeft = sameCadence(row, product) ? left : Math.min(1, remaining / newPeriod);
    const credit = trialing ? 0 : Math.round(Number(row.amount) * left);
    const charge = trialing ? 0 : Math.round(newAmount * newLeft);
    // Both cover what is left of the current period.
    const span = { start: new Date(Math.min(now.getTime(), end)).toISOString(), end: new Date(end).toISOString() };
    if (credit > 0)
      lines.push(Object.assign({ label: `Unused time on ${oldProduct.name}`, amount: -credit, product_price_id: null }, span));
    if (charge > 0)
      lines.push(Object.assign({ label: `Remaining time on ${product.name}`, amount: charge, product_price_id: price.id }, span));
  }
  const net = lines.reduce((n, l) => n + l.amount, 0);
  return { product, oldProduct, price, prices, newAmount, seats, lines, behavior, net, periodEnd };
}

/**
 * Puts `row` (locked) on the plan's product: its price and metered prices, amount, seats, the
 * customer's meters and the new product's benefits; `patch` adds the other columns to write.
 */
export async function applyProduct(
  trx: Knex.Transaction,
  row: SubscriptionRow,
  plan: ProductChangePlan,
  patch: RowPatch<SubscriptionRow>,
): Promise<SubscriptionRow> {
  const { product, price, prices } = plan;
  const updated = await updateSubscription(
    trx,
    row.id,
    Object.assign(
      { product_id: product.id, amount: plan.newAmount, seats: plan.seats, currency: row.currency, modified_at: new Date() },
      patch,
    ),
  );
  await deleteSubscriptionPrices(trx, row.id);
  const metered = prices.filter((p) => p.amount_type === "metered_unit" && p.id !== price.id);
  await insertSubscriptionPrices(
    trx,
    row.id,
    [price, ...metered].map((p) => p.id),
  );
  await ensureCustomerMeters(
    trx,
    row.organization_id,
    row.customer_id,
    metered.map((p) => p.meter_id).filter((m): m is string => m !== null),
  );
  // The new product's benefits are granted, the old one's that it lacks revoked.
  await scheduleBenefitGrants(trx, {
    organizationId: row.organization_id,
    customerId: row.customer_id,
    productId: product.id,
    subscriptionId: row.id,
  });
  return updated;
}

/** The cadence columns of a product on another cadence: its periods follow from the current period's end. */
export function cadenceFromPeriodEnd(row: SubscriptionRow, product: ProductRow): RowPatch<SubscriptionRow> {
  if (sameCadence(row, product)) return {};
  return {
    recurring_interval: product.recurring_interval!,
    recurring_interval_count: product.recurring_interval_count,
    billing_anchor: row.current_period_end,
    period_index: -1,
  };
}

/**
 * Applies `row`'s pending update (locked, at its period's end, by the renewal): the seats, then
 * the product with them. A product that can no longer be moved to (archived since, another
 * currency) drops the product change, as Polar discards a stale scheduled update.
 */
export async function applyPendingUpdate(trx: Knex.Transaction, row: SubscriptionRow, now: Date): Promise<SubscriptionRow> {
  const pending = row.pending_update!;
  const withSeats = Object.assign({}, row, { seats: pending.seats ?? row.seats ?? null });
  if (pending.product_id) {
    try {
      const plan = await planProductChange(
        trx,
        withSeats,
        { productId: pending.product_id, prorationBehavior: "next_period" },
        now,
        "merchant",
      );
      return await applyProduct(trx, withSeats, plan, Object.assign({ pending_update: null }, cadenceFromPeriodEnd(row, plan.product)));
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      logger.warn({ subscriptionId: row.id, productId: pending.product_id, err: err.message }, "pending product change dropped");
    }
  }
  const patch: RowPatch<SubscriptionRow> = { pending_update: null, modified_at: new Date() };
  if (pending.seats !== null) {
    const price = await seatPriceOf(trx, row.id);
    if (price?.seat_tiers) Object.assign(patch, { seats: pending.seats, amount: seatsAmount(price.seat_tiers, pending.seats) });
  }
  return updateSubscription(trx, row.id, patch);
}
