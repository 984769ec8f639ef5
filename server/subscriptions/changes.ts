// Changes to a subscription, by the merchant (PATCH / DELETE) or the customer in the portal:
// cancel at period end and uncancel, revoke now, product change (its proration behaviours in
// product-change.ts and proration.ts), seat change, discount change, trial end.
// Each is one transaction on the locked row: a subscription with a charge in flight answers
// SubscriptionLocked, an ended one AlreadyCanceledSubscription. The workflow is poked after commit.
import type { Knex } from "knex";
import { requireCustomer } from "../customers/repository.js";
import { findProduct } from "../products/repository.js";
import type { components } from "../../generated/types.js";
import { iso } from "../kit/time.js";
import { discountProblem } from "../discounts/amounts.js";
import { findLiveDiscount, restrictedProductIds } from "../discounts/repository.js";
import { invalid, NotPermitted, ResourceNotFound } from "../kit/errors.js";
import { jsonb, type RowPatch } from "../kit/db.js";
import { isUuid } from "../kit/ids.js";
import { emitInternal } from "../kit/outbox.js";
import { stopPaymentRetries } from "../orders/repository.js";
import type { ProductRow } from "../products/repository.js";
import { revokeEnded } from "./billing.js";
import { isEnded, resetPeriod, schedulePending, settleProration, type ProrationBehavior } from "./proration.js";
import { changeSeats } from "./seats-change.js";
import { applyProduct, cadenceFromPeriodEnd, planProductChange } from "./product-change.js";
import { clockNow } from "../test-clocks/repository.js";
import { AlreadyCanceledSubscription, PauseResumeNotAllowed, SubscriptionLocked } from "./errors.js";
import { emitSubscription, recordSubscriptionEvent } from "./events.js";
import {
  findReadable,
  findSubscription,
  firstSubscriptionPrice,
  updateSubscription,
  type CancellationReason,
  type SubscriptionRow,
  type SubscriptionScope,
} from "./repository.js";
import { pokeAfterCommit } from "../workflows-door.js";
import type { UnitOfWork } from "../kit/unit-of-work.js";

export type SubscriptionChange =
  | { kind: "cancel"; cancelAtPeriodEnd: boolean; reason?: CancellationReason | null; comment?: string | null }
  | { kind: "revoke"; reason?: CancellationReason | null; comment?: string | null }
  | { kind: "product"; productId: string; prorationBehavior?: ProrationBehavior | null }
  | { kind: "seats"; seats: number; prorationBehavior?: ProrationBehavior | null }
  | { kind: "discount"; discountId: string | null }
  /** Drops the change waiting for the next period (`pending_update: null`). */
  | { kind: "clear" }
  /** A trialing subscription's trial moved to end at `trialEnd` ("now": at once). */
  | { kind: "trial"; trialEnd: string }
  /** A portal pause or resume: never allowed here (PauseResumeNotAllowed), as Polar where the organization has pausing off. */
  | { kind: "pause" }
  /** A portal cancel body without cancel_at_period_end: nothing to change. */
  | { kind: "none" };

/** The merchant's PATCH body, one of its shapes. */
export function merchantChange(body: Record<string, unknown>): SubscriptionChange {
  if (typeof body.seats === "number") {
    return { kind: "seats", seats: Number(body.seats), prorationBehavior: body.proration_behavior as ProrationBehavior | null };
  }
  if ("pending_update" in body && !("product_id" in body)) return { kind: "clear" };
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
      prorationBehavior: body.proration_behavior as ProrationBehavior | null,
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

/** The portal's PATCH body: a product or seat count change, clearing what waits, pause / resume, or cancel / uncancel at period end. */
export function customerChange(body: Record<string, unknown>): SubscriptionChange {
  if (typeof body.seats === "number") return { kind: "seats", seats: Number(body.seats), prorationBehavior: null };
  if ("product_id" in body) return { kind: "product", productId: String(body.product_id), prorationBehavior: null };
  if ("pending_update" in body) return { kind: "clear" };
  if ("resume" in body) {
    if (body.resume !== true) throw invalid(["body", "resume"], "Input should be True", "literal_error", body.resume);
    return { kind: "pause" };
  }
  if ("pause_at_period_end" in body) {
    // Polar's body checks come first: a resume date must be in the future.
    const at = typeof body.resumes_at === "string" ? new Date(body.resumes_at) : null;
    if (at && !(at.getTime() > Date.now()))
      throw invalid(["body", "resumes_at"], "Input should be in the future", "datetime_future", body.resumes_at);
    return { kind: "pause" };
  }
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
      case "clear":
        updated = await clearPending(trx, row, now);
        break;
      case "pause":
        throw new PauseResumeNotAllowed();
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

/**
 * Drops the change waiting for the next period, with the subscription.update_cleared system
 * event; a 422 when none waits. As Polar, whatever the status: a canceled subscription keeps
 * what waited (its end does not apply it), and it can still be cleared.
 */
async function clearPending(trx: Knex.Transaction, row: SubscriptionRow, now: Date): Promise<SubscriptionRow> {
  if (!row.pending_update)
    throw invalid(["body", "pending_update"], "This subscription has no pending update to clear.", "value_error", null);
  const updated = await save(trx, row, { pending_update: null });
  await emitSubscription(trx, updated, ["subscription.updated"]);
  const customer = await requireCustomer(trx, row.customer_id);
  await recordSubscriptionEvent(trx, updated, customer, "subscription.update_cleared", { subscription_id: row.id }, now);
  return updated;
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

async function changeProduct(
  trx: Knex.Transaction,
  row: SubscriptionRow,
  change: { productId: string; prorationBehavior?: ProrationBehavior | null },
  now: Date,
  by: "merchant" | "customer",
): Promise<SubscriptionRow> {
  const plan = await planProductChange(trx, row, change, now, by);
  const { product, price, lines, behavior } = plan;
  const customer = await requireCustomer(trx, row.customer_id);
  const event = { subscription_id: row.id, old_product_id: row.product_id, new_product_id: product.id };
  if (behavior === "next_period") {
    // Nothing billed or moved now: the renewal applies it.
    const waiting = await save(trx, row, { pending_update: schedulePending(row, { product_id: product.id }) });
    await emitSubscription(trx, waiting, ["subscription.updated"]);
    await recordSubscriptionEvent(trx, waiting, customer, "subscription.product_updated", event, now);
    return waiting;
  }
  const settled = await settleProration(trx, row, { product, price }, lines, behavior === "prorate" ? "prorate" : "invoice", now);
  // A reset starts a period now. On another cadence, the current period ends as it was and the
  // new product's periods follow from its end: period 0 of the new anchor is the next one.
  const period =
    behavior === "reset" && row.status !== "trialing"
      ? Object.assign(
          { recurring_interval: product.recurring_interval!, recurring_interval_count: product.recurring_interval_count },
          resetPeriod(now, product.recurring_interval!, product.recurring_interval_count),
        )
      : cadenceFromPeriodEnd(row, product);
  // An immediate change replaces whatever waited for the next period.
  const updated = await applyProduct(
    trx,
    row,
    plan,
    Object.assign(
      {
        pending_prorations: jsonb(trx, settled.pending_prorations),
        pending_order_id: settled.pending_order_id,
        pending_update: null,
      },
      period,
    ),
  );
  await emitSubscription(trx, updated, ["subscription.updated"]);
  await emitInternal(trx, row.organization_id, "email.subscription_product_updated", {
    subscription_id: row.id,
    previous_product_id: row.product_id,
    product_id: product.id,
  });
  await recordSubscriptionEvent(trx, updated, customer, "subscription.product_updated", event, now);
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
    due_now: (plan.behavior === "invoice" || plan.behavior === "reset") && plan.net > 0 ? plan.net : 0,
    next_renewal_at: iso(plan.periodEnd),
  };
}
