// Usage-based billing end to end through the official client, on billing test clocks, with the
// lifecycle workflows and benefit grants running on this file's own worker:
//   meter → metered price → subscribe through the hosted checkout → ingest events → advance the
//   clock → the renewal order bills the usage → the customer sees the meter in the portal API;
// then meter credits (with and without rollover) offsetting usage, reset at every period end.
import { randomUUID } from "node:crypto";
import { Polar } from "@polar-sh/sdk";
import type { Meter } from "@polar-sh/sdk/models/components/meter.js";
import { describe, expect, it } from "vitest";
import { collectPages, orgWithToken, testClocks, useLifecycleWorker, useTestApi } from "../harness/index.js";

const api = useTestApi();
const poll = { timeout: 20_000, interval: 100 };
const at = (s: string) => new Date(s);

describe("usage-based billing", () => {
  useLifecycleWorker("usage-test", () => api.knex);
  const anon = () => new Polar({ serverURL: api.url });

  /** A merchant with a count meter on `api_call` events and a monthly plan: 10.00 a month plus 0.5 cent a call, capped. */
  async function merchant(opts: { capAmount?: number; credit?: { units: number; rollover: boolean } } = {}) {
    const { org, token } = await orgWithToken(api.knex);
    const polar = api.client(token);
    const meter: Meter = await polar.meters.create({
      name: "API calls",
      filter: { conjunction: "and", clauses: [{ property: "name", operator: "eq", value: "api_call" }] },
      aggregation: { func: "count" },
    });
    const product = await polar.products.create({
      name: "Usage plan",
      recurringInterval: "month",
      prices: [
        { amountType: "fixed", priceAmount: 1000, priceCurrency: "usd" },
        { amountType: "metered_unit", meterId: meter.id, unitAmount: 0.5, capAmount: opts.capAmount ?? 100_000, priceCurrency: "usd" },
      ],
    });
    if (opts.credit) {
      const benefit = await polar.benefits.create({
        type: "meter_credit",
        description: "Included calls",
        properties: { meterId: meter.id, units: opts.credit.units, rollover: opts.credit.rollover },
      });
      await polar.products.updateBenefits({ id: product.id, productBenefitsUpdate: { benefits: [benefit.id] } });
    }
    const clocks = testClocks(api.url, token, poll);
    const clockCall = clocks.call;
    /** A customer on a new test clock at `start`, subscribed through the hosted checkout. */
    async function subscribe(start: string) {
      const customer = await polar.customers.create({
        email: `buyer-${randomUUID().slice(0, 8)}@example.com`,
        externalId: `user-${randomUUID().slice(0, 8)}`,
      });
      const clock = await clockCall("POST", "", { name: "usage", frozen_time: start });
      const clockId = clock.json.id as string;
      expect((await clockCall("POST", `${clockId}/customers`, { customer_id: customer.id })).status).toBe(200);
      const checkout = await polar.checkouts.create({ products: [product.id], customerId: customer.id });
      await anon().checkouts.clientConfirm({
        clientSecret: checkout.clientSecret,
        checkoutConfirmStripe: { customerBillingAddress: { country: "FR" }, confirmationTokenId: "tok_sandbox_success" },
      });
      const [sub] = (await polar.subscriptions.list({ customerId: customer.id })).result.items;
      const session = { customerSession: (await polar.customerSessions.create({ customerId: customer.id })).token };
      const advance = (to: string) => clocks.advance(clockId, to);
      return { customer, sub, session, advance };
    }
    const calls = (externalCustomerId: string, n: number, timestamp: string) =>
      polar.events.ingest({
        events: Array.from({ length: n }, () => ({ name: "api_call", externalCustomerId, timestamp: at(timestamp) })),
      });
    const cycleOrders = async (subscriptionId: string) =>
      (await collectPages(await polar.orders.list({ customerId: (await polar.subscriptions.get({ id: subscriptionId })).customerId })))
        .filter((o) => o.billingReason === "subscription_cycle")
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    return { org, polar, meter, product, subscribe, calls, cycleOrders };
  }

  it("bills the usage of each period at renewal, once, and shows the meter to the customer", async () => {
    const m = await merchant();
    const { customer, sub, session, advance } = await m.subscribe("2028-01-10T00:00:00Z");
    const ext = customer.externalId!;
    // The metered price's meter is the customer's from the start, before any usage.
    const portal = anon().customerPortal.customerMeters;
    const [empty] = (await portal.list(session, {})).result.items;
    expect(empty).toMatchObject({
      meterId: m.meter.id,
      customerId: customer.id,
      consumedUnits: 0,
      creditedUnits: 0,
      balance: 0,
      meter: { id: m.meter.id, name: "API calls" },
    });

    // The customer's time moves on (events may not be stamped after it), usage comes in.
    await advance("2028-01-20T00:00:00Z");
    await m.calls(ext, 120, "2028-01-15T12:00:00Z");
    await m.polar.events.ingest({ events: [{ name: "other", externalCustomerId: ext, timestamp: at("2028-01-16T00:00:00Z") }] });
    // Not after the customer's now (the clock's time): refused.
    await expect(m.calls(ext, 1, "2028-01-21T00:00:00Z")).rejects.toThrow(/Timestamp must be in the past/);
    // The running period, as the subscription and the portal read it.
    const running = await m.polar.subscriptions.get({ id: sub.id });
    expect(running.meters).toEqual([
      expect.objectContaining({
        meterId: m.meter.id,
        consumedUnits: 120,
        creditedUnits: 0,
        amount: 60,
        meter: expect.objectContaining({ id: m.meter.id }),
      }),
    ]);
    expect((await portal.get(session, { id: empty.id })).consumedUnits).toBe(120);
    const [portalSub] = (await anon().customerPortal.subscriptions.list(session, {})).result.items;
    expect(portalSub.meters.map((x) => [x.consumedUnits, x.amount])).toEqual([[120, 60]]);

    await advance("2028-02-10T12:00:00Z");
    const [first] = await m.cycleOrders(sub.id);
    expect(first).toMatchObject({ status: "paid", subtotalAmount: 1060, totalAmount: 1060 });
    expect(first.items.map((i) => [i.label, i.amount])).toEqual([
      ["Usage plan", 1000],
      ["Usage plan — API calls (120 units)", 60],
    ]);
    // The new period starts empty; its usage counts from the renewal on.
    await m.calls(ext, 30, "2028-02-10T06:00:00Z");
    // An event for the billed period that arrives late is not billed again.
    await m.calls(ext, 1, "2028-02-09T23:00:00Z");
    const meterNow = (await portal.list(session, {})).result.items[0];
    expect(meterNow).toMatchObject({ consumedUnits: 30, creditedUnits: 0, balance: -30 });
    const merchantView = await collectPages(await m.polar.customerMeters.list({ customerId: customer.id }));
    expect(merchantView).toEqual([
      expect.objectContaining({
        id: empty.id,
        consumedUnits: 30,
        customer: expect.objectContaining({ id: customer.id }),
        meter: expect.objectContaining({ name: "API calls" }),
      }),
    ]);
    expect((await m.polar.customers.getState({ id: customer.id })).activeMeters).toEqual([
      expect.objectContaining({ id: empty.id, meterId: m.meter.id, consumedUnits: 30, creditedUnits: 0, balance: -30 }),
    ]);

    await advance("2028-03-10T12:00:00Z");
    const orders = await m.cycleOrders(sub.id);
    expect(orders.map((o) => o.subtotalAmount)).toEqual([1060, 1015]);
    expect(orders[1].items[1]).toMatchObject({ label: "Usage plan — API calls (30 units)", amount: 15 });
    // One billing per meter and period, and a reset at each period end.
    const billings = await api.knex("subscription_meter_billings").where({ subscription_id: sub.id }).orderBy("period_start");
    expect(billings.map((b) => [b.period_start.toISOString(), b.billed_units, Number(b.amount)])).toEqual([
      ["2028-01-10T00:00:00.000Z", 120, 60],
      ["2028-02-10T00:00:00.000Z", 30, 15],
    ]);
    const resets = await collectPages(await m.polar.events.list({ customerId: customer.id, name: "meter.reset", sorting: ["timestamp"] }));
    expect(resets.map((e) => [e.timestamp.toISOString(), e.source, e.metadata])).toEqual([
      ["2028-02-10T00:00:00.000Z", "system", { meterId: m.meter.id }],
      ["2028-03-10T00:00:00.000Z", "system", { meterId: m.meter.id }],
    ]);
    const cycled = await collectPages(await m.polar.events.list({ customerId: customer.id, name: "subscription.cycled" }));
    expect(cycled).toHaveLength(2);
  });

  it("bills the last period's usage on a last order when the subscription ends at period end", async () => {
    const m = await merchant();
    const { customer, sub, advance } = await m.subscribe("2028-01-10T00:00:00Z");
    await advance("2028-01-20T00:00:00Z");
    await m.calls(customer.externalId!, 40, "2028-01-19T00:00:00Z");
    await m.polar.subscriptions.update({ id: sub.id, subscriptionUpdate: { cancelAtPeriodEnd: true } });
    await advance("2028-02-11T00:00:00Z");
    const ended = await m.polar.subscriptions.get({ id: sub.id });
    expect(ended.status).toBe("canceled");
    const [last] = await m.cycleOrders(sub.id);
    // Only the usage: no period follows, so no base price.
    expect(last).toMatchObject({ status: "paid", subtotalAmount: 20 });
    expect(last.items.map((i) => [i.label, i.amount])).toEqual([["Usage plan — API calls (40 units)", 20]]);
    expect(await api.knex("subscription_meter_billings").where({ subscription_id: sub.id })).toHaveLength(1);
    // Without usage, ending makes no order.
    const quiet = await m.subscribe("2028-01-10T00:00:00Z");
    await m.polar.subscriptions.update({ id: quiet.sub.id, subscriptionUpdate: { cancelAtPeriodEnd: true } });
    await quiet.advance("2028-02-11T00:00:00Z");
    expect((await m.polar.subscriptions.get({ id: quiet.sub.id })).status).toBe("canceled");
    expect(await m.cycleOrders(quiet.sub.id)).toEqual([]);
  });

  it("caps a metered price at its cap amount", async () => {
    const m = await merchant({ capAmount: 25 });
    const { customer, sub, advance } = await m.subscribe("2028-01-10T00:00:00Z");
    await advance("2028-01-12T00:00:00Z");
    await m.calls(customer.externalId!, 200, "2028-01-11T00:00:00Z");
    expect((await m.polar.subscriptions.get({ id: sub.id })).meters[0]).toMatchObject({ consumedUnits: 200, amount: 25 });
    await advance("2028-02-10T12:00:00Z");
    const [order] = await m.cycleOrders(sub.id);
    expect(order.items[1]).toMatchObject({ label: "Usage plan — API calls (200 units)", amount: 25 });
  });

  it("offsets usage with meter credits granted each period, reset without rollover", async () => {
    const m = await merchant({ credit: { units: 100, rollover: false } });
    const { customer, sub, session, advance } = await m.subscribe("2028-01-10T00:00:00Z");
    const portal = anon().customerPortal.customerMeters;
    // Granted with the subscription: 100 units credited.
    await expect.poll(async () => (await portal.list(session, {})).result.items[0]?.creditedUnits, poll).toBe(100);
    const credited = await collectPages(await m.polar.events.list({ customerId: customer.id, name: "meter.credited" }));
    expect(credited.map((e) => e.metadata)).toEqual([{ meterId: m.meter.id, units: 100, rollover: false }]);
    await advance("2028-01-13T00:00:00Z");
    await m.calls(customer.externalId!, 150, "2028-01-12T00:00:00Z");
    expect((await portal.list(session, {})).result.items[0]).toMatchObject({ consumedUnits: 150, creditedUnits: 100, balance: -50 });
    expect((await m.polar.subscriptions.get({ id: sub.id })).meters[0]).toMatchObject({
      consumedUnits: 150,
      creditedUnits: 100,
      amount: 25,
    });

    await advance("2028-02-10T12:00:00Z");
    const [first] = await m.cycleOrders(sub.id);
    expect(first.items[1]).toMatchObject({ label: "Usage plan — API calls (50 units)", amount: 25 });
    // The cycle resets the meter and credits the period's 100 units again (nothing carried over).
    await expect.poll(async () => (await portal.list(session, {})).result.items[0]?.creditedUnits, poll).toBe(100);
    await advance("2028-02-12T00:00:00Z");
    await m.calls(customer.externalId!, 40, "2028-02-11T00:00:00Z");
    expect((await portal.list(session, {})).result.items[0]).toMatchObject({ consumedUnits: 40, creditedUnits: 100, balance: 60 });
    await advance("2028-03-10T12:00:00Z");
    const orders = await m.cycleOrders(sub.id);
    expect(orders[1].items[1]).toMatchObject({ label: "Usage plan — API calls (0 units)", amount: 0 });
    await expect
      .poll(async () => (await portal.list(session, {})).result.items[0], poll)
      .toMatchObject({ consumedUnits: 0, creditedUnits: 100, balance: 100 });
    // What the platform wrote, as the official client reads it.
    const system = await collectPages(await m.polar.events.list({ customerId: customer.id, source: "system", limit: 100 }));
    expect(new Set(system.map((e) => e.name))).toEqual(
      new Set(["benefit.granted", "meter.credited", "subscription.cycled", "meter.reset", "benefit.cycled"]),
    );
    const granted = system.find((e) => e.name === "benefit.granted");
    expect(granted?.metadata).toMatchObject({ benefitType: "meter_credit" });
  });

  it("carries unused rollover credits into the next period", async () => {
    const m = await merchant({ credit: { units: 100, rollover: true } });
    const { customer, sub, session, advance } = await m.subscribe("2028-01-10T00:00:00Z");
    const portal = anon().customerPortal.customerMeters;
    await expect.poll(async () => (await portal.list(session, {})).result.items[0]?.creditedUnits, poll).toBe(100);
    await advance("2028-01-13T00:00:00Z");
    await m.calls(customer.externalId!, 30, "2028-01-12T00:00:00Z");
    await advance("2028-02-10T12:00:00Z");
    const [first] = await m.cycleOrders(sub.id);
    expect(first.items[1]).toMatchObject({ amount: 0 });
    // 70 units left over, carried, plus the new period's 100.
    await expect.poll(async () => (await portal.list(session, {})).result.items[0]?.creditedUnits, poll).toBe(170);
    const credits = await collectPages(
      await m.polar.events.list({ customerId: customer.id, name: "meter.credited", sorting: ["timestamp"] }),
    );
    // The grant's credit, then at the period boundary the carried 70 and the cycle's 100.
    expect(credits.map((e) => e.timestamp.toISOString())).toEqual([
      "2028-01-10T00:00:00.000Z",
      "2028-02-10T00:00:00.000Z",
      "2028-02-10T00:00:00.000Z",
    ]);
    expect(credits[0].metadata).toEqual({ meterId: m.meter.id, units: 100, rollover: true });
    // The two at the boundary share their timestamp: in either order.
    const atBoundary = credits.slice(1).map((e) => e.metadata as { units: number });
    expect(atBoundary.sort((x, y) => x.units - y.units)).toEqual(
      [70, 100].map((units) => ({ meterId: m.meter.id, units, rollover: true })),
    );
    await advance("2028-02-13T00:00:00Z");
    await m.calls(customer.externalId!, 200, "2028-02-12T00:00:00Z");
    await advance("2028-03-10T12:00:00Z");
    const orders = await m.cycleOrders(sub.id);
    expect(orders[1].items[1]).toMatchObject({ label: "Usage plan — API calls (30 units)", amount: 15 });
    await expect.poll(async () => (await portal.list(session, {})).result.items[0]?.creditedUnits, poll).toBe(100);
  });
});
