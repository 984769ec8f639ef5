// A period's usage is billed exactly once: renewal steps racing for one subscription, a renewal that
// fails after writing its order and usage lines (all of it rolled back, then billed by the retry),
// and the unique key on subscription, meter and period start.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { runStep } from "../../server/subscriptions/billing.js";
import { addMeteredPrice, createEvent, createSubscriptionFixture, useTestApi } from "../harness/index.js";

const api = useTestApi();
const DAY = 86_400_000;

async function meteredSubscription(calls: number) {
  const startedAt = new Date(Date.parse("2027-03-01T00:00:00Z") + Math.floor(Math.random() * 1000) * 60_000);
  const f = await createSubscriptionFixture(api.knex, { startedAt, interval: "month", amount: 1000 });
  const { meterId } = await addMeteredPrice(api.knex, f);
  for (let i = 0; i < calls; i++)
    await createEvent(api.knex, f.organizationId, { customer_id: f.customerId, timestamp: new Date(startedAt.getTime() + DAY + i * 1000) });
  return { ...f, meterId, end: new Date(f.subscription.current_period_end!) };
}

const cycleOrders = (subscriptionId: string) =>
  api.knex("orders").where({ subscription_id: subscriptionId, billing_reason: "subscription_cycle" });

describe("usage billed once per period", () => {
  it("bills once when renewal steps race", async () => {
    const f = await meteredSubscription(25);
    const now = f.end.getTime() + 3_600_000;
    const outcomes = await Promise.all(Array.from({ length: 4 }, () => runStep(api.knex, f.subscription.id, now)));
    expect(outcomes.filter((o) => o.outcome === "renewed" || o.outcome === "charged")).toHaveLength(1);
    await runStep(api.knex, f.subscription.id, now);
    const orders = await cycleOrders(f.subscription.id);
    expect(orders).toHaveLength(1);
    expect(Number(orders[0].subtotal_amount)).toBe(1050);
    const billings = await api.knex("subscription_meter_billings").where({ subscription_id: f.subscription.id });
    expect(billings.map((b) => [b.billed_units, Number(b.amount), b.order_id])).toEqual([[25, 50, orders[0].id]]);
    expect(await api.knex("events").where({ customer_id: f.customerId, name: "meter.reset" })).toHaveLength(1);
    // The key itself refuses a second billing of that meter and period.
    await expect(api.knex("subscription_meter_billings").insert({ ...billings[0], id: randomUUID() })).rejects.toMatchObject({
      code: "23505",
    });
  });

  it("bills once when a renewal dies after writing its order and usage lines", async () => {
    const f = await meteredSubscription(10);
    const now = f.end.getTime() + 3_600_000;
    // The renewal transaction fails right after its usage billing row is written (as if the worker
    // or the database connection died there): everything it wrote goes with it.
    const fn = `fail_billing_${randomUUID().replace(/-/g, "")}`;
    await api.knex.raw(`create function ${fn}() returns trigger language plpgsql as $$ begin
      if new.subscription_id = '${f.subscription.id}' then raise exception 'worker died'; end if; return new; end $$`);
    await api.knex.raw(`create trigger ${fn} after insert on subscription_meter_billings for each row execute function ${fn}()`);
    try {
      await expect(runStep(api.knex, f.subscription.id, now)).rejects.toThrow(/worker died/);
    } finally {
      await api.knex.raw(`drop trigger ${fn} on subscription_meter_billings`);
      await api.knex.raw(`drop function ${fn}()`);
    }
    expect(await cycleOrders(f.subscription.id)).toHaveLength(0);
    expect(await api.knex("events").where({ customer_id: f.customerId, name: "meter.reset" })).toHaveLength(0);
    const row = await api.knex("subscriptions").where({ id: f.subscription.id }).first();
    expect(new Date(row.current_period_end).getTime()).toBe(f.end.getTime());
    // Retried (as Temporal retries the step): billed, once.
    await runStep(api.knex, f.subscription.id, now);
    await runStep(api.knex, f.subscription.id, now);
    const orders = await cycleOrders(f.subscription.id);
    expect(orders.map((o) => Number(o.subtotal_amount))).toEqual([1020]);
    expect(await api.knex("subscription_meter_billings").where({ subscription_id: f.subscription.id })).toHaveLength(1);
  });
});
