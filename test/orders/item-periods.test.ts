// The period each order line bills (`start_timestamp`, `end_timestamp`, what the 1.x client reads):
// none for a one-time purchase; a subscription's first order bills its first period; a renewal
// bills the period that starts for its price and the one that ended for its usage (in arrears);
// a product change's prorations cover what was left of the period.
import { describe, expect, it } from "vitest";
import { createPolar, type Polar } from "polar-sdk-1/2026-04";
import { runStep } from "../../server/subscriptions/billing.js";
import { mintOrganizationToken } from "../../server/organization-access-tokens/service.js";
import { addMeteredPrice, createEvent, createSubscriptionFixture, orgWithToken, useTestApi } from "../harness/index.js";

const api = useTestApi();
const pay = {
  confirmation_token_id: "tok_sandbox_success",
  customer_billing_address: { country: "FR" },
  customer_email: "lines@example.com",
} as const;
const iso = (d: Date | string) => new Date(d).toISOString();

async function polarOf(organizationId: string): Promise<Polar> {
  return createPolar({ accessToken: await mintOrganizationToken(api.knex, organizationId, {}), baseUrl: api.url });
}

/** The order's lines as [label, start, end]. */
async function lines(polar: Polar, orderId: string) {
  return (await polar.orders.get(orderId)).items.map((i) => [i.label, i.start_timestamp, i.end_timestamp]);
}

describe("order line periods", () => {
  it("are none for a one-time purchase and the first period for a subscription's first order", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const polar = createPolar({ accessToken: token, baseUrl: api.url });
    const once = await polar.products.create({
      name: "Once",
      prices: [{ amount_type: "fixed", price_amount: 500, price_currency: "usd" }],
    });
    const monthly = await polar.products.create({
      name: "Monthly",
      recurring_interval: "month",
      prices: [{ amount_type: "fixed", price_amount: 900, price_currency: "usd" }],
    });
    for (const product of [once, monthly]) {
      const checkout = await polar.checkouts.create({ products: [product.id] });
      await polar.checkouts.clientConfirm(checkout.client_secret, pay);
    }
    const orders = (await polar.orders.list({ organization_id: org.id })).items;
    const purchase = orders.find((o) => o.billing_reason === "purchase")!;
    expect(await lines(polar, purchase.id)).toEqual([["Once", null, null]]);
    const first = orders.find((o) => o.billing_reason === "subscription_create")!;
    const sub = await polar.subscriptions.get(first.subscription_id!);
    expect(await lines(polar, first.id)).toEqual([["Monthly", sub.current_period_start, sub.current_period_end]]);
  });

  it("bill the period that starts, and the usage of the one that ended, at renewal", async () => {
    const startedAt = new Date("2027-05-01T00:00:00Z");
    const f = await createSubscriptionFixture(api.knex, { startedAt, interval: "month", amount: 1000 });
    await addMeteredPrice(api.knex, f);
    await createEvent(api.knex, f.organizationId, { customer_id: f.customerId, timestamp: new Date("2027-05-02T00:00:00Z") });
    await runStep(api.knex, f.subscription.id, Date.parse("2027-06-01T01:00:00Z"));
    const polar = await polarOf(f.organizationId);
    const order = (await polar.orders.list({ customer_id: f.customerId })).items.find((o) => o.billing_reason === "subscription_cycle")!;
    expect(await lines(polar, order.id)).toEqual([
      ["Pro monthly", iso("2027-06-01T00:00:00Z"), iso("2027-07-01T00:00:00Z")],
      ["Pro monthly — API calls (1 units)", iso("2027-05-01T00:00:00Z"), iso("2027-06-01T00:00:00Z")],
    ]);
  });

  it("cover what was left of the period for a product change's prorations", async () => {
    const startedAt = new Date(Date.now() - 10 * 86_400_000);
    const f = await createSubscriptionFixture(api.knex, { startedAt, interval: "month", amount: 1000 });
    const [bigger] = await api
      .knex("products")
      .insert({ organization_id: f.organizationId, name: "Bigger", recurring_interval: "month" })
      .returning("id");
    await api
      .knex("product_prices")
      .insert({ product_id: bigger.id, amount_type: "fixed", price_currency: "usd", price_amount: 3000, position: 0 });
    const polar = await polarOf(f.organizationId);
    const before = Date.now();
    await polar.subscriptions.update(f.subscription.id, { product_id: bigger.id, proration_behavior: "invoice" });
    const order = (await polar.orders.list({ customer_id: f.customerId })).items.find((o) => o.billing_reason === "subscription_update")!;
    const got = await lines(polar, order.id);
    expect(got.map(([label, , end]) => [label, end])).toEqual([
      ["Unused time on Pro monthly", iso(f.subscription.current_period_end!)],
      ["Remaining time on Bigger", iso(f.subscription.current_period_end!)],
    ]);
    for (const [, start] of got) expect(Date.parse(String(start))).toBeGreaterThanOrEqual(before - 1000);
  });
});
