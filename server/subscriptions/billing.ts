// Billing over time: what is due next for a subscription, done exactly once: the renewal (a new
// period's order, unique per subscription and period; a trial's end is one), the off-session
// charge outside any transaction (keyed by order and attempt), dunning (past_due, retries after
// SUBSCRIPTION_DUNNING_DAYS, then canceled) and the end of a canceled subscription. "Now" is the
// workflow's clock or the customer's test clock. docs/SUBSCRIPTIONS.md has the details.
import type { Knex } from "knex";
import { chargeablePaymentMethods, requireCustomer } from "../customers/repository.js";
import { scheduleBenefitCycles, scheduleBenefitRevocations } from "../benefit-grants/service.js";
import { computeAmounts } from "../discounts/amounts.js";
import type { DiscountRow } from "../discounts/repository.js";
import { logger } from "../kit/logger.js";
import { emit, emitEach, emitInternal, type OutboxEvent } from "../kit/outbox.js";
import { insertOrder, markOrderPaid, readOrder, type OrderItemInput, type Period } from "../orders/service.js";
import { findOrder, findOwedOrder, patchOrder, type OrderItemRow, type OrderReads, type OrderRow } from "../orders/repository.js";
import { dueAmount } from "../orders/models.js";
import { holdBalance, spendHeld } from "../wallets/service.js";
import { recordCharge } from "../payments/service.js";
import { revokeSeatsOf } from "../seats/service.js";
import { getProcessor } from "../processors/index.js";
import type { ChargeResult } from "../processors/processor.js";
import type { PriceRow, ProductRow } from "../products/repository.js";
import { clockNow } from "../test-clocks/repository.js";
import { toSubscription } from "./models.js";
import { addIntervals, periodBounds } from "./periods.js";
import {
  clearPendingOrder,
  findSubscription,
  loadSubscriptionRelations,
  orderDependents,
  updateSubscription,
  type ProrationLine,
  type SubscriptionRelations,
  type SubscriptionRow,
} from "./repository.js";
import { emitSubscription, recordCreditOrder, recordSubscriptionEvent } from "./events.js";
import { prorationItem } from "./proration.js";
import { applyPendingUpdate } from "./product-change.js";
import { taxOrderLines } from "../orders/lines-tax.js";
import { billPeriod, closeMeteredPeriod, runningUsage, type PeriodBilling } from "./usage.js";
import { setting, type Env } from "../config.js";
import { jsonb } from "../kit/db.js";

const DAY = 86_400_000;

/** Days from one failed attempt to the next; their count is the number of retries. */
export function dunningDelaysMs(env?: Env): number[] {
  return setting("SUBSCRIPTION_DUNNING_DAYS", env).map((d) => d * DAY);
}

export type NextStep =
  | { kind: "done" }
  /** Due at `dueAt` (epoch ms). On a test clock, `clockNow` is the clock's time. */
  | { kind: "at"; dueAt: number; clock: boolean; clockNow: number | null };

async function clockOf(db: Knex, row: SubscriptionRow): Promise<{ clock: boolean; clockNow: number | null }> {
  if (!row.test_clock_id) return { clock: false, clockNow: null };
  return { clock: true, clockNow: (await clockNow(db, row.test_clock_id)).getTime() };
}

/**
 * What is due next, from the row alone: for a subscription on real time that is not past due.
 * Undefined when it takes a read (the test clock's time, the owed order's retry).
 */
function nextFromRow(row: SubscriptionRow): NextStep | undefined {
  if (row.test_clock_id || row.status === "past_due") return undefined;
  if (row.pending_order_id) return { kind: "at", dueAt: 0, clock: false, clockNow: null };
  if ((row.status === "active" || row.status === "trialing") && row.current_period_end) {
    return { kind: "at", dueAt: new Date(row.current_period_end).getTime(), clock: false, clockNow: null };
  }
  return { kind: "done" };
}

export async function nextStep(db: Knex, subscriptionId: string): Promise<NextStep> {
  const row = await findSubscription(db, subscriptionId);
  if (!row) return { kind: "done" };
  return nextAfter(db, row);
}

/** What is due next for this row (as read or as committed just now). */
async function nextAfter(db: Knex, row: SubscriptionRow): Promise<NextStep> {
  const known = nextFromRow(row);
  if (known) return known;
  const clock = await clockOf(db, row);
  // A charge left in flight (a step that died, a proration invoice): at once.
  if (row.pending_order_id) return { kind: "at", dueAt: 0, ...clock };
  if (row.status === "past_due") {
    // Past due waits for its retry; it renews only once paid. With no retry scheduled there is
    // nothing to wait for (a change pokes the workflow again).
    const owed = await findOwedOrder(db, row.id);
    return owed?.next_payment_attempt_at
      ? { kind: "at", dueAt: new Date(owed.next_payment_attempt_at).getTime(), ...clock }
      : { kind: "done" };
  }
  if ((row.status === "active" || row.status === "trialing") && row.current_period_end) {
    return { kind: "at", dueAt: new Date(row.current_period_end).getTime(), ...clock };
  }
  return { kind: "done" };
}

export type StepOutcome = "nothing" | "renewed" | "charged" | "declined" | "ended" | "canceled_unpaid";

/** What a step did, and the subscription's row as it committed it when the step knows it. */
interface StepDone {
  outcome: StepOutcome;
  row?: SubscriptionRow;
}

/**
 * Does what is due at `nowMs` (or the test clock's time): resumes a charge in flight, retries a
 * past-due payment, ends or renews at period end. Idempotent: running it twice for one moment does
 * the work once. Then tells what is due after it.
 */
export async function runStep(db: Knex, subscriptionId: string, nowMs: number): Promise<{ outcome: StepOutcome; next: NextStep }> {
  const done = await step(db, subscriptionId, nowMs);
  // From the row the step committed, when it has one (no second read for a renewal).
  return { outcome: done.outcome, next: done.row ? await nextAfter(db, done.row) : await nextStep(db, subscriptionId) };
}

async function step(db: Knex, subscriptionId: string, nowMs: number): Promise<StepDone> {
  // The period's end (the common case: renewals) is decided on the locked row, in the transaction
  // that renews or ends it. Any other row comes back with the step's time.
  const atEnd = await db.transaction(
    async (
      trx,
    ): Promise<
      { kind: "renewed"; renewed: Renewed; now: Date } | { kind: "ended" } | { kind: "read"; row?: SubscriptionRow; now: Date }
    > => {
      const row = await findSubscription(trx, subscriptionId, { forUpdate: true });
      const now = row?.test_clock_id ? await clockStepTime(trx, row) : new Date(nowMs);
      if (!row || !periodOver(row, now)) return { kind: "read", row, now };
      if (row.cancel_at_period_end) {
        const final = await endLocked(trx, row, now);
        return final ? { kind: "renewed", renewed: final, now } : { kind: "ended" };
      }
      return { kind: "renewed", renewed: await renewLocked(trx, row, now), now };
    },
  );
  if (atEnd.kind === "renewed") return chargeOrder(db, subscriptionId, atEnd.renewed.order.id, atEnd.now, atEnd.renewed);
  if (atEnd.kind === "ended") return { outcome: "ended" };
  const { row, now } = atEnd;
  if (!row) return { outcome: "nothing" };
  if (row.pending_order_id) return chargeOrder(db, row.id, row.pending_order_id, now);
  if (row.status === "past_due") {
    const owed = await findOwedOrder(db, row.id);
    if (owed?.next_payment_attempt_at && new Date(owed.next_payment_attempt_at).getTime() <= now.getTime()) {
      return chargeOrder(db, row.id, owed.id, now);
    }
  }
  return { outcome: "nothing" };
}

/** An active (or trialing) subscription with nothing in flight whose period is over at `now`. */
function periodOver(row: SubscriptionRow, now: Date): boolean {
  return (
    (row.status === "active" || row.status === "trialing") &&
    !row.pending_order_id &&
    row.current_period_end !== null &&
    new Date(row.current_period_end).getTime() <= now.getTime()
  );
}

/**
 * On a test clock, a step happens when it fell due, not when the clock was moved past it: a clock
 * advanced by a month renews at the period end and retries at their own times, exactly as if that
 * time had passed. A charge left in flight runs at the clock's time.
 */
async function clockStepTime(db: Knex, row: SubscriptionRow): Promise<Date> {
  const clock = (await clockNow(db, row.test_clock_id)).getTime();
  const next = await nextAfter(db, row);
  return new Date(next.kind === "at" && next.dueAt > 0 && next.dueAt <= clock ? next.dueAt : clock);
}

/** Whether the subscription's discount still applies to a period starting at `periodStart`. */
export function discountApplies(discount: DiscountRow | undefined, row: SubscriptionRow, periodStart: Date): boolean {
  if (!discount || discount.deleted_at) return false;
  switch (discount.duration) {
    case "forever":
      return true;
    case "once":
      // After a trial, the first paid period has it (the checkout's order was the trial's, of 0).
      if (row.trial_end !== null && periodStart.getTime() === new Date(row.trial_end).getTime()) {
        return row.discount_applied_at !== null && new Date(row.discount_applied_at).getTime() <= periodStart.getTime();
      }
      // The first order (the checkout's) had it; a discount attached later applies to the next one.
      return row.discount_applied_at !== null &&
        new Date(row.discount_applied_at).getTime() > new Date(row.started_at ?? row.created_at).getTime()
        ? periodStart.getTime() <=
            addIntervals(new Date(row.discount_applied_at), row.recurring_interval, row.recurring_interval_count).getTime()
        : false;
    case "repeating": {
      const from = new Date(row.discount_applied_at ?? row.started_at ?? row.created_at);
      return periodStart.getTime() < addIntervals(from, "month", discount.duration_in_months ?? 0).getTime();
    }
    default:
      return false;
  }
}

export interface CycleLines {
  items: OrderItemInput[];
  subtotal: number;
  discountAmount: number;
  /** Credit left over when prorations exceed the charge: carried to the next cycle. */
  carried: ProrationLine[];
}

/** Units as a line shows them: whole, or with up to 6 decimals. */
const formatUnits = (units: number) => (Number.isInteger(units) ? String(units) : String(Number(units.toFixed(6))));

/**
 * The lines of a renewal: the base price for the period that starts (`period`, in advance), each
 * metered price with the usage the period that ended bills (in arrears), prorations, the discount.
 */
export function cycleLines(
  row: SubscriptionRow,
  product: ProductRow,
  prices: PriceRow[],
  discount: DiscountRow | undefined,
  period: Period,
  usage: PeriodBilling[] = [],
): CycleLines {
  const periodStart = period.start;
  const ended = { start: new Date(row.current_period_start), end: periodStart };
  const items: OrderItemInput[] = [];
  const base = prices.find((p) => p.amount_type !== "metered_unit");
  items.push({ label: product.name, amount: Number(row.amount), taxAmount: 0, proration: false, productPriceId: base?.id ?? null, period });
  for (const p of prices.filter((x) => x.amount_type === "metered_unit")) {
    const billed = usage.find((u) => u.price.id === p.id);
    const label = `${product.name} — ${p.meter_name ?? "usage"}`;
    items.push({
      label: billed ? `${label} (${formatUnits(billed.billedUnits)} units)` : label,
      amount: billed?.amount ?? 0,
      taxAmount: 0,
      proration: false,
      productPriceId: p.id,
      period: ended,
    });
  }
  for (const line of row.pending_prorations ?? []) items.push(prorationItem(line));
  const discountAmount = discountApplies(discount, row, periodStart) ? computeAmounts(Number(row.amount), discount!).discount_amount : 0;
  const sum = items.reduce((n, it) => n + it.amount, 0);
  if (sum - discountAmount >= 0) return { items, subtotal: sum, discountAmount, carried: [] };
  // More credit than charge (a downgrade's proration): this period bills nothing, the lines still
  // show, and what is left of the credit moves to the next period.
  items.push({
    label: "Credit carried to the next period",
    amount: -sum,
    taxAmount: 0,
    proration: true,
    productPriceId: null,
    period: null,
  });
  return {
    items,
    subtotal: 0,
    discountAmount: 0,
    carried: [{ label: "Credit from the previous period", amount: sum, product_price_id: null }],
  };
}

/**
 * The relations of a subscription's order that the subscription's own relations already hold. An
 * order from before a plan or discount change names another product or discount: those are read.
 */
function knownForOrder(
  order: Pick<OrderRow, "customer_id" | "product_id" | "discount_id">,
  row: SubscriptionRow,
  rel: SubscriptionRelations,
): OrderReads {
  return Object.assign(
    { subscriptions: new Map([[row.id, row]]) },
    rel.customers.has(order.customer_id) ? { customers: rel.customers } : {},
    rel.products.has(order.product_id) ? { products: rel.products } : {},
    order.discount_id === null || rel.discounts.has(order.discount_id) ? { discounts: rel.discounts } : {},
  );
}

/**
 * What the renewal transaction committed: the moved subscription, its new order and lines, and
 * the relations it read. The charge right after it records its outcome from these: while the
 * order is in flight (pending_order_id) no change to the subscription's product, prices or
 * discount is accepted (SubscriptionLocked), so they still hold.
 */
interface Renewed {
  row: SubscriptionRow;
  order: OrderRow;
  items: OrderItemRow[];
  rel: SubscriptionRelations;
}

/**
 * Renews `row`, locked by `trx` and checked by the caller: its period is over, nothing is in
 * flight, it does not end at period end.
 */
async function renewLocked(trx: Knex.Transaction, ended: SubscriptionRow, now: Date): Promise<Renewed> {
  const periodStart = new Date(ended.current_period_end!);
  // Read once: the lines, order.created and subscription.updated all come from these rows (the
  // running usage is read for the new period once it has started, below).
  let rel = await loadSubscriptionRelations(trx, [ended], { usage: false });
  const customer = rel.customers.get(ended.customer_id)!;
  // The period that ends bills its metered usage, in arrears, on this renewal's order; a trial's
  // usage is recorded and reset, and billed nothing.
  const billed = await billPeriod(trx, ended, rel, periodStart);
  const usage = ended.status === "trialing" ? billed.map((u) => Object.assign({}, u, { billedUnits: 0, amount: 0 })) : billed;
  // A change waiting for this period (next_period) applies first: the new period is the new plan's.
  const row = ended.pending_update ? await applyPendingUpdate(trx, ended, now) : ended;
  if (row !== ended) rel = await loadSubscriptionRelations(trx, [row], { usage: false });
  const next = periodBounds(new Date(row.billing_anchor), row.recurring_interval, row.recurring_interval_count, row.period_index + 1);
  const product = rel.products.get(row.product_id)!;
  const discount = row.discount_id ? rel.discounts.get(row.discount_id) : undefined;
  const prices = rel.prices.get(row.id) ?? [];
  // Usage of a metered price the change dropped is still billed, for the period that ended.
  const dropped = usage.filter((u) => !prices.some((p) => p.id === u.price.id)).map((u) => u.price);
  const lines = cycleLines(row, product, [...prices, ...dropped], discount, { start: periodStart, end: next.end }, usage);
  const taxed = await taxOrderLines(
    trx,
    { organizationId: row.organization_id, customer, product, currency: row.currency, date: periodStart },
    lines.items,
    lines.discountAmount,
  );
  // The customer's wallet pays first (locked until this transaction ends); the processor is charged the rest.
  const hold = await holdBalance(trx, row.customer_id, row.currency, taxed.subtotal - lines.discountAmount + taxed.taxAmount);
  const created = await insertOrder(
    trx,
    {
      organizationId: row.organization_id,
      customerId: row.customer_id,
      productId: row.product_id,
      productPriceId: lines.items[0]?.productPriceId ?? null,
      checkoutId: null,
      subscriptionId: row.id,
      billingReason: "subscription_cycle",
      appliedBalanceAmount: -hold.applied,
      currency: row.currency,
      subtotalAmount: taxed.subtotal,
      discountAmount: lines.discountAmount,
      discountId: lines.discountAmount > 0 ? row.discount_id : null,
      taxAmount: taxed.taxAmount,
      items: taxed.items,
      billingName: customer.billing_name ?? customer.name,
      billingAddress: customer.billing_address,
      metadata: row.metadata,
      customFieldData: {},
      billingPeriodStart: periodStart,
      tax: taxed.tax,
    },
    // The new order's customer, product and discount are the subscription's own.
    knownForOrder(row, row, rel),
  );
  const order = created.row;
  await spendHeld(trx, hold, order.id);
  await closeMeteredPeriod(trx, row, customer, usage, order.id, periodStart);
  const updated = await updateSubscription(trx, row.id, {
    period_index: row.period_index + 1,
    current_period_start: next.start,
    current_period_end: next.end,
    pending_order_id: order.id,
    pending_prorations: jsonb(trx, lines.carried),
    modified_at: new Date(),
  });
  if (usage.length) rel.usage = await runningUsage(trx, [updated], rel);
  await emitEach(trx, row.organization_id, [
    { type: "order.created", data: created.out },
    { type: "subscription.updated", data: toSubscription(updated as SubscriptionRow, rel) },
  ]);
  await recordSubscriptionEvent(trx, updated as SubscriptionRow, customer, "subscription.cycled", { subscription_id: row.id }, now);
  await scheduleBenefitCycles(trx, { subscriptionId: row.id, at: periodStart });
  return { row: updated as SubscriptionRow, order, items: created.items, rel };
}

/**
 * Charges the order in flight (or owed) and records the outcome. Right after a renewal, the rows it
 * committed are used as they are instead of being read again.
 */
async function chargeOrder(db: Knex, subscriptionId: string, orderId: string, now: Date, renewed?: Renewed): Promise<StepDone> {
  const row = renewed?.row ?? ((await findSubscription(db, subscriptionId)) as SubscriptionRow);
  const order = renewed?.order ?? (await findOrder(db, orderId));
  if (!order || order.status !== "pending") {
    // Paid meanwhile (or gone): only the in-flight marker is left to clear.
    await clearPendingOrder(db, subscriptionId, orderId);
    return { outcome: "nothing" };
  }
  const total = dueAmount(order);
  const attempt = row.dunning_attempts + 1;
  let result: ChargeResult | null = null;
  let processorName = "sandbox";
  if (total > 0) {
    const processor = getProcessor();
    processorName = processor.name;
    const method = await paymentMethodOf(db, row, processor.name);
    if (!method) {
      result = {
        status: "declined",
        paymentRef: null,
        code: "no_payment_method",
        message: "The customer has no saved payment method.",
        card: null,
      };
    } else {
      try {
        result = await processor.chargeSaved({
          amount: total,
          currency: order.currency,
          customerRef: method.customer_ref,
          paymentMethodRef: method.processor_ref,
          idempotencyKey: `subscription:${row.id}:order:${order.id}:attempt:${attempt}`,
          metadata: { subscription_id: row.id, order_id: order.id, organization_id: row.organization_id },
        });
      } catch (err) {
        // Not a decline: the processor could not be reached. The activity retries this same
        // attempt with the same key; nothing is recorded yet.
        logger.warn({ err, subscriptionId, orderId }, "subscription charge failed to reach the processor");
        throw err;
      }
    }
  }
  return settleCharge(db, subscriptionId, orderId, now, attempt, result, processorName, renewed);
}

/** The method to charge (the subscription's own, else the customer's default or newest) and the customer's id at the processor. */
async function paymentMethodOf(
  db: Knex,
  row: SubscriptionRow,
  processor: string,
): Promise<{ processor_ref: string; customer_ref: string | null } | undefined> {
  const live = () => chargeablePaymentMethods(db, row.customer_id, processor);
  if (row.payment_method_id) {
    const own = await live().where({ id: row.payment_method_id }).first();
    if (own) return own;
  }
  return live()
    .orderBy([
      { column: "is_default", order: "desc" },
      { column: "created_at", order: "desc" },
    ])
    .first();
}

async function settleCharge(
  db: Knex,
  subscriptionId: string,
  orderId: string,
  now: Date,
  attempt: number,
  result: ChargeResult | null,
  processorName: string,
  renewed?: Renewed,
): Promise<StepDone> {
  return db.transaction(async (trx) => {
    const row = (await findSubscription(trx, subscriptionId, { forUpdate: true })) as SubscriptionRow;
    const order = (await findOrder(trx, orderId, { forUpdate: true })) as OrderRow;
    // Recorded already by an earlier run of this step: leave it as it is.
    if (order.status !== "pending" || row.dunning_attempts >= attempt) {
      if (row.pending_order_id === orderId) await updateSubscription(trx, row.id, { pending_order_id: null });
      return { outcome: "nothing" };
    }
    const total = dueAmount(order);
    if (result) {
      await recordCharge(
        trx,
        {
          organizationId: row.organization_id,
          orderId: order.id,
          amount: total,
          currency: order.currency,
          processorMetadata: { processor: processorName, attempt },
          // A retry is the dunning schedule's unless the order was moved up (a new card).
          trigger: attempt === 1 ? "subscription_cycle" : (order.next_payment_trigger ?? "retry_dunning"),
        },
        result,
      );
    }
    if (!result || result.status === "succeeded") {
      if (order.next_payment_attempt_at) await patchOrder(trx, order.id, { next_payment_attempt_at: null, next_payment_trigger: null });
      // Read once (or kept from the renewal just before) for order.paid and subscription.updated.
      const rel = renewed?.order.id === order.id ? renewed.rel : await loadSubscriptionRelations(trx, [row]);
      const items = renewed?.order.id === order.id ? { items: new Map([[order.id, renewed.items]]) } : {};
      // order.updated and order.paid go out in one insert with the subscription's events.
      const paid: OutboxEvent[] = [];
      await markOrderPaid(trx, order.id, { locked: order, reads: Object.assign(knownForOrder(order, row, rel), items), events: paid });
      // Nothing charged (the wallet paid it all, or nothing was due): Polar records it as paid from balance.
      if (!result) await recordCreditOrder(trx, order, rel.customers.get(row.customer_id)!);
      // Paid after dunning, or the first charge after a trial: active (again).
      const activated = row.status === "past_due" || row.status === "trialing";
      const updated = await updateSubscription(trx, row.id, {
        pending_order_id: null,
        dunning_attempts: 0,
        status: activated ? "active" : row.status,
        modified_at: new Date(),
      });
      await emitSubscription(trx, updated, activated ? ["subscription.updated", "subscription.active"] : ["subscription.updated"], {
        rel,
        before: paid,
      });
      return { outcome: "charged", row: updated };
    }
    if (row.status === "canceled") {
      // A subscription's last order (its final usage) declined: it stays unpaid, for the customer
      // to pay from the portal; an ended subscription has no dunning to go through.
      await emit(trx, row.organization_id, "order.updated", await readOrder(trx, order, orderDependents));
      const updated = await updateSubscription(trx, row.id, { pending_order_id: null, modified_at: new Date() });
      return { outcome: "declined", row: updated };
    }
    const delays = dunningDelaysMs();
    if (attempt <= delays.length) {
      const nextAt = new Date(now.getTime() + delays[attempt - 1]);
      await patchOrder(trx, order.id, { next_payment_attempt_at: nextAt, next_payment_trigger: null, modified_at: new Date() });
      await emit(
        trx,
        row.organization_id,
        "order.updated",
        await readOrder(trx, (await findOrder(trx, order.id)) as OrderRow, orderDependents),
      );
      const updated = await updateSubscription(trx, row.id, {
        pending_order_id: null,
        dunning_attempts: attempt,
        status: "past_due",
        modified_at: new Date(),
      });
      // Active → past_due takes it out of the customer's active subscriptions.
      await emitSubscription(trx, updated, ["subscription.updated"], { stateChanged: row.status !== "past_due" });
      await emitPaymentFailed(trx, row, order, total, attempt, nextAt);
      return { outcome: "declined", row: updated };
    }
    // Out of retries: the subscription ends now and its benefits go.
    await patchOrder(trx, order.id, { next_payment_attempt_at: null, next_payment_trigger: null, modified_at: new Date() });
    const ended = await updateSubscription(trx, row.id, {
      pending_order_id: null,
      dunning_attempts: attempt,
      status: "canceled",
      canceled_at: row.canceled_at ?? now,
      ends_at: now,
      ended_at: now,
      modified_at: new Date(),
    });
    await revokeEnded(trx, ended, now, ["subscription.updated", "subscription.canceled", "subscription.revoked"]);
    await emitPaymentFailed(trx, row, order, total, attempt, null);
    return { outcome: "canceled_unpaid", row: ended };
  });
}

/** The customer is told of each declined renewal charge (the dunning's emails), `row` as it was before it. */
async function emitPaymentFailed(
  trx: Knex.Transaction,
  row: SubscriptionRow,
  order: OrderRow,
  total: number,
  attempt: number,
  nextAt: Date | null,
): Promise<void> {
  await emitInternal(trx, row.organization_id, "email.subscription_payment_failed", {
    subscription_id: row.id,
    order_id: order.id,
    amount: total,
    currency: order.currency,
    attempt,
    next_payment_attempt_at: nextAt?.toISOString() ?? null,
    past_due: nextAt !== null && row.status !== "past_due",
  });
}

/**
 * Ends `row` (locked by `trx`, set to cancel at period end, its period over) at that end. Usage of
 * its last period that bills something goes on a last `subscription_cycle` order (its metered lines
 * only: no period follows), charged right after like a renewal's; the order is returned then.
 */
async function endLocked(trx: Knex.Transaction, row: SubscriptionRow, now: Date): Promise<Renewed | null> {
  const end = new Date(row.current_period_end!);
  const rel = await loadSubscriptionRelations(trx, [row], { usage: false });
  // A trial that ends without converting bills nothing, its usage included.
  const usage = row.status === "trialing" ? [] : await billPeriod(trx, row, rel, end);
  let final: { order: OrderRow; items: OrderItemRow[] } | null = null;
  if (usage.some((u) => u.amount > 0)) {
    const product = rel.products.get(row.product_id)!;
    const customer = rel.customers.get(row.customer_id)!;
    const items = meteredLines(product, usage, { start: new Date(row.current_period_start), end });
    const taxed = await taxOrderLines(
      trx,
      { organizationId: row.organization_id, customer, product, currency: row.currency, date: end },
      items,
      0,
    );
    const created = await insertOrder(
      trx,
      {
        organizationId: row.organization_id,
        customerId: row.customer_id,
        productId: row.product_id,
        productPriceId: taxed.items[0].productPriceId,
        checkoutId: null,
        subscriptionId: row.id,
        billingReason: "subscription_cycle",
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
        billingPeriodStart: end,
        tax: taxed.tax,
      },
      knownForOrder(row, row, rel),
    );
    await closeMeteredPeriod(trx, row, customer, usage, created.row.id, end);
    await emitEach(trx, row.organization_id, [{ type: "order.created", data: created.out }]);
    final = { order: created.row, items: created.items };
  }
  const ended = await updateSubscription(trx, row.id, {
    status: "canceled",
    ended_at: row.current_period_end,
    ends_at: row.current_period_end,
    pending_order_id: final?.order.id ?? null,
    modified_at: new Date(),
  });
  await revokeEnded(trx, ended, now, ["subscription.updated", "subscription.revoked"]);
  return final ? { row: ended, order: final.order, items: final.items, rel } : null;
}

/** The metered lines of a period's usage (a subscription's last order). */
function meteredLines(product: ProductRow, usage: PeriodBilling[], period: Period): OrderItemInput[] {
  return usage.map((u) => ({
    label: `${product.name} — ${u.meter.name} (${formatUnits(u.billedUnits)} units)`,
    amount: u.amount,
    taxAmount: 0,
    proration: false,
    productPriceId: u.price.id,
    period,
  }));
}

/** A subscription that just ended: its webhooks, the subscription.revoked system event, its benefits and seats revoked. */
export async function revokeEnded(
  trx: Knex.Transaction,
  row: SubscriptionRow,
  now: Date,
  types: Parameters<typeof emitSubscription>[2],
): Promise<void> {
  const customer = await requireCustomer(trx, row.customer_id);
  await emitSubscription(trx, row, types);
  await recordSubscriptionEvent(trx, row, customer, "subscription.revoked", { subscription_id: row.id }, now);
  await scheduleBenefitRevocations(trx, { customerId: row.customer_id, subscriptionId: row.id });
  await revokeSeatsOf(trx, { column: "subscription_id", id: row.id });
}
