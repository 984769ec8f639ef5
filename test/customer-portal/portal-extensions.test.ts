// The customer portal's own additions: per-organization section switches (customer_portal_settings,
// honoured by every portal call of a section), the proration preview of a plan change (what the
// change then charges), and choosing the default card (live subscriptions move to it, so the old
// one can be removed). Settings are read and written with plain JSON: the official client does
// not know the field.
import { Polar } from "@polar-sh/sdk";
import { ResponseValidationError } from "@polar-sh/sdk/models/errors/responsevalidationerror.js";
import { SDKError } from "@polar-sh/sdk/models/errors/sdkerror.js";
import { beforeAll, describe, expect, it } from "vitest";
import { createCustomerSessionToken, orgWithToken, outboxTypes, rejects, useTestApi } from "../harness/index.js";

const api = useTestApi();

describe("customer portal extensions", () => {
  let polar: Polar;
  let token: string;
  let orgId: string;
  let basic: { id: string };
  let pro: { id: string };
  const anon = () => new Polar({ serverURL: api.url });

  async function json(method: string, path: string, body?: unknown, bearer = token) {
    const res = await fetch(`${api.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  /** A customer subscribed to `productId` through the hosted checkout, with a portal session. */
  async function subscriber(email: string, productId = basic.id) {
    const checkout = await polar.checkouts.create({ products: [productId], customerEmail: email });
    await anon().checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: { customerBillingAddress: { country: "FR" }, confirmationTokenId: "tok_sandbox_success" },
    });
    const [sub] = (await polar.subscriptions.list({ productId })).result.items.filter((s) => s.customer.email === email);
    return { sub, session: await createCustomerSessionToken(api.knex, sub.customerId) };
  }

  beforeAll(async () => {
    const made = await orgWithToken(api.knex);
    token = made.token;
    orgId = made.org.id;
    polar = api.client(token);
    basic = await polar.products.create({
      name: "Basic",
      recurringInterval: "month",
      prices: [{ amountType: "fixed", priceAmount: 1000, priceCurrency: "usd" }],
    });
    pro = await polar.products.create({
      name: "Pro",
      recurringInterval: "month",
      prices: [{ amountType: "fixed", priceAmount: 3000, priceCurrency: "usd" }],
    });
  });

  it("switches portal sections off per organization, and the portal calls of a section answer 403 NotPermitted", async () => {
    const read = await json("GET", `/v1/organizations/${orgId}`);
    expect(read.body.customer_portal_settings).toEqual({
      orders: true,
      subscriptions: true,
      benefits: true,
      usage: { show: true },
      payment_methods: true,
      billing_details: true,
      subscription: { update_seats: true, update_plan: true },
      customer: { allow_email_change: false },
    });
    const { session } = await subscriber("sections@example.com");
    const portal = anon().customerPortal;
    const auth = { customerSession: session };

    const patched = await json("PATCH", `/v1/organizations/${orgId}`, {
      customer_portal_settings: { orders: false, billing_details: false },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.customer_portal_settings).toMatchObject({
      orders: false,
      billing_details: false,
      subscriptions: true,
      payment_methods: true,
    });
    expect(await outboxTypes(api.knex, orgId)).toContain("organization.updated");
    // The storefront the portal reads says so too.
    const storefront = await json("GET", `/v1/customer-portal/organizations/${(await polar.organizations.get({ id: orgId })).slug}`);
    expect((storefront.body.organization as Record<string, unknown>).customer_portal_settings).toMatchObject({ orders: false });

    const denied = await json("GET", "/v1/customer-portal/orders/", undefined, session);
    expect(denied).toEqual({
      status: 403,
      body: { error: "NotPermitted", detail: "Orders are not available in this organization's customer portal." },
    });
    const err = await rejects(portal.orders.list(auth, {}), SDKError);
    expect(err.statusCode).toBe(403);
    expect((await json("PATCH", "/v1/customer-portal/customers/me", { billing_name: "X" }, session)).status).toBe(403);
    // Other sections, and the customer's own record, still answer.
    expect((await portal.subscriptions.list(auth, {})).result.items).toHaveLength(1);
    expect((await portal.customers.get(auth)).email).toBe("sections@example.com");

    await json("PATCH", `/v1/organizations/${orgId}`, { customer_portal_settings: { orders: true, billing_details: true } });
    expect((await portal.orders.list(auth, {})).result.items).toHaveLength(1);
    expect((await json("PATCH", `/v1/organizations/${orgId}`, { customer_portal_settings: { orders: "no" } })).status).toBe(422);

    // Usage is switched as a boolean (as the console does) or as `{ show }` (as the newest clients do).
    const meters = async () => (await json("GET", "/v1/customer-portal/meters/", undefined, session)).status;
    expect(await meters()).toBe(200);
    let usage = await json("PATCH", `/v1/organizations/${orgId}`, { customer_portal_settings: { usage: false } });
    expect(usage.body.customer_portal_settings).toMatchObject({ usage: { show: false } });
    expect(await meters()).toBe(403);
    usage = await json("PATCH", `/v1/organizations/${orgId}`, { customer_portal_settings: { usage: { show: true } } });
    expect(usage.body.customer_portal_settings).toMatchObject({ usage: { show: true }, orders: true });
    expect(await meters()).toBe(200);
  });

  it("lets customers change plan in the portal only while the organization's update_plan allows it", async () => {
    const { sub, session } = await subscriber("update-plan@example.com");
    const off = await json("PATCH", `/v1/organizations/${orgId}`, {
      customer_portal_settings: { subscription: { update_plan: false, update_seats: false } },
    });
    expect(off.body).toMatchObject({
      allow_customer_updates: false,
      subscription_settings: { allow_customer_updates: false },
      customer_portal_settings: { subscription: { update_plan: false, update_seats: false } },
    });
    const change = { id: sub.id, customerSubscriptionUpdate: { productId: pro.id } };
    // Polar's 403, which the client has no model for on this call.
    const refused = await rejects(
      anon().customerPortal.subscriptions.update({ customerSession: session }, change),
      ResponseValidationError,
    );
    expect([refused.statusCode, JSON.parse(refused.body)]).toEqual([
      403,
      { error: "UpdateSubscriptionPlanNotAllowed", detail: "Updating subscription plan is not allowed." },
    ]);
    expect((await polar.subscriptions.get({ id: sub.id })).productId).toBe(basic.id);

    const on = await json("PATCH", `/v1/organizations/${orgId}`, { customer_portal_settings: { subscription: { update_plan: true } } });
    expect(on.body).toMatchObject({
      allow_customer_updates: true,
      customer_portal_settings: { subscription: { update_plan: true, update_seats: false } },
    });
    await anon().customerPortal.subscriptions.update({ customerSession: session }, change);
    expect((await polar.subscriptions.get({ id: sub.id })).productId).toBe(pro.id);
  });

  it("previews a plan change with exactly the proration the change then records", async () => {
    const { sub, session } = await subscriber("preview@example.com");
    const preview = await json("GET", `/v1/customer-portal/subscriptions/${sub.id}/preview?product_id=${pro.id}`, undefined, session);
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({
      subscription_id: sub.id,
      product_id: pro.id,
      currency: "usd",
      amount: 3000,
      recurring_interval: "month",
      proration_behavior: "prorate",
      due_now: 0,
    });
    const lines = preview.body.lines as { label: string; amount: number }[];
    expect(lines.map((l) => l.label)).toEqual(["Unused time on Basic", "Remaining time on Pro"]);
    expect(preview.body.net_amount).toBe(lines[0].amount + lines[1].amount);
    // Nothing changed.
    expect((await polar.subscriptions.get({ id: sub.id })).productId).toBe(basic.id);

    await anon().customerPortal.subscriptions.update(
      { customerSession: session },
      { id: sub.id, customerSubscriptionUpdate: { productId: pro.id } },
    );
    const row = await api.knex("subscriptions").where({ id: sub.id }).first();
    const recorded = (row.pending_prorations as { amount: number }[]).reduce((n, l) => n + Number(l.amount), 0);
    // The period moved on by the seconds between the two calls at most: a cent or two on a month.
    expect(Math.abs(recorded - (preview.body.net_amount as number))).toBeLessThanOrEqual(2);

    const bad = await json("GET", `/v1/customer-portal/subscriptions/${sub.id}/preview?product_id=${pro.id}`, undefined, session);
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({
      detail: [{ loc: ["query", "product_id"], msg: "The subscription is already on this product.", type: "value_error", input: pro.id }],
    });
    expect((await json("GET", `/v1/customer-portal/subscriptions/${sub.id}/preview?product_id=nope`, undefined, session)).status).toBe(422);
    expect(
      (
        await json(
          "GET",
          `/v1/customer-portal/subscriptions/00000000-0000-0000-0000-000000000000/preview?product_id=${pro.id}`,
          undefined,
          session,
        )
      ).status,
    ).toBe(404);
  });

  it("makes a saved card the default: live subscriptions move to it and the old card can go", async () => {
    const { sub, session } = await subscriber("cards@example.com");
    const portal = anon().customerPortal;
    const auth = { customerSession: session };
    const first = (await portal.customers.listPaymentMethods(auth, {})).result.items[0];
    const second = await portal.customers.addPaymentMethod(auth, {
      confirmationTokenId: "5555555555554444",
      setDefault: false,
      returnUrl: "https://example.com/back",
    });
    expect((await portal.customers.get(auth)).defaultPaymentMethodId).toBe(first.id);
    // The first card pays the subscription: it can't be removed yet.
    expect((await rejects(portal.customers.deletePaymentMethod(auth, { id: first.id }), Error)).message).toMatch(/active subscription/);

    const made = await json("POST", `/v1/customer-portal/customers/me/payment-methods/${second.id}/default`, undefined, session);
    expect(made.status).toBe(200);
    expect(made.body.default_payment_method_id).toBe(second.id);
    expect((await api.knex("subscriptions").where({ id: sub.id }).first()).payment_method_id).toBe(second.id);
    await portal.customers.deletePaymentMethod(auth, { id: first.id });
    expect((await portal.customers.listPaymentMethods(auth, {})).result.items.map((m) => m.id)).toEqual([second.id]);

    expect((await json("POST", `/v1/customer-portal/customers/me/payment-methods/${first.id}/default`, undefined, session)).status).toBe(
      404,
    );
    // Another customer's card is not found either.
    const other = await subscriber("other-cards@example.com");
    expect(
      (await json("POST", `/v1/customer-portal/customers/me/payment-methods/${second.id}/default`, undefined, other.session)).status,
    ).toBe(404);
  });
});
