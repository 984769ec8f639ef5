// Changes to a subscription, by the merchant (PATCH / DELETE) or the customer in the portal:
// cancel at period end and uncancel, revoke now, product change with proration (invoice: an
// immediate order for the difference; prorate: the lines join the next renewal), discount change.
// Each is one transaction on the locked row: a subscription with a charge in flight answers
// SubscriptionLocked, an ended one AlreadyCanceledSubscription. The workflow is poked after commit.
import { ensureCustomerMeters } from "../customer-meters/service.js";
import type { Knex } from "knex";
import { findCustomer } from "../customers/repository.js";
import { findProduct, findProductOf, unarchivedPrices } from "../products/repository.js";
import type { components } from "../../generated/types.js";
import { iso } from "../kit/time.js";
import { scheduleBenefitGrants } from "../benefit-grants/service.js";
import { discountProblem, priceAmount } from "../discounts/amounts.js";
import type { CustomerRow } from "../customers/repository.js";
import { findLiveDiscount, restrictedProductIds } from "../discounts/repository.js";
import { invalid, NotPermitted, ResourceNotFound } from "../kit/errors.js";
import { jsonb, type RowPatch } from "../kit/db.js";
import { isUuid } from "../kit/ids.js";
import { emitInternal } from "../kit/outbox.js";
import { findOrganization, type OrganizationRow } from "../organizations/repository.js";
import { stopPaymentRetries } from "../orders/repository.js";
import { isFreePrice } from "../products/models.js";
import type { PriceRow, ProductRow } from "../products/repository.js";
import { revokeEnded } from "./billing.js";
import { isEnded, settleProration } from "./proration.js";
import { changeSeats, seatsAfterProductChange } from "./seats-change.js";
import { addIntervals } from "./periods.js";
import { clockNow } from "../test-clocks/repository.js";
import { AlreadyCanceledSubscription, SubscriptionLocked } from "./errors.js";
import { emitSubscription, recordSubscriptionEvent } from "./events.js";
import {
  deleteSubscriptionPrices,
  findReadable,
  findSubscription,
  firstSubscriptionPrice,
  insertSubscriptionPrices,
  seatPriceOf,
  updateSubscription,
  type CancellationReason,
  type ProrationLine,
  type SubscriptionRow,
  type SubscriptionScope,
} from "./repository.js";
import { pokeAfterCommit } from "../workflows-door.js";
import type { UnitOfWork } from "../kit/unit-of-work.js";

export type SubscriptionChange =
  | { kind: "cancel"; cancelAtPeriodEnd: boolean; reason?: CancellationReason | null; comment?: string | null }
  | { kind: "revoke"; reason?: CancellationReason | null; comment?: string | null }
  | { kind: "product"; productId: string; prorationBehavior?: "invoice" | "prorate" | null }
  | { kind: "seats"; seats: number; prorationBehavior?: "invoice" | "prorate" | null }
  | { kind: "discount"; discountId: string | null }
  /** A trialing subscription's trial moved to end at `trialEnd` ("now": at once). */
  | { kind: "trial"; trialEnd: string }
  /** A portal cancel body without cancel_at_period_end: nothing to change. */
  | { kind: "none" };

/** The merchant's PATCH body, one of its shapes. */
export function merchantChange(body: Record<string, unknown>): SubscriptionChange {
  if (typeof body.seats === "number") {
    return { kind: "seats", seats: Number(body.seats), prorationBehavior: body.proration_behavior as "invoice" | "prorate" | null };
  }
  if ("revoke" in body) {
    if (body.revoke !== true) throw invalid(["body", "revoke"], "Input should be True", "literal_error", body.revoke);
    return {
      kind: "revoke",
      reason: body.customer_cancellation_reason as CancellationReason | null,
      comment: body.customer_cancellation_comment as string | null,
    };
  }
  if ("product_id" in body) {
    return {
      kind: "product",
      productId: String(body.product_id),
      prorationBehavior: body.proration_behavior as "invoice" | "prorate" | null,
    };
  }
  if ("cancel_at_period_end" in body) {
    return {
      kind: "cancel",
      cancelAtPeriodEnd: body.cancel_at_period_end === true,
      reason: body.customer_cancellation_reason as CancellationReason | null,
      comment: body.customer_cancellation_comment as string | null,
    };
  }
  if ("discount_id" in body) return { kind: "discount", discountId: (body.discount_id as string | null) ?? null };
  if ("trial_end" in body) return { kind: "trial", trialEnd: String(body.trial_end) };
  throw invalid(["body"], "Give product_id, discount_id, trial_end, cancel_at_period_end or revoke.", "missing");
}

/** The portal's PATCH body: a product or seat count change, or cancel / uncancel at period end. */
export function customerChange(body: Record<string, unknown>): SubscriptionChange {
  if (typeof body.seats === "number") return { kind: "seats", seats: Number(body.seats), prorationBehavior: null };
  if ("product_id" in body) return { kind: "product", productId: String(body.product_id), prorationBehavior: null };
  if (body.cancel_at_period_end === undefined || body.cancel_at_period_end === null) return { kind: "none" };
  return {
    kind: "cancel",
    cancelAtPeriodEnd: body.cancel_at_period_end === true,
    reason: body.cancellation_reason as CancellationReason | null,
    comment: body.cancellation_comment as string | null,
  };
}

/** Applies one change; `by` says who asks (a customer may change product only where the organization allows it). */
export async function changeSubscription(
  uow: UnitOfWork,
  scope: SubscriptionScope,
  id: string,
  change: SubscriptionChange,
  by: "merchant" | "customer",
): Promise<SubscriptionRow> {
  return uow.db.transaction(async (trx) => {
    const row = await findReadable(trx, scope, id, { forUpdate: true });
    if (!row) throw new ResourceNotFound("Subscription not found.");
    if (row.pending_order_id) throw new SubscriptionLocked();
    const now = await clockNow(trx, row.test_clock_id);
    let updated: SubscriptionRow;
    switch (change.kind) {
      case "cancel":
        updated = change.cancelAtPeriodEnd ? await cancelAtPeriodEnd(trx, row, change, now) : await uncancel(trx, row);
        break;
      case "revoke":
        updated = await revokeNow(trx, row, change, now);
        break;
      case "product":
        updated = await changeProduct(trx, row, change, now, by);
        break;
      case "seats":
        updated = await changeSeats(trx, row, change, now, by);
        break;
      case "discount":
        if (by !== "merchant") throw new NotPermitted();
        updated = await changeDiscount(trx, row, change.discountId, now);
        break;
      case "trial":
        if (by !== "merchant") throw new NotPermitted();
        updated = await changeTrialEnd(trx, row, change.trialEnd, now);
        break;
      case "none":
        return row;
    }
    pokeAfterCommit(uow, trx, [row.id]);
    return updated;
  });
}

async function save(trx: Knex.Transaction, row: SubscriptionRow, patch: RowPatch<SubscriptionRow>): Promise<SubscriptionRow> {
  return updateSubscription(trx, row.id, Object.assign({}, patch, { modified_at: new Date() }));
}

async function cancelAtPeriodEnd(
  trx: Knex.Transaction,
  row: SubscriptionRow,
  change: { reason?: CancellationReason | null; comment?: string | null },
  now: Date,
): Promise<SubscriptionRow> {
  if (isEnded(row) || row.cancel_at_period_end) throw new AlreadyCanceledSubscription();
  const updated = await save(trx, row, {
    cancel_at_period_end: true,
    canceled_at: now,
    ends_at: row.current_period_end,
    customer_cancellation_reason: change.reason ?? row.customer_cancellation_reason,
    customer_cancellation_comment: change.comment ?? row.customer_cancellation_comment,
  });
  await emitSubscription(trx, updated, ["subscription.updated", "subscription.canceled"]);
  return updated;
}

async function uncancel(trx: Knex.Transaction, row: SubscriptionRow): Promise<SubscriptionRow> {
  if (isEnded(row)) throw new AlreadyCanceledSubscription("This subscription has ended and can't be uncanceled.");
  if (!row.cancel_at_period_end) return row; // nothing to undo
  const updated = await save(trx, row, {
    cancel_at_period_end: false,
    canceled_at: null,
    ends_at: null,
    customer_cancellation_reason: null,
    customer_cancellation_comment: null,
  });
  await emitSubscription(trx, updated, ["subscription.updated", "subscription.uncanceled"]);
  return updated;
}

async function revokeNow(
  trx: Knex.Transaction,
  row: SubscriptionRow,
  change: { reason?: CancellationReason | null; comment?: string | null },
  now: Date,
): Promise<SubscriptionRow> {
  if (isEnded(row)) throw new AlreadyCanceledSubscription();
  const updated = await save(trx, row, {
    status: "canceled",
    cancel_at_period_end: false,
    canceled_at: row.canceled_at ?? now,
    ends_at: now,
    ended_at: now,
    customer_cancellation_reason: change.reason ?? row.customer_cancellation_reason,
    customer_cancellation_comment: change.comment ?? row.customer_cancellation_comment,
  });
  // An order still owed (dunning) stops being retried.
  await stopPaymentRetries(trx, row.id);
  const types = row.cancel_at_period_end
    ? (["subscription.updated", "subscription.revoked"] as const)
    : (["subscription.updated", "subscription.canceled", "subscription.revoked"] as const);
  await revokeEnded(trx, updated, now, [...types]);
  return updated;
}

/**
 * Revokes the subscription now inside `trx` (the processor took its money back: a lost dispute).
 * Nothing when it has already ended.
 */
export async function revokeInTransaction(uow: UnitOfWork, trx: Knex.Transaction, subscriptionId: string): Promise<void> {
  const row = await findSubscription(trx, subscriptionId, { forUpdate: true });
  if (!row || isEnded(row)) return;
  await revokeNow(trx, row, {}, await clockNow(trx, row.test_clock_id));
  pokeAfterCommit(uow, trx, [row.id]);
}

/** The price a subscription takes on the new product: its first live fixed, custom or free price. */
function basePrice(prices: PriceRow[]): PriceRow | undefined {
  return prices.find((p) => !p.is_archived && p.amount_type !== "metered_unit") ?? prices.find((p) => !p.is_archived);
}

/** Whether the product bills on the subscription's cadence (interval and count). */
function sameCadence(row: SubscriptionRow, product: ProductRow): boolean {
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
  behavior: "invoice" | "prorate";
  net: number;
}

/**
 * The checks and the proration of a product change, on the subscription's own clock: the same
 * for the change itself and for the portal's preview of it (which writes nothing).
 */
export async function planProductChange(
  trx: Knex,
  row: SubscriptionRow,
  change: { productId: string; prorationBehavior?: "invoice" | "prorate" | null },
  now: Date,
  by: "merchant" | "customer",
  loc: (string | number)[] = ["body", "product_id"],
): Promise<ProductChangePlan> {
  if (isEnded(row)) throw new AlreadyCanceledSubscription();
  const org = (await findOrganization(trx, row.organization_id)) as OrganizationRow;
  // A 422 and not a 403: the portal call's only 403 body is AlreadyCanceledSubscription.
  if (by === "customer" && !org.subscription_settings?.allow_customer_updates) {
    throw invalid(loc, "This organization does not let customers change their plan.", "value_error", change.productId);
  }
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

  // What is left of the current period, as a fraction, on this subscription's clock. The new
  // product's price is for its own period: on another cadence (a year, every 3 months) the time
  // left is charged as a share of that period.
  const start = new Date(row.current_period_start).getTime();
  const end = new Date(row.current_period_end).getTime();
  const remaining = Math.max(0, end - now.getTime());
  const left = end > start ? Math.min(1, remaining / (end - start)) : 0;
  const newPeriod = addIntervals(now, product.recurring_interval, product.recurring_interval_count).getTime() - now.getTime();
  const newLeft = sameCadence(row, product) ? left : Math.min(1, remaining / newPeriod);
  const lines: ProrationLine[] = [];
  // A trial was not paid for and costs nothing: the new price is first charged when it ends.
  const trialing = row.status === "trialing";
  const credit = trialing ? 0 : Math.round(Number(row.amount) * left);
  const charge = trialing ? 0 : Math.round(newAmount * newLeft);
  // Both cover what is left of the current period.
  const span = { start: new Date(Math.min(now.getTime(), end)).toISOString(), end: new Date(end).toISOString() };
  if (credit > 0) lines.push(Object.assign({ label: `Unused time on ${oldProduct.name}`, amount: -credit, product_price_id: null }, span));
  if (charge > 0)
    lines.push(Object.assign({ label: `Remaining time on ${product.name}`, amount: charge, product_price_id: price.id }, span));
  const behavior = change.prorationBehavior ?? (org.subscription_settings?.proration_behavior === "invoice" ? "invoice" : "prorate");
  const net = lines.reduce((n, l) => n + l.amount, 0);
  return { product, oldProduct, price, prices, newAmount, seats, lines, behavior, net };
}

async function changeProduct(
  trx: Knex.Transaction,
  row: SubscriptionRow,
  change: { productId: string; prorationBehavior?: "invoice" | "prorate" | null },
  now: Date,
  by: "merchant" | "customer",
): Promise<SubscriptionRow> {
  const { product, price, prices, newAmount, seats, lines, behavior } = await planProductChange(trx, row, change, now, by);

  const settled = await settleProration(trx, row, { product, price }, lines, behavior, now);
  // On another cadence, the current period ends as it was and the new product's periods follow
  // from its end: period 0 of the new anchor is the next one.
  const cadence = sameCadence(row, product)
    ? {}
    : {
        recurring_interval: product.recurring_interval!,
        recurring_interval_count: product.recurring_interval_count,
        billing_anchor: row.current_period_end,
        period_index: -1,
      };
  const updated = await save(
    trx,
    row,
    Object.assign(
      {
        product_id: product.id,
        amount: newAmount,
        seats,
        currency: row.currency,
        pending_prorations: jsonb(trx, settled.pending_prorations),
        pending_order_id: settled.pending_order_id,
      },
      cadence,
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
  await emitSubscription(trx, updated, ["subscription.updated"]);
  await emitInternal(trx, row.organization_id, "email.subscription_product_updated", {
    subscription_id: row.id,
    previous_product_id: row.product_id,
    product_id: product.id,
  });
  const customer = (await findCustomer(trx, row.customer_id)) as CustomerRow;
  await recordSubscriptionEvent(
    trx,
    updated,
    customer,
    "subscription.product_updated",
    {
      subscription_id: row.id,
      old_product_id: row.product_id,
      new_product_id: product.id,
    },
    now,
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

/**
 * Moves a trialing subscription's trial end (later to extend it, earlier or `now` to end it): the
 * trial stays its current period, and its billing periods are anchored at the new end, where the
 * workflow (poked after commit) renews and charges.
 */
async function changeTrialEnd(trx: Knex.Transaction, row: SubscriptionRow, value: string, now: Date): Promise<SubscriptionRow> {
  const loc = ["body", "trial_end"];
  if (isEnded(row)) throw new AlreadyCanceledSubscription();
  if (row.status !== "trialing") throw invalid(loc, "Only a trialing subscription's trial can be changed.", "value_error", value);
  const end = value === "now" ? now : new Date(value);
  if (Number.isNaN(end.getTime())) throw invalid(loc, "Input should be a valid datetime or `now`.", "datetime_parsing", value);
  if (end.getTime() < now.getTime())
    throw invalid(loc, "The trial can't end in the past; use `now` to end it at once.", "value_error", value);
  const updated = await save(trx, row, {
    trial_end: end,
    current_period_end: end,
    billing_anchor: end,
    period_index: -1,
    ends_at: row.cancel_at_period_end ? end : row.ends_at,
  });
  await emitSubscription(trx, updated, ["subscription.updated"]);
  return updated;
}

async function changeDiscount(trx: Knex.Transaction, row: SubscriptionRow, discountId: string | null, now: Date): Promise<SubscriptionRow> {
  if (isEnded(row)) throw new AlreadyCanceledSubscription();
  if (discountId === null) {
    if (row.discount_id === null) return row;
    const updated = await save(trx, row, { discount_id: null, discount_applied_at: null });
    await emitSubscription(trx, updated, ["subscription.updated"]);
    return updated;
  }
  const loc = ["body", "discount_id"];
  const discount = isUuid(discountId) ? await findLiveDiscount(trx, row.organization_id, discountId) : undefined;
  if (!discount) throw invalid(loc, "Discount not found.", "value_error", discountId);
  const product = (await findProduct(trx, row.product_id)) as ProductRow;
  const price = await firstSubscriptionPrice(trx, row.id);
  const restricted = await restrictedProductIds(trx, discount.id);
  const problem = price ? discountProblem(discount, restricted, product, price, now) : "This subscription has no price to discount.";
  if (problem) throw invalid(loc, problem, "value_error", discountId);
  const updated = await save(trx, row, { discount_id: discount.id, discount_applied_at: now });
  await emitSubscription(trx, updated, ["subscription.updated"]);
  return updated;
}

export type SubscriptionChangePreviewOut = components["schemas"]["CustomerSubscriptionChangePreview"];

/** The portal's preview of a product change: what changeSubscription would charge, writing nothing. */
export async function previewProductChange(
  db: Knex,
  scope: SubscriptionScope,
  id: string,
  productId: string,
): Promise<SubscriptionChangePreviewOut> {
  const row = await findReadable(db, scope, id);
  if (!row) throw new ResourceNotFound("Subscription not found.");
  const now = await clockNow(db, row.test_clock_id);
  const plan = await planProductChange(db, row, { productId }, now, "customer", ["query", "product_id"]);
  return {
    subscription_id: row.id,
    product_id: plan.product.id,
    currency: row.currency,
    amount: plan.newAmount,
    recurring_interval: plan.product.recurring_interval!,
    proration_behavior: plan.behavior,
    lines: plan.lines.map((l) => ({ label: l.label, amount: l.amount })),
    net_amount: plan.net,
    due_now: plan.behavior === "invoice" && plan.net > 0 ? plan.net : 0,
    next_renewal_at: iso(row.current_period_end),
  };
}
