// The next_period and reset proration behaviours through the 0.49.0 client, on billing test clocks
// run by the lifecycle workflow: a product and a seat change of each, the pending update on the
// wire, cleared, or applied at the renewal, reset's gate, and the organization's default in the portal.
import { randomUUID } from "node:crypto";
import type { Polar as Polar049 } from "polar-sdk-049";
import { HTTPValidationError } from "polar-sdk-049/models/errors/httpvalidationerror.js";
import { beforeAll, describe, expect, it } from "vitest";
import { createCustomerSessionToken, orgWithToken, rejects, testClocks, useLifecycleWorker, useTestApi } from "../harness/index.js";

const api = useTestApi();
const poll = { timeout: 20_000, interval: 100 };

describe("proration behaviours", () => {
  useLifecycleWorker("proration-behaviours-test", () => api.knex);
  let polar: Polar049;
  let token: string;
  let orgId: string;
  let basic: string;
  let pro: string;
  let team: string;
  const advance = (clockId: string, to: string) => testClocks(api.url, token, poll).advance(clockId, to);

  beforeAll(async () => {
    const made = await orgWithToken(api.knex);
    orgId = made.org.id;
    token = made.token;
    polar = api.client049(token);
    await polar.organizations.update({ id: orgId, organizationUpdate: { featureSettings: { seatBasedPricingEnabled: true } } });
    const fixed = async (name: string, amount: number) =>
      (
        await polar.products.create({
          name,
          recurringInterval: "month",
          prices: [{ amountType: "fixed", priceAmount: amount, priceCurrency: "usd" }],
        })
      ).id;
    basic = await fixed("Basic", 1000);
    pro = await fixed("Pro", 3000);
    team = (
      await polar.products.create({
        name: "Team",
        recurringInterval: "month",
        prices: [
          {
            amountType: "seat_based",
            priceCurrency: "usd",
            seatTiers: { seatTierType: "volume", tiers: [{ minSeats: 1, maxSeats: 20, pricePerSeat: 1000 }] },
          },
        ],
      })
    ).id;
  }, 120_000);

  /** A customer on a test clock at 2028-01-01 (a 31-day period), subscribed through the hosted checkout, the clock then at half of it. */
  async function subscribe(productId: string, seats?: number) {
    const clocks = testClocks(api.url, token, poll);
    const customer = await polar.customers.create({ email: `buyer-${randomUUID().slice(0, 8)}@example.com`, name: "Buyer" });
    const clockId = String((await clocks.call("POST", "", { name: "proration", frozen_time: "2028-01-01T00:00:00Z" })).json.id);
    expect((await clocks.call("POST", `${clockId}/customers`, { customer_id: customer.id })).status).toBe(200);
    const checkout = await polar.checkouts.create({ products: [productId], customerId: customer.id, seats });
    await api.client049("").checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: { customerBillingAddress: { country: "FR" }, confirmationTokenId: "tok_sandbox_success" },
    });
    const [sub] = (await polar.subscriptions.list({ customerId: customer.id })).result.items;
    await advance(clockId, "2028-01-16T12:00:00Z");
    return { sub, clockId, customerId: customer.id };
  }

  const orders = async (subscriptionId: string, reason: string) => {
    const rows = await api.knex("orders").where({ subscription_id: subscriptionId, billing_reason: reason }).orderBy("created_at");
    return Promise.all(
      rows.map(async (o: { id: string }) =>
        (await api.knex("order_items").where({ order_id: o.id }).orderBy("position")).map((i) => [i.label, Number(i.amount)]),
      ),
    );
  };
  const lastUpdated = async (subscriptionId: string) => {
    const rows: { payload: { data: Record<string, unknown> } }[] = await api
      .knex("outbox")
      .where({ organization_id: orgId, type: "subscription.updated" })
      .orderBy("id");
    return rows
      .map((r) => r.payload.data)
      .filter((d) => d.id === subscriptionId)
      .at(-1)!;
  };

  it("next_period: a product and a seat change wait as pending_update, billed nothing, and apply at the renewal", async () => {
    const { sub, clockId } = await subscribe(basic);
    const waiting = await polar.subscriptions.update({
      id: sub.id,
      subscriptionUpdate: { productId: pro, prorationBehavior: "next_period" },
    });
    expect(waiting).toMatchObject({ productId: basic, amount: 1000, pendingUpdate: { productId: pro, seats: null } });
    expect(waiting.pendingUpdate!.appliesAt.toISOString()).toBe("2028-02-01T00:00:00.000Z");
    expect((await lastUpdated(sub.id)).pending_update).toMatchObject({ product_id: pro, seats: null });
    expect(await orders(sub.id, "subscription_update")).toEqual([]);
    expect((await api.knex("subscriptions").where({ id: sub.id }).first()).pending_prorations).toEqual([]);

    await advance(clockId, "2028-02-02T00:00:00Z");
    // The renewal bills the new product in full; no proration.
    expect(await orders(sub.id, "subscription_cycle")).toEqual([[["Pro", 3000]]]);
    const renewed = await polar.subscriptions.get({ id: sub.id });
    expect(renewed).toMatchObject({ productId: pro, amount: 3000, pendingUpdate: null });
    expect(renewed.currentPeriodEnd!.toISOString()).toBe("2028-03-01T00:00:00.000Z");

    // Seats: waiting, then the current count again cancels it.
    const seated = await subscribe(team, 3);
    const more = await polar.subscriptions.update({
      id: seated.sub.id,
      subscriptionUpdate: { seats: 5, prorationBehavior: "next_period" },
    });
    expect(more).toMatchObject({ seats: 3, amount: 3000, pendingUpdate: { seats: 5, productId: null } });
    const same = await polar.subscriptions.update({
      id: seated.sub.id,
      subscriptionUpdate: { seats: 3, prorationBehavior: "next_period" },
    });
    expect(same.pendingUpdate).toBeNull();
    await polar.subscriptions.update({ id: seated.sub.id, subscriptionUpdate: { seats: 4, prorationBehavior: "next_period" } });
    await advance(seated.clockId, "2028-02-02T00:00:00Z");
    expect(await orders(seated.sub.id, "subscription_cycle")).toEqual([[["Team", 4000]]]);
    expect(await polar.subscriptions.get({ id: seated.sub.id })).toMatchObject({ seats: 4, amount: 4000, pendingUpdate: null });
  });

  it("reset: refused unless the organization has it; then the new plan in full now, a period from now, no credit", async () => {
    const { sub, clockId } = await subscribe(basic);
    const refused = await rejects(
      polar.subscriptions.update({ id: sub.id, subscriptionUpdate: { productId: pro, prorationBehavior: "reset" } }),
      HTTPValidationError,
    );
    expect(refused.detail?.map((d) => d.loc)).toEqual([["body", "proration_behavior"]]);
    // A feature setting the instance's staff turns on, not the organization's API.
    await api
      .knex("organizations")
      .where({ id: orgId })
      .update({
        feature_settings: api.knex.raw("feature_settings || ?::jsonb", [JSON.stringify({ reset_proration_behavior_enabled: true })]),
      });
    expect((await polar.organizations.get({ id: orgId })).featureSettings?.resetProrationBehaviorEnabled).toBe(true);

    const reset = await polar.subscriptions.update({ id: sub.id, subscriptionUpdate: { productId: pro, prorationBehavior: "reset" } });
    expect(reset).toMatchObject({ productId: pro, amount: 3000, pendingUpdate: null });
    expect(reset.currentPeriodStart.toISOString()).toBe("2028-01-16T12:00:00.000Z");
    expect(reset.currentPeriodEnd!.toISOString()).toBe("2028-02-16T12:00:00.000Z");
    expect(await orders(sub.id, "subscription_update")).toEqual([[["Pro", 3000]]]);
    // The order is charged at once; the next renewal is a month from the reset.
    await expect
      .poll(
        async () => (await api.knex("orders").where({ subscription_id: sub.id, billing_reason: "subscription_update" }).first()).status,
        poll,
      )
      .toBe("paid");
    await advance(clockId, "2028-02-16T12:00:00Z");
    expect(await orders(sub.id, "subscription_cycle")).toEqual([[["Pro", 3000]]]);

    const seated = await subscribe(team, 3);
    const seats = await polar.subscriptions.update({ id: seated.sub.id, subscriptionUpdate: { seats: 5, prorationBehavior: "reset" } });
    expect(seats).toMatchObject({ seats: 5, amount: 5000 });
    expect(seats.currentPeriodEnd!.toISOString()).toBe("2028-02-16T12:00:00.000Z");
    expect(await orders(seated.sub.id, "subscription_update")).toEqual([[["Team (5 seats)", 5000]]]);
  });

  it("keeps next_period and reset out of the organization's default; clearing what waits, in the portal and by the merchant", async () => {
    // The default is answered on every organization, and 0.34.17's closed enum reads only invoice and prorate.
    for (const behavior of ["next_period", "reset"]) {
      const res = await fetch(`${api.url}/v1/organizations/${orgId}`, {
        method: "PATCH",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ subscription_settings: { proration_behavior: behavior } }),
      });
      expect(res.status).toBe(422);
    }

    const { sub, customerId } = await subscribe(basic);
    const waiting = await polar.subscriptions.update({
      id: sub.id,
      subscriptionUpdate: { productId: pro, prorationBehavior: "next_period" },
    });
    expect(waiting).toMatchObject({ productId: basic, pendingUpdate: { productId: pro } });
    const session = await createCustomerSessionToken(api.knex, customerId);
    const portal = api.client049("").customerPortal.subscriptions;
    expect(await orders(sub.id, "subscription_update")).toEqual([]);

    // The customer, or the merchant, drops what waits; nothing left to drop is a 422.
    const cleared = await portal.update({ customerSession: session }, { id: sub.id, customerSubscriptionUpdate: { pendingUpdate: null } });
    expect(cleared).toMatchObject({ productId: basic, pendingUpdate: null });
    expect((await lastUpdated(sub.id)).pending_update).toBeNull();
    const none = await rejects(
      polar.subscriptions.update({ id: sub.id, subscriptionUpdate: { pendingUpdate: null } }),
      HTTPValidationError,
    );
    expect(none.detail?.map((d) => d.loc)).toEqual([["body", "pending_update"]]);
  });
});
