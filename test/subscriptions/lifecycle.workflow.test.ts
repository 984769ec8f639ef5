// The subscription lifecycle workflow on Temporal's time-skipping test server with the real
// activities (PostgreSQL, the sandbox processor): a year of monthly renewals in seconds, dunning
// to revocation, recovery with a new card, metered usage billed in arrears, cancel at period end, and a step that dies mid-cycle
// (after the renewal committed, and after the charge went through) billing the period exactly once.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { retryOwedOrdersAt } from "../../server/orders/repository.js";
import { getProcessor, setProcessor } from "../../server/processors/index.js";
import type { ChargeSavedInput, PaymentProcessor } from "../../server/processors/processor.js";
import { SandboxProcessor } from "../../server/processors/sandbox.js";
import { createSubscriptionActivities } from "../../workflows/activities/subscriptions.js";
import { subscriptionWorkflowId } from "../../workflows/shared/ids.js";
import { subscriptionChangedSignal } from "../../workflows/shared/signals.js";
import { subscriptionWorkflow } from "../../workflows/workflows/subscription.js";
import {
  activityDeps,
  CARD_DECLINED,
  CARD_OK,
  createEvent,
  createMeter,
  createSubscriptionFixture,
  useTimeSkippingWorker,
  useWorkflowInfra,
} from "../harness/index.js";

const infra = useWorkflowInfra();
const taskQueue = "subscription-lifecycle-test";
const DAY = 86_400_000;

describe("subscription lifecycle workflow", () => {
  let sandbox: SandboxProcessor;
  /** Set by a test to make the processor fail around a charge. */
  let chargeHook:
    | ((input: ChargeSavedInput, charge: () => ReturnType<PaymentProcessor["chargeSaved"]>) => ReturnType<PaymentProcessor["chargeSaved"]>)
    | null = null;

  beforeAll(() => {
    sandbox = new SandboxProcessor();
    const wrapped: PaymentProcessor = {
      name: "sandbox",
      createCustomer: (i) => sandbox.createCustomer(i),
      confirmPayment: (i) => sandbox.confirmPayment(i),
      savePaymentMethod: (i) => sandbox.savePaymentMethod(i),
      findSetup: (ref) => sandbox.findSetup(ref),
      refund: (i) => sandbox.refund(i),
      closeDispute: (i) => sandbox.closeDispute(i),
      chargeSaved: (i) => (chargeHook ? chargeHook(i, () => sandbox.chargeSaved(i)) : sandbox.chargeSaved(i)),
    };
    setProcessor(wrapped);
  });

  afterEach(() => {
    chargeHook = null;
    delete process.env.SUBSCRIPTION_DUNNING_DAYS;
  });

  afterAll(() => {
    setProcessor(null);
  });
  // Started after the processor is set, stopped before it is reset (hooks run in order, after-hooks in reverse).
  const temporal = useTimeSkippingWorker(taskQueue, { activities: () => createSubscriptionActivities(activityDeps(infra.knex)) });

  async function start(subscriptionId: string) {
    return temporal.env.client.workflow.start(subscriptionWorkflow, {
      workflowId: subscriptionWorkflowId(subscriptionId),
      taskQueue,
      args: [{ subscriptionId }],
    });
  }
  const orders = (subscriptionId: string) =>
    infra.knex("orders").where({ subscription_id: subscriptionId }).orderBy("billing_period_start");
  const payments = (orderIds: string[]) => infra.knex("payments").whereIn("order_id", orderIds).orderBy("created_at");
  const sub = (id: string) => infra.knex("subscriptions").where({ id }).first();
  const chargesOf = (subscriptionId: string) =>
    sandbox.charges.filter((c) => c.idempotencyKey.startsWith(`subscription:${subscriptionId}:`));

  it("renews monthly for a year: twelve renewal orders, one per period, each paid once", async () => {
    const startedAt = new Date(await temporal.env.currentTimeMs());
    const f = await createSubscriptionFixture(infra.knex, { startedAt, amount: 1500 });
    const handle = await start(f.subscription.id);
    await temporal.env.sleep(365 * DAY + 3_600_000);

    const renewals = await orders(f.subscription.id);
    expect(renewals).toHaveLength(12);
    expect(
      renewals.every((o) => o.billing_reason === "subscription_cycle" && o.status === "paid" && Number(o.subtotal_amount) === 1500),
    ).toBe(true);
    // Each order bills the period that began where the one before it ended.
    const starts = renewals.map((o) => new Date(o.billing_period_start).getTime());
    expect(new Set(starts).size).toBe(12);
    const s = await sub(f.subscription.id);
    expect(s).toMatchObject({ status: "active", period_index: 12, pending_order_id: null });
    expect(new Date(s.current_period_start).getTime()).toBe(starts[11]);
    const paid = await payments(renewals.map((o) => o.id));
    expect(paid).toHaveLength(12);
    expect(paid.every((p) => p.status === "succeeded" && Number(p.amount) === 1500 && p.trigger === "subscription_cycle")).toBe(true);
    expect(chargesOf(f.subscription.id)).toHaveLength(12);
    // Continued as new after each step: the run in progress is another than the first, and young
    // (its start, one workflow task, its timer), not a year of cycles long.
    const now = await handle.describe();
    expect(now.status.name).toBe("RUNNING");
    expect(now.runId).not.toBe(handle.firstExecutionRunId);
    expect(now.historyLength).toBeLessThanOrEqual(8);
    const events = await infra.knex("events").where({ customer_id: f.customerId, name: "subscription.cycled" });
    expect(events).toHaveLength(12);
    await handle.terminate();
  }, 120_000);

  it("dunning: a declined renewal goes past_due, is retried at +2, +5, +7 and +7 days, then the subscription is canceled and revoked", async () => {
    const startedAt = new Date(await temporal.env.currentTimeMs());
    const f = await createSubscriptionFixture(infra.knex, { startedAt, card: CARD_DECLINED });
    const handle = await start(f.subscription.id);
    const periodEnd = new Date(f.subscription.current_period_end!).getTime();

    await temporal.env.sleep(periodEnd - (await temporal.env.currentTimeMs()) + DAY);
    expect(await sub(f.subscription.id)).toMatchObject({ status: "past_due", dunning_attempts: 1 });
    const [owed] = await orders(f.subscription.id);
    expect(owed.status).toBe("pending");
    expect(new Date(owed.next_payment_attempt_at).getTime() - periodEnd).toBeGreaterThanOrEqual(2 * DAY);
    expect(new Date(owed.next_payment_attempt_at).getTime() - periodEnd).toBeLessThan(2 * DAY + 60_000);

    await handle.result(); // the workflow ends with the subscription
    const s = await sub(f.subscription.id);
    expect(s).toMatchObject({ status: "canceled", dunning_attempts: 5, pending_order_id: null });
    expect(s.ended_at).not.toBeNull();
    const tries = await payments([owed.id]);
    expect(tries.map((p) => p.status)).toEqual(["failed", "failed", "failed", "failed", "failed"]);
    const at = tries.map((p) => JSON.parse(JSON.stringify(p.processor_metadata)).attempt);
    expect(at).toEqual([1, 2, 3, 4, 5]);
    expect(tries.map((p) => p.trigger)).toEqual(["subscription_cycle", "retry_dunning", "retry_dunning", "retry_dunning", "retry_dunning"]);
    // Only one renewal order: the unpaid period is never billed twice, and nothing renews after.
    expect(await orders(f.subscription.id)).toHaveLength(1);
    expect(new Date(s.ended_at).getTime() - periodEnd).toBeGreaterThanOrEqual(21 * DAY);
    const types = (await infra.knex("outbox").where({ organization_id: f.organizationId }).select("type")).map((r) => r.type);
    expect(types).toEqual(expect.arrayContaining(["subscription.canceled", "subscription.revoked"]));
    expect(await infra.knex("events").where({ customer_id: f.customerId, name: "subscription.revoked" })).toHaveLength(1);
  }, 120_000);

  it("recovers from past_due when a new card is added: retried at once, active again", async () => {
    process.env.SUBSCRIPTION_DUNNING_DAYS = "3,3";
    const startedAt = new Date(await temporal.env.currentTimeMs());
    const f = await createSubscriptionFixture(infra.knex, { startedAt, card: CARD_DECLINED, interval: "week" });
    const handle = await start(f.subscription.id);
    const periodEnd = new Date(f.subscription.current_period_end!).getTime();
    await temporal.env.sleep(periodEnd - (await temporal.env.currentTimeMs()) + 3_600_000);
    expect((await sub(f.subscription.id)).status).toBe("past_due");

    // What the portal's "add payment method" does for a past-due customer (tested through the API elsewhere).
    const [card] = await infra
      .knex("payment_methods")
      .insert({
        organization_id: f.organizationId,
        customer_id: f.customerId,
        processor: "stripe",
        type: "card",
        method_metadata: JSON.stringify({ brand: "visa", last4: "4242" }),
        processor_ref: `${CARD_OK}_new`,
        is_default: false,
      })
      .returning("id");
    const now = new Date(await temporal.env.currentTimeMs());
    await infra.knex("subscriptions").where({ id: f.subscription.id }).update({ payment_method_id: card.id });
    await retryOwedOrdersAt(infra.knex, f.subscription.id, now, "retry_payment_method_update");
    await handle.signal(subscriptionChangedSignal);
    await temporal.env.sleep(60_000);

    const s = await sub(f.subscription.id);
    expect(s).toMatchObject({ status: "active", dunning_attempts: 0 });
    const [order] = await orders(f.subscription.id);
    expect(order).toMatchObject({ status: "paid", next_payment_attempt_at: null, next_payment_trigger: null });
    expect((await payments([order.id])).map((p) => [p.status, p.trigger])).toEqual([
      ["failed", "subscription_cycle"],
      ["succeeded", "retry_payment_method_update"],
    ]);
    const types = (await infra.knex("outbox").where({ organization_id: f.organizationId }).select("type")).map((r) => r.type);
    expect(types).toContain("subscription.active");
    await handle.terminate();
  }, 120_000);

  it("bills a metered price's usage in arrears at each renewal: the period's events, nothing of the next", async () => {
    const startedAt = new Date(await temporal.env.currentTimeMs());
    const f = await createSubscriptionFixture(infra.knex, { startedAt, interval: "week", amount: 900 });
    const meter = await createMeter(infra.knex, f.organizationId, { name: "API calls" });
    const [metered] = await infra
      .knex("product_prices")
      .insert({
        product_id: f.productId,
        amount_type: "metered_unit",
        price_currency: "usd",
        meter_id: meter.id,
        unit_amount: "0.5",
        cap_amount: 10_000,
        position: 1,
      })
      .returning("id");
    await infra.knex("subscription_prices").insert({ subscription_id: f.subscription.id, product_price_id: metered.id, position: 1 });
    const call = (offsetMs: number) =>
      createEvent(infra.knex, f.organizationId, { customer_id: f.customerId, timestamp: new Date(startedAt.getTime() + offsetMs) });
    for (let i = 0; i < 30; i++) await call(DAY + i * 60_000);
    await call(-60_000); // before the subscription: not billed
    for (let i = 0; i < 4; i++) await call(7 * DAY + 60_000 + i); // the second week's
    const handle = await start(f.subscription.id);
    await temporal.env.sleep(7 * DAY + 3_600_000);
    const [order] = await orders(f.subscription.id);
    expect(order).toMatchObject({ status: "paid", billing_reason: "subscription_cycle" });
    expect(Number(order.subtotal_amount)).toBe(915);
    const items = await infra.knex("order_items").where({ order_id: order.id }).orderBy("position");
    expect(items.map((i) => [i.label, Number(i.amount), i.product_price_id])).toEqual([
      ["Pro monthly", 900, f.priceId],
      ["Pro monthly — API calls (30 units)", 15, metered.id],
    ]);
    await temporal.env.sleep(7 * DAY);
    const second = (await orders(f.subscription.id))[1];
    expect(Number(second.subtotal_amount)).toBe(902);
    await handle.terminate();
  }, 120_000);

  it("ends a subscription set to cancel at period end, at that end, without renewing", async () => {
    const startedAt = new Date(await temporal.env.currentTimeMs());
    const f = await createSubscriptionFixture(infra.knex, { startedAt, interval: "month" });
    await infra
      .knex("subscriptions")
      .where({ id: f.subscription.id })
      .update({ cancel_at_period_end: true, canceled_at: startedAt, ends_at: f.subscription.current_period_end });
    const handle = await start(f.subscription.id);
    await handle.result();
    const s = await sub(f.subscription.id);
    expect(s.status).toBe("canceled");
    expect(new Date(s.ended_at).toISOString()).toBe(new Date(f.subscription.current_period_end!).toISOString());
    expect(await orders(f.subscription.id)).toHaveLength(0);
    expect(await temporal.env.currentTimeMs()).toBeGreaterThanOrEqual(new Date(f.subscription.current_period_end!).getTime());
  }, 120_000);

  it("a step that dies after the renewal committed, or after the charge went through, still bills the period exactly once", async () => {
    for (const dieWhen of ["before-charge", "after-charge"] as const) {
      const startedAt = new Date(await temporal.env.currentTimeMs());
      const f = await createSubscriptionFixture(infra.knex, { startedAt, interval: "day", amount: 700 });
      let died = false;
      chargeHook = async (input, charge) => {
        if (!input.idempotencyKey.startsWith(`subscription:${f.subscription.id}:`) || died) return charge();
        died = true;
        if (dieWhen === "after-charge") await charge(); // the money moved, then the worker was lost
        throw new Error(`worker lost ${dieWhen}`);
      };
      const handle = await start(f.subscription.id);
      await temporal.env.sleep(DAY + 3_600_000);
      expect(died).toBe(true);

      const renewals = await orders(f.subscription.id);
      expect(renewals).toHaveLength(1);
      expect(renewals[0].status).toBe("paid");
      const paid = await payments([renewals[0].id]);
      expect(paid.map((p) => p.status)).toEqual(["succeeded"]);
      const charges = chargesOf(f.subscription.id);
      expect(charges).toHaveLength(1);
      expect(charges[0].amount).toBe(700);
      expect(await sub(f.subscription.id)).toMatchObject({ pending_order_id: null, status: "active", period_index: 1 });
      await handle.terminate();
    }
    // The unique index: a second renewal order for one period can't even be written.
    const [any] = await infra.knex("orders").where({ billing_reason: "subscription_cycle" }).limit(1);
    const { id: _id, ...copy } = any;
    const another = Object.assign({}, copy, { invoice_number: `${copy.invoice_number}-COPY`, receipt_number: null });
    await expect(infra.knex("orders").insert(another)).rejects.toThrow(/orders_subscription_period_unique/);
    expect(getProcessor().name).toBe("sandbox");
  }, 120_000);
});
