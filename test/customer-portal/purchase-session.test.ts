// The session a checkout's confirm returns shows that purchase alone. A stranger who pays with an
// existing customer's email (any letter case, plus-addressed, or a Unicode lookalike) sees their
// own order, grants and license key, and none of the customer's other data; every other portal
// operation answers 403. An emailed code or a merchant's session still opens the whole portal.
import { randomUUID } from "node:crypto";
import type { Polar } from "@polar-sh/sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { operations } from "../../generated/operations.js";
import {
  createBenefit,
  createCheckoutProduct,
  invalid,
  latestMail,
  orgWithToken,
  useLifecycleWorker,
  useTestApi,
} from "../harness/index.js";
import { sleep } from "../../server/kit/time.js";

const api = useTestApi();
useLifecycleWorker("purchase-session", () => api.knex);

const VICTIM = "victim.owner@example.com";
const VARIANTS = {
  "another letter case": "Victim.OWNER@Example.com",
  "plus-addressed": "victim.owner+shop@example.com",
  "a Unicode lookalike (Cyrillic і)": "v\u0456ctim.owner@example.com",
};

/** What a purchase's session may call; every other customer-session operation answers 403. */
const SESSION = "customer_portal:customer-session:introspect";
const SCOPED = new Set([
  SESSION,
  "customer_portal:orders:list",
  "customer_portal:orders:get",
  "customer_portal:orders:invoice",
  "customer_portal:orders:generate_invoice",
  "customer_portal:orders:get_payment_status",
  "customer_portal:subscriptions:list",
  "customer_portal:subscriptions:get",
  "customer_portal:benefit-grants:list",
  "customer_portal:benefit-grants:get",
  "customer_portal:benefit-grants:update",
  "customer_portal:downloadables:list",
  "customer_portal:license_keys:list",
  "customer_portal:license_keys:get",
]);

/** A body each writing operation would accept from the customer it belongs to. */
const BODIES: Record<string, unknown> = {
  "customer_portal:customers:update": { billing_name: "Taken Over" },
  "customer_portal:customers:add_payment_method": {
    confirmation_token_id: "tok_sandbox_success",
    set_default: true,
    return_url: "https://example.com/back",
  },
  "customer_portal:orders:update": { billing_name: "Taken Over", billing_address: { country: "FR" } },
  "customer_portal:orders:confirm_retry_payment": { confirmation_token_id: "tok_sandbox_success" },
  "customer_portal:subscriptions:update": { cancel_at_period_end: true },
  "customer_portal:benefit-grants:update": { benefit_type: "license_keys" },
};

const poll = { timeout: 30_000, interval: 200 };

describe("a checkout's customer session", () => {
  let merchant: Polar;
  let anon: Polar;
  let oneTime: { id: string };
  let monthly: { id: string };
  const victim = {} as {
    customerId: string;
    order: string;
    subscription: string;
    grant: string;
    licenseKey: string;
    paymentMethod: string;
    token: string;
  };

  const buy = async (productId: string, email: string) => {
    const checkout = await merchant.checkouts.create({ products: [productId] });
    const confirmed = await anon.checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: invalid({
        customerEmail: email,
        customerName: "Buyer",
        customerBillingAddress: { country: "FR" },
        confirmationTokenId: "tok_sandbox_success",
      }),
    });
    return { checkoutId: checkout.id, token: confirmed.customerSessionToken };
  };
  const call = (token: string, method: string, path: string, body?: unknown) =>
    fetch(`${api.url}${path}`, {
      method: method.toUpperCase(),
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const items = async (token: string, path: string): Promise<{ id: string; [k: string]: unknown }[]> => {
    const res = await call(token, "get", path);
    expect(res.status, path).toBe(200);
    return (await res.json()).items;
  };
  /** The license key grant of the session's purchase once the worker granted it. */
  const grantedKey = async (token: string) => {
    const deadline = Date.now() + poll.timeout;
    for (;;) {
      const grants = (await items(token, "/v1/customer-portal/benefit-grants/")) as unknown as {
        id: string;
        is_granted: boolean;
        properties: { license_key_id?: string };
      }[];
      const found = grants.find((g) => g.is_granted && g.properties.license_key_id);
      if (found) return found;
      if (Date.now() > deadline) throw new Error("the license key was not granted");
      await sleep(poll.interval);
    }
  };

  beforeAll(async () => {
    const { org, token } = await orgWithToken(api.knex);
    merchant = api.client(token);
    anon = new (merchant.constructor as new (o: { serverURL: string }) => Polar)({ serverURL: api.url });
    const license = await createBenefit(api.knex, org.id, {
      type: "license_keys",
      description: "License",
      properties: JSON.stringify({ prefix: "KIT", expires: null, activations: null, limit_usage: null }),
    });
    oneTime = (await createCheckoutProduct(api.knex, org.id, { name: "Kit" })).product;
    monthly = (await createCheckoutProduct(api.knex, org.id, { name: "Club", recurringInterval: "month" })).product;
    for (const product of [oneTime, monthly]) {
      await merchant.products.updateBenefits({ id: product.id, productBenefitsUpdate: { benefits: [license.id] } });
    }

    // The victim's own history: a purchase, a subscription, a license key, a saved card, an address.
    await buy(oneTime.id, VICTIM);
    const sub = await buy(monthly.id, VICTIM);
    const customer = (await merchant.customers.list({ email: VICTIM })).result.items[0];
    victim.customerId = customer.id;
    await merchant.customers.update({
      id: customer.id,
      customerUpdate: { billingAddress: { country: "FR", line1: "1 rue de la Paix", city: "Paris", postalCode: "75002" } },
    });
    victim.token = (await merchant.customerSessions.create({ customerId: customer.id })).token;
    victim.order = (await items(victim.token, "/v1/customer-portal/orders/"))[0].id;
    victim.subscription = (await items(victim.token, "/v1/customer-portal/subscriptions/"))[0].id;
    const grant = await grantedKey(sub.token);
    victim.grant = grant.id;
    victim.licenseKey = grant.properties.license_key_id!;
    victim.paymentMethod = (await items(victim.token, "/v1/customer-portal/customers/me/payment-methods"))[0].id;
  }, 120_000);

  it("allows only operations the portal has (any other, present or future, answers 403)", () => {
    const all = Object.entries(operations)
      .filter(([, op]) => op.security === "customer_session")
      .map(([id]) => id);
    expect(all.length).toBeGreaterThanOrEqual(26);
    for (const id of SCOPED) expect(all).toContain(id);
  });

  for (const [variant, email] of Object.entries(VARIANTS)) {
    it(`paying with ${variant} of a customer's email shows that purchase and nothing else`, async () => {
      const stranger = await buy(oneTime.id, email);
      const key = await grantedKey(stranger.token);

      // What the purchase bought is there.
      const orders = await items(stranger.token, "/v1/customer-portal/orders/");
      expect(orders.map((o) => o.checkout_id)).toEqual([stranger.checkoutId]);
      const grants = (await items(stranger.token, "/v1/customer-portal/benefit-grants/")) as unknown as { order_id: string }[];
      expect(grants.map((g) => g.order_id)).toEqual([orders[0].id]);
      expect((await items(stranger.token, "/v1/customer-portal/license-keys/")).map((k) => k.id)).toEqual([key.properties.license_key_id]);
      expect((await call(stranger.token, "get", `/v1/customer-portal/license-keys/${key.properties.license_key_id}`)).status).toBe(200);
      expect((await call(stranger.token, "get", `/v1/customer-portal/orders/${orders[0].id}`)).status).toBe(200);
      expect(await items(stranger.token, "/v1/customer-portal/subscriptions/")).toEqual([]);

      // Every operation, aimed at the victim's rows.
      const idFor = (path: string) =>
        path.includes("/orders/")
          ? victim.order
          : path.includes("/subscriptions/")
            ? victim.subscription
            : path.includes("/benefit-grants/")
              ? victim.grant
              : path.includes("/license-keys/")
                ? victim.licenseKey
                : path.includes("/payment-methods/")
                  ? victim.paymentMethod
                  : randomUUID();
      for (const [id, op] of Object.entries(operations)) {
        if (op.security !== "customer_session") continue;
        const path = op.path.replace("{id}", idFor(op.path));
        const res = await call(
          stranger.token,
          op.method,
          path,
          BODIES[id] ?? (op.method === "get" || op.method === "delete" ? undefined : {}),
        );
        const body = res.status === 204 ? null : await res.json();
        if (!SCOPED.has(id)) {
          expect([id, res.status, body?.error]).toEqual([id, 403, "NotPermitted"]);
        } else if (id === SESSION) {
          // The session describes itself: its end and the merchant's link, nothing of the customer's.
          expect([id, res.status, Object.keys(body).sort()]).toEqual([id, 200, ["expires_at", "return_url"]]);
        } else if (path.endsWith("/")) {
          // Lists: only the purchase's rows.
          expect([id, res.status]).toEqual([id, 200]);
          const seen = (body.items as { id: string }[]).map((i) => i.id);
          for (const mine of [victim.order, victim.subscription, victim.grant, victim.licenseKey]) expect(seen, id).not.toContain(mine);
        } else {
          expect([id, res.status]).toEqual([id, 404]);
        }
      }

      // The victim's data is as it was.
      const me = await (await call(victim.token, "get", "/v1/customer-portal/customers/me")).json();
      expect(me.billing_name).not.toBe("Taken Over");
      expect(me.billing_address).toMatchObject({ line1: "1 rue de la Paix" });
      const subscription = await (await call(victim.token, "get", `/v1/customer-portal/subscriptions/${victim.subscription}`)).json();
      expect(subscription).toMatchObject({ status: "active", cancel_at_period_end: false });
      expect((await items(victim.token, "/v1/customer-portal/customers/me/payment-methods")).map((m) => m.id)).toContain(
        victim.paymentMethod,
      );
      const victimOrders = (await items(victim.token, "/v1/customer-portal/orders/")).map((o) => o.id);
      expect(victimOrders).toContain(victim.order);
    }, 60_000);
  }

  it("the emailed code opens the whole portal to whoever owns the inbox", async () => {
    const stranger = await buy(oneTime.id, VICTIM);
    expect((await call(stranger.token, "get", "/v1/customer-portal/customers/me")).status).toBe(403);
    const org = (await merchant.organizations.list({})).result.items[0];
    const request = await fetch(`${api.url}/v1/customer-portal/customer-session/request`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: VICTIM, organization_id: org.id }),
    });
    expect(request.status).toBe(202);
    const mail = await latestMail(VICTIM, { subject: /sign-in code/ });
    const code = /sign-in code: (\w{6})/.exec(mail.subject)![1];
    const signedIn = await fetch(`${api.url}/v1/customer-portal/customer-session/authenticate`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ code }),
    });
    const { token } = await signedIn.json();
    expect((await call(token, "get", "/v1/customer-portal/customers/me")).status).toBe(200);
    const orders = await items(token, "/v1/customer-portal/orders/");
    expect(orders.map((o) => o.id)).toContain(victim.order);
    expect(orders.length).toBeGreaterThanOrEqual(3);
  });
});
