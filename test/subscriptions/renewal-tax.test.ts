// Renewals recompute their tax: each renewal order is taxed from the customer's billing
// address and tax id as they are at the renewal, with the organization's tax settings as they are
// then, recorded with the provider, and stored as a checkout's order stores it. Through the
// official client, on a billing test clock run by the lifecycle workflow.
import { randomUUID } from "node:crypto";
import { Polar } from "@polar-sh/sdk";
import { describe, expect, it } from "vitest";
import { orgWithClient, plainJson, testClocks, useLifecycleWorker, useTestApi } from "../harness/index.js";

const api = useTestApi();

const FR_SELLER = {
  provider: "builtin",
  origin_country: "FR",
  prices_include_tax: false,
  registrations: [{ country: "FR" }, { country: "EU", scheme: "oss" }],
};

describe("renewal tax", () => {
  useLifecycleWorker("renewal-tax-test", () => api.knex);

  /** A FR seller's organization and a French customer on a test clock at `at`, subscribed through the hosted checkout. */
  async function subscribed(at: string) {
    const { org, token, polar } = await orgWithClient(api);
    const call = plainJson(api.url, token);
    const settings = (tax_settings: Record<string, unknown>) => call("PATCH", `/v1/organizations/${org.id}`, { tax_settings });
    expect((await settings(FR_SELLER)).status).toBe(200);
    const product = await polar.products.create({
      name: "Monthly",
      recurringInterval: "month",
      prices: [{ amountType: "fixed", priceAmount: 1000, priceCurrency: "eur" }],
    });
    const clocks = testClocks(api.url, token);
    // The customer's own address: a checkout does not copy its address onto an existing customer.
    const customer = await polar.customers.create({
      email: `buyer-${randomUUID().slice(0, 8)}@example.com`,
      name: "Buyer",
      billingAddress: { country: "FR" },
    });
    const clock = await clocks.call("POST", "", { name: "tax", frozen_time: at });
    const clockId = String(clock.json.id);
    expect((await clocks.call("POST", `${clockId}/customers`, { customer_id: customer.id })).status).toBe(200);
    const checkout = await polar.checkouts.create({ products: [product.id], customerId: customer.id });
    const anon = new Polar({ serverURL: api.url });
    await anon.checkouts.clientUpdate({
      clientSecret: checkout.clientSecret,
      checkoutUpdatePublic: { customerBillingAddress: { country: "FR" } },
    });
    await anon.checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: { customerBillingAddress: { country: "FR" }, confirmationTokenId: "tok_sandbox_success" },
    });
    const [sub] = (await polar.subscriptions.list({ customerId: customer.id })).result.items;
    const newestOrder = () => api.knex("orders").where({ subscription_id: sub.id }).orderBy("created_at", "desc").first();
    return { polar, call, settings, clocks, clockId, customer, sub, newestOrder };
  }

  it("follows the customer's address, tax id and the organization's settings at each renewal", async () => {
    const { polar, call, settings, clocks, clockId, customer, sub, newestOrder } = await subscribed("2028-01-10T10:00:00Z");

    /** The newest order of the subscription, as the client reads it, with the additions and the transaction. */
    const newest = async () => {
      const row = await newestOrder();
      const order = await polar.orders.get({ id: row.id });
      const wire = (await call("GET", `/v1/orders/${row.id}`)).body;
      return {
        reason: order.billingReason,
        status: order.status,
        amounts: [order.subtotalAmount, order.taxAmount, order.totalAmount],
        lineTax: order.items.map((i) => i.taxAmount),
        rate: wire.tax_rate,
        taxability: wire.taxability_reason,
        recorded: row.tax_transaction_id,
      };
    };
    // The checkout's order: French VAT.
    expect(await newest()).toMatchObject({ reason: "subscription_create", amounts: [1000, 200, 1200], taxability: "standard_rated" });

    // Moved to Germany: Germany's 19%, not the checkout's 20%.
    await polar.customers.update({ id: customer.id, customerUpdate: { billingAddress: { country: "DE" } } });
    await clocks.advance(clockId, "2028-02-11T00:00:00Z");
    const de = await newest();
    expect(de).toMatchObject({
      reason: "subscription_cycle",
      status: "paid",
      amounts: [1000, 190, 1190],
      lineTax: [190],
      taxability: "standard_rated",
      rate: { basis_points: 1900, country: "DE", display_name: "VAT 19% (Germany)" },
    });
    expect(de.recorded).toMatch(/^builtin:/);

    // A German VAT id added: reverse charge.
    await polar.customers.update({ id: customer.id, customerUpdate: { taxId: ["DE136695976", "eu_vat"] } });
    await clocks.advance(clockId, "2028-03-11T00:00:00Z");
    expect(await newest()).toMatchObject({ status: "paid", amounts: [1000, 0, 1000], lineTax: [0], taxability: "reverse_charge" });

    // The VAT id removed, prices now include tax: the total stays the listed price, the tax carved out.
    await polar.customers.update({ id: customer.id, customerUpdate: { taxId: null } });
    expect((await settings({ ...FR_SELLER, prices_include_tax: true })).status).toBe(200);
    await clocks.advance(clockId, "2028-04-11T00:00:00Z");
    expect(await newest()).toMatchObject({ status: "paid", amounts: [840, 160, 1000], lineTax: [160], taxability: "standard_rated" });

    // The provider `none`: nothing is computed.
    expect((await settings({ ...FR_SELLER, provider: "none" })).status).toBe(200);
    await clocks.advance(clockId, "2028-05-11T00:00:00Z");
    expect(await newest()).toMatchObject({
      status: "paid",
      amounts: [1000, 0, 1000],
      lineTax: [0],
      rate: null,
      taxability: null,
      recorded: null,
    });
    // The payments charged what the orders say.
    const paid = await api
      .knex("payments")
      .join("orders", "orders.id", "payments.order_id")
      .where("orders.subscription_id", sub.id)
      .orderBy("payments.created_at")
      .pluck("payments.amount");
    expect(paid.map(Number)).toEqual([1200, 1190, 1000, 1000, 1000]);
  });

  it("taxes a plan change's invoice: the credit and the charge, each line at the customer's rate", async () => {
    const { polar, clocks, clockId, sub, newestOrder } = await subscribed("2028-01-01T00:00:00Z");
    const pro = await polar.products.create({
      name: "Pro",
      recurringInterval: "month",
      prices: [{ amountType: "fixed", priceAmount: 3000, priceCurrency: "eur" }],
    });
    await clocks.advance(clockId, "2028-01-16T12:00:00Z"); // half of the 31-day period left
    await polar.subscriptions.update({ id: sub.id, subscriptionUpdate: { productId: pro.id, prorationBehavior: "invoice" } });
    const update = await newestOrder();
    expect(update.billing_reason).toBe("subscription_update");
    const items = await api.knex("order_items").where({ order_id: update.id }).orderBy("position");
    expect(items.map((i) => [Number(i.amount), Number(i.tax_amount)])).toEqual([
      [-500, -100],
      [1500, 300],
    ]);
    await expect.poll(async () => (await polar.orders.get({ id: update.id })).status, { timeout: 20_000, interval: 100 }).toBe("paid");
    const order = await polar.orders.get({ id: update.id });
    expect([order.subtotalAmount, order.taxAmount, order.totalAmount]).toEqual([1000, 200, 1200]);
    expect((await newestOrder()).tax_transaction_id).toBe(`builtin:${update.id}`);
  });

  it("records a declined renewal's tax only once it is paid, on its retry", async () => {
    const { polar, clocks, clockId, customer, newestOrder } = await subscribed("2028-07-01T12:00:00Z");
    await api.knex("payment_methods").where({ customer_id: customer.id }).update({ processor_ref: "pm_sandbox_4000000000009995_nofunds" });
    await clocks.advance(clockId, "2028-08-01T13:00:00Z");
    const owed = await newestOrder();
    expect([owed.billing_reason, owed.status, Number(owed.tax_amount), owed.tax_transaction_id]).toEqual([
      "subscription_cycle",
      "pending",
      200,
      null,
    ]);
    await api
      .knex("payment_methods")
      .where({ customer_id: customer.id })
      .update({ processor_ref: `pm_sandbox_4242424242424242_${customer.id.slice(0, 8)}` });
    await clocks.advance(clockId, "2028-08-03T13:00:00Z");
    const paid = await polar.orders.get({ id: owed.id });
    expect([paid.status, paid.taxAmount, paid.totalAmount]).toEqual(["paid", 200, 1200]);
    expect((await newestOrder()).tax_transaction_id).toBe(`builtin:${owed.id}`);
  });
});
