// Changing a seat-based subscription's seats through the 0.49.0 client (merchant and portal): the
// tiers' price for the new count, proration (invoice: an order for the difference now; prorate:
// lines for the next renewal; the organization's default), the rules and Polar's errors, the
// subscription.updated webhook and the subscription.seats_updated event, and product changes to
// and from a seat-based product.
import { describe, expect, it } from "vitest";
import type { Polar as Polar049 } from "polar-sdk-049";
import { AlreadyCanceledSubscription } from "polar-sdk-049/models/errors/alreadycanceledsubscription.js";
import { HTTPValidationError } from "polar-sdk-049/models/errors/httpvalidationerror.js";
import { ResourceNotFound } from "polar-sdk-049/models/errors/resourcenotfound.js";
import { ResponseValidationError } from "polar-sdk-049/models/errors/responsevalidationerror.js";
import { SDKError } from "polar-sdk-049/models/errors/sdkerror.js";
import { SubscriptionLocked } from "polar-sdk-049/models/errors/subscriptionlocked.js";
import { createCustomerSessionToken, orgWithToken, rejects, useTestApi } from "../harness/index.js";
import { createSubscriptionFixture } from "../harness/subscription-fixture.js";

const api = useTestApi();

// Volume tiers: 2 to 5 seats at 10.00 each, 6 to 20 at 8.00 each.
const TIERS = [
  { minSeats: 2, maxSeats: 5, pricePerSeat: 1000 },
  { minSeats: 6, maxSeats: 20, pricePerSeat: 800 },
];

interface Shop {
  orgId: string;
  polar: Polar049;
  productId: string;
  subscriptionId: string;
  customerId: string;
}

/**
 * An organization with seats on and a 3-seat subscription (30.00 a month) to a seat-based product,
 * on a test clock frozen at half of its 31-day period (2028-01-01 to 2028-02-01).
 */
async function shop(seats: number | null = 3): Promise<Shop> {
  const { org, token } = await orgWithToken(api.knex);
  const polar = api.client049(token);
  await polar.organizations.update({ id: org.id, organizationUpdate: { featureSettings: { seatBasedPricingEnabled: true } } });
  const product = await polar.products.create({
    name: "Team",
    recurringInterval: "month",
    prices: [{ amountType: "seat_based", priceCurrency: "usd", seatTiers: { seatTierType: "volume", tiers: TIERS } }],
  });
  const [clock] = await api.knex("test_clocks").insert({ organization_id: org.id, frozen_time: "2028-01-16T12:00:00Z" }).returning("id");
  const f = await createSubscriptionFixture(api.knex, {
    startedAt: new Date("2028-01-01T00:00:00Z"),
    organizationId: org.id,
    amount: 3000,
    overrides: { seats, test_clock_id: clock.id },
  });
  if (seats !== null) {
    await api.knex("subscriptions").where({ id: f.subscription.id }).update({ product_id: product.id });
    await api.knex("subscription_prices").where({ subscription_id: f.subscription.id }).update({ product_price_id: product.prices[0].id });
  }
  return { orgId: org.id, polar, productId: product.id, subscriptionId: f.subscription.id, customerId: f.customerId };
}

async function failure(p: Promise<unknown>, status: number): Promise<{ error: string; detail: string }> {
  const err = await rejects(p, SDKError);
  expect(err.statusCode).toBe(status);
  return JSON.parse(err.body) as { error: string; detail: string };
}

const ordersOf = (subscriptionId: string) =>
  api.knex("orders").where({ subscription_id: subscriptionId, billing_reason: "subscription_update" }).select("id", "subtotal_amount");

async function itemsOf(orderId: string): Promise<[number, boolean][]> {
  const items = await api.knex("order_items").where({ order_id: orderId }).orderBy("position");
  return items.map((i: { amount: string | number; proration: boolean }) => [Number(i.amount), i.proration]);
}

async function updates(orgId: string): Promise<Record<string, unknown>[]> {
  const rows: { payload: { data: Record<string, unknown> } }[] = await api
    .knex("outbox")
    .where({ organization_id: orgId, type: "subscription.updated" })
    .orderBy("id");
  return rows.map((r) => r.payload.data);
}

const row = (id: string) => api.knex("subscriptions").where({ id }).first();

const setOrg = (orgId: string, column: string, patch: Record<string, unknown>) =>
  api
    .knex("organizations")
    .where({ id: orgId })
    .update({ [column]: api.knex.raw(`${column} || ?::jsonb`, [JSON.stringify(patch)]) });

describe("changing a subscription's seats", () => {
  it("invoice: charges the difference for the rest of the period now, as an order", async () => {
    const s = await shop();
    const changed = await s.polar.subscriptions.update({
      id: s.subscriptionId,
      subscriptionUpdate: { seats: 8, prorationBehavior: "invoice" },
    });
    // 8 seats fall in the second tier: 8 x 8.00.
    expect(changed).toMatchObject({ seats: 8, amount: 6400, productId: s.productId });
    const [order] = await ordersOf(s.subscriptionId);
    // Half of the period left: 15.00 back for 3 seats, 32.00 for 8.
    expect(Number(order.subtotal_amount)).toBe(3200 - 1500);
    expect(await itemsOf(order.id)).toEqual([
      [-1500, true],
      [3200, true],
    ]);
    expect((await row(s.subscriptionId)).pending_order_id).toBe(order.id);
    // While that order is being charged, the subscription takes no other change.
    await rejects(s.polar.subscriptions.update({ id: s.subscriptionId, subscriptionUpdate: { seats: 9 } }), SubscriptionLocked);

    expect((await updates(s.orgId)).map((d) => [d.seats, d.amount])).toEqual([[8, 6400]]);
    const [stored] = await api.knex("events").where({ organization_id: s.orgId, name: "subscription.seats_updated" });
    const event = await s.polar.events.get({ id: stored.id });
    expect(event).toMatchObject({
      name: "subscription.seats_updated",
      source: "system",
      label: "Subscription seats updated",
      customerId: s.customerId,
      metadata: { subscriptionId: s.subscriptionId, oldSeats: 3, newSeats: 8, prorationBehavior: "invoice" },
    });
  });

  it("prorate: the credit and the charge join the next renewal; the organization's default otherwise", async () => {
    const s = await shop();
    const fewer = await s.polar.subscriptions.update({
      id: s.subscriptionId,
      subscriptionUpdate: { seats: 2, prorationBehavior: "prorate" },
    });
    expect(fewer).toMatchObject({ seats: 2, amount: 2000 });
    expect(await ordersOf(s.subscriptionId)).toEqual([]);
    const pending = (await row(s.subscriptionId)).pending_prorations as {
      label: string;
      amount: number;
      product_price_id: string | null;
    }[];
    expect(pending.map((l) => [l.label, l.amount])).toEqual([
      ["Unused time on Team (3 seats)", -1500],
      ["Remaining time on Team (2 seats)", 1000],
    ]);

    // The organization invoices by default: no behavior given, an order for 2 -> 5 seats.
    await setOrg(s.orgId, "subscription_settings", { proration_behavior: "invoice" });
    const more = await s.polar.subscriptions.update({ id: s.subscriptionId, subscriptionUpdate: { seats: 5 } });
    expect(more).toMatchObject({ seats: 5, amount: 5000 });
    const [order] = await ordersOf(s.subscriptionId);
    expect(Number(order.subtotal_amount)).toBe(2500 - 1000);
    // A decrease under invoice is a credit: it waits for the renewal, no order.
    await api.knex("subscriptions").where({ id: s.subscriptionId }).update({ pending_order_id: null });
    await s.polar.subscriptions.update({ id: s.subscriptionId, subscriptionUpdate: { seats: 4 } });
    expect(await ordersOf(s.subscriptionId)).toHaveLength(1);
    const after = (await row(s.subscriptionId)).pending_prorations as { amount: number }[];
    expect(after.map((l) => l.amount)).toEqual([-1500, 1000, -2500, 2000]);
    const events = await api.knex("events").where({ organization_id: s.orgId, name: "subscription.seats_updated" }).orderBy("ingested_at");
    expect(events.map((e: { metadata: Record<string, unknown> }) => e.metadata.proration_behavior)).toEqual([
      "prorate",
      "invoice",
      "invoice",
    ]);
  });

  it("refuses what Polar refuses, with its errors", async () => {
    const s = await shop();
    const update = (seats: number) => s.polar.subscriptions.update({ id: s.subscriptionId, subscriptionUpdate: { seats } });
    expect(await failure(update(1), 400)).toEqual({ error: "BelowMinimumSeats", detail: "Minimum 2 seats required." });
    expect(await failure(update(21), 400)).toEqual({ error: "AboveMaximumSeats", detail: "Maximum 20 seats allowed." });
    const zero = await rejects(update(0), HTTPValidationError);
    expect(zero.detail?.[0]?.loc).toEqual(["body", "seats"]);

    // Three seats handed out (two pending, one claimed): not below three.
    for (const email of ["a@example.com", "b@example.com", "c@example.com"]) {
      await s.polar.customerSeats.assignSeat({ subscriptionId: s.subscriptionId, email });
    }
    await api.knex("customer_seats").where({ subscription_id: s.subscriptionId, email: "a@example.com" }).update({ status: "claimed" });
    expect(await failure(update(2), 400)).toEqual({
      error: "SeatsAlreadyAssigned",
      detail: "Cannot decrease seats to 2. Currently 3 seats are assigned. Revoke seats first.",
    });

    // The same count changes nothing and says nothing.
    const same = await update(3);
    expect(same).toMatchObject({ seats: 3, amount: 3000 });
    expect(await updates(s.orgId)).toEqual([]);
    expect(await api.knex("events").where({ organization_id: s.orgId, name: "subscription.seats_updated" })).toEqual([]);

    await s.polar.subscriptions.update({ id: s.subscriptionId, subscriptionUpdate: { cancelAtPeriodEnd: true } });
    await rejects(update(4), AlreadyCanceledSubscription);

    const plain = await shop(null);
    expect(await failure(plain.polar.subscriptions.update({ id: plain.subscriptionId, subscriptionUpdate: { seats: 4 } }), 400)).toEqual({
      error: "NotASeatBasedSubscription",
      detail: "This subscription does not support seat-based pricing.",
    });
    // Another organization's subscription is not found.
    await rejects(plain.polar.subscriptions.update({ id: s.subscriptionId, subscriptionUpdate: { seats: 4 } }), ResourceNotFound);
  });

  it("bills nothing for the rest of a trial: the new count is charged when it ends", async () => {
    const s = await shop();
    await api.knex("subscriptions").where({ id: s.subscriptionId }).update({ status: "trialing" });
    const changed = await s.polar.subscriptions.update({
      id: s.subscriptionId,
      subscriptionUpdate: { seats: 6, prorationBehavior: "invoice" },
    });
    expect(changed).toMatchObject({ seats: 6, amount: 4800, status: "trialing" });
    expect(await ordersOf(s.subscriptionId)).toEqual([]);
    expect((await row(s.subscriptionId)).pending_prorations).toEqual([]);
  });

  it("lets the customer change the seats in the portal, unless the organization says not", async () => {
    const s = await shop();
    const session = await createCustomerSessionToken(api.knex, s.customerId);
    const portal = api.client049("").customerPortal.subscriptions;
    const changed = await portal.update({ customerSession: session }, { id: s.subscriptionId, customerSubscriptionUpdate: { seats: 5 } });
    expect(changed).toMatchObject({ id: s.subscriptionId, amount: 5000 });
    // The organization's default, prorate: no order, the lines wait for the renewal.
    expect(await ordersOf(s.subscriptionId)).toEqual([]);
    expect(((await row(s.subscriptionId)).pending_prorations as { amount: number }[]).map((l) => l.amount)).toEqual([-1500, 2500]);
    expect(
      (await failure(portal.update({ customerSession: session }, { id: s.subscriptionId, customerSubscriptionUpdate: { seats: 30 } }), 400))
        .error,
    ).toBe("AboveMaximumSeats");

    await setOrg(s.orgId, "customer_portal_settings", { subscription: { update_seats: false } });
    const org = await s.polar.organizations.get({ id: s.orgId });
    expect(org.customerPortalSettings.subscription.updateSeats).toBe(false);
    // Polar's 403, which 0.49.0 declares no model for: its client raises a ResponseValidationError.
    const refused = await rejects(
      portal.update({ customerSession: session }, { id: s.subscriptionId, customerSubscriptionUpdate: { seats: 4 } }),
      ResponseValidationError,
    );
    expect([refused.statusCode, JSON.parse(refused.body)]).toEqual([
      403,
      { error: "UpdateSubscriptionSeatsNotAllowed", detail: "Updating subscription seats is not allowed." },
    ]);
    expect((await row(s.subscriptionId)).seats).toBe(5);
  });
});

describe("product changes and seats", () => {
  it("keeps the seats onto another seat-based product, at least its minimum, at most its maximum", async () => {
    const s = await shop();
    const bigger = await s.polar.products.create({
      name: "Team Plus",
      recurringInterval: "month",
      prices: [
        {
          amountType: "seat_based",
          priceCurrency: "usd",
          seatTiers: { seatTierType: "volume", tiers: [{ minSeats: 4, pricePerSeat: 1500 }] },
        },
      ],
    });
    const moved = await s.polar.subscriptions.update({
      id: s.subscriptionId,
      subscriptionUpdate: { productId: bigger.id, prorationBehavior: "prorate" },
    });
    expect(moved).toMatchObject({ productId: bigger.id, seats: 4, amount: 6000 });
    const pending = (await row(s.subscriptionId)).pending_prorations as { amount: number }[];
    expect(pending.map((l) => l.amount)).toEqual([-1500, 3000]);

    const small = await s.polar.products.create({
      name: "Team Small",
      recurringInterval: "month",
      prices: [
        {
          amountType: "seat_based",
          priceCurrency: "usd",
          seatTiers: { seatTierType: "volume", tiers: [{ minSeats: 1, maxSeats: 3, pricePerSeat: 500 }] },
        },
      ],
    });
    expect(await failure(s.polar.subscriptions.update({ id: s.subscriptionId, subscriptionUpdate: { productId: small.id } }), 400)).toEqual(
      {
        error: "AboveMaximumSeats",
        detail: "Maximum 3 seats allowed.",
      },
    );
    // Back on the first product, the four seats stay.
    const back = await s.polar.subscriptions.update({ id: s.subscriptionId, subscriptionUpdate: { productId: s.productId } });
    expect(back).toMatchObject({ seats: 4, amount: 4000 });
  });

  it("refuses a move from a seat-based product to a plain one, as Polar; a plain subscription takes the minimum", async () => {
    const s = await shop();
    const solo = await s.polar.products.create({
      name: "Solo",
      recurringInterval: "month",
      prices: [{ amountType: "fixed", priceCurrency: "usd", priceAmount: 2500 }],
    });
    // Refused with no seat handed out: the merchant's change, the portal's and its preview.
    const refusal = {
      loc: ["body", "product_id"],
      msg: "Can't switch from a seat-based to a non-seat-based product.",
      type: "value_error",
    };
    const merchant = await rejects(
      s.polar.subscriptions.update({ id: s.subscriptionId, subscriptionUpdate: { productId: solo.id } }),
      HTTPValidationError,
    );
    expect(merchant.detail).toEqual([expect.objectContaining(refusal)]);
    await setOrg(s.orgId, "subscription_settings", { allow_customer_updates: true });
    const session = await createCustomerSessionToken(api.knex, s.customerId);
    const portal = api.client049("").customerPortal.subscriptions;
    const customer = await rejects(
      portal.update({ customerSession: session }, { id: s.subscriptionId, customerSubscriptionUpdate: { productId: solo.id } }),
      HTTPValidationError,
    );
    expect(customer.detail).toEqual([expect.objectContaining(refusal)]);
    const preview = await fetch(`${api.url}/v1/customer-portal/subscriptions/${s.subscriptionId}/preview?product_id=${solo.id}`, {
      headers: { authorization: `Bearer ${session}` },
    });
    expect(preview.status).toBe(422);
    expect(((await preview.json()) as { detail: unknown[] }).detail).toEqual([
      expect.objectContaining(Object.assign({}, refusal, { loc: ["query", "product_id"] })),
    ]);
    expect(await row(s.subscriptionId)).toMatchObject({ product_id: s.productId, seats: 3 });

    const plain = await shop(null);
    const team = await plain.polar.products.create({
      name: "Team",
      recurringInterval: "month",
      prices: [{ amountType: "seat_based", priceCurrency: "usd", seatTiers: { seatTierType: "volume", tiers: TIERS } }],
    });
    const moved = await plain.polar.subscriptions.update({ id: plain.subscriptionId, subscriptionUpdate: { productId: team.id } });
    expect(moved).toMatchObject({ productId: team.id, seats: 2, amount: 2000 });
  });
});
