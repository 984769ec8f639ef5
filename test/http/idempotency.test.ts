// Idempotency-Key (docs/RELIABILITY.md): the duplicates the issue found (a refund, a product, a
// checkout created twice; 10 parallel POSTs making 10 products), replays with
// Idempotent-Replayed, the 422 for a key reused on another request, the 409 while the first
// request holds the key, nothing stored for a validation failure, keys over 255 characters, the
// answer encrypted at rest, and the checkout confirm, which writes its answer in its own steps.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Polar } from "@polar-sh/sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "../../server/kit/auth.js";
import { lock, requestKey } from "../../server/kit/idempotency.js";
import { deleteExpiredKeys } from "../../server/kit/idempotency-repository.js";
import {
  createCheckoutProduct,
  createCustomer,
  createDiscount,
  createOrder,
  createPayment,
  createProductWithPrice,
  orgWithToken,
  useTestApi,
} from "../harness/index.js";

const api = useTestApi();

interface Sent {
  status: number;
  body: unknown;
  replayed: boolean;
}

describe("Idempotency-Key in the contract", () => {
  it("is an optional header of every POST, PATCH and DELETE under /v1 but OAuth2's", () => {
    const spec = JSON.parse(readFileSync(new URL("../../generated/openapi.json", import.meta.url), "utf8"));
    const writes: string[] = [];
    for (const [path, item] of Object.entries<Record<string, { operationId: string; parameters?: { $ref?: string }[] }>>(spec.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (!["post", "patch", "delete"].includes(method) || path.startsWith("/v1/oauth2/")) continue;
        writes.push(op.operationId);
        expect(op.parameters ?? [], op.operationId).toContainEqual({ $ref: "#/components/parameters/IdempotencyKey" });
      }
    }
    expect(writes.length).toBeGreaterThan(60);
    expect(spec.components.parameters.IdempotencyKey).toMatchObject({ in: "header", required: false, schema: { maxLength: 255 } });
  });
});

describe("Idempotency-Key", () => {
  let token: string;
  let orgId: string;
  let polar: Polar;

  async function send(method: string, path: string, body: unknown, key: string | null, bearer: string | null = token): Promise<Sent> {
    const res = await fetch(api.url + path, {
      method,
      headers: {
        "content-type": "application/json",
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
        ...(key !== null ? { "idempotency-key": key } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null, replayed: res.headers.get("idempotent-replayed") === "true" };
  }

  const productBody = (name: string) => ({ name, prices: [{ amount_type: "fixed", price_amount: 1000, price_currency: "usd" }] });
  const products = (name: string) => api.knex("products").where({ organization_id: orgId, name });

  beforeAll(async () => {
    const made = await orgWithToken(api.knex);
    token = made.token;
    orgId = made.org.id;
    polar = api.client(token);
  });

  it("creates one refund for a refund sent twice with one key, and replays the first answer", async () => {
    const customer = await createCustomer(api.knex, orgId);
    const { product } = await createProductWithPrice(api.knex, orgId);
    const order = await createOrder(
      api.knex,
      orgId,
      { customerId: customer.id, productId: product.id },
      { subtotal_amount: 1000, tax_amount: 0 },
    );
    await createPayment(api.knex, orgId, { order_id: order.id, amount: 1000 });
    const key = randomUUID();
    const body = { order_id: order.id, reason: "other", amount: 1 };
    const first = await send("POST", "/v1/refunds/", body, key);
    const second = await send("POST", "/v1/refunds/", body, key);
    expect(first.status).toBe(201);
    expect(first.replayed).toBe(false);
    expect(second).toEqual({ status: 201, body: first.body, replayed: true });
    expect(await api.knex("refunds").where({ order_id: order.id })).toHaveLength(1);
    expect((await polar.orders.get({ id: order.id })).refundedAmount).toBe(1);
    // Another key is another refund.
    expect((await send("POST", "/v1/refunds/", body, randomUUID())).status).toBe(201);
    expect(await api.knex("refunds").where({ order_id: order.id })).toHaveLength(2);
  });

  it("creates one product for 10 parallel POSTs with one key: the others wait for nothing (409) or replay it", async () => {
    const key = randomUUID();
    const name = `Parallel ${key}`;
    const answers = await Promise.all(Array.from({ length: 10 }, () => send("POST", "/v1/products/", productBody(name), key)));
    expect(await products(name)).toHaveLength(1);
    const created = answers.filter((a) => a.status === 201);
    expect(created.filter((a) => !a.replayed)).toHaveLength(1);
    for (const a of answers) {
      if (a.status === 201) expect(a.body).toEqual(created[0].body);
      else expect(a).toMatchObject({ status: 409, body: { error: "IdempotencyKeyInUse" }, replayed: false });
    }
    // Once the first has answered, every retry replays it.
    const again = await send("POST", "/v1/products/", productBody(name), key);
    expect(again).toEqual({ status: 201, body: created[0].body, replayed: true });
    expect(await products(name)).toHaveLength(1);
  });

  it("creates one checkout for a checkout create sent twice with one key (the official client's call)", async () => {
    const { product } = await createCheckoutProduct(api.knex, orgId);
    const key = randomUUID();
    const options = { headers: { "Idempotency-Key": key } };
    const a = await polar.checkouts.create({ products: [product.id] }, options);
    const b = await polar.checkouts.create({ products: [product.id] }, options);
    expect(b.id).toBe(a.id);
    expect(b.clientSecret).toBe(a.clientSecret);
    expect(await api.knex("checkouts").where({ organization_id: orgId, product_id: product.id })).toHaveLength(1);
  });

  it("refuses a key reused for another request with a 422 and does nothing", async () => {
    const key = randomUUID();
    expect((await send("POST", "/v1/products/", productBody(`First ${key}`), key)).status).toBe(201);
    const other = await send("POST", "/v1/products/", productBody(`Second ${key}`), key);
    expect(other.status).toBe(422);
    expect(other.body).toEqual({
      detail: [expect.objectContaining({ loc: ["header", "idempotency-key"], type: "idempotency_key_reused" })],
    });
    expect(await products(`Second ${key}`)).toHaveLength(0);
    // Another path with the key is another request too.
    const customer = await send("POST", "/v1/customers/", { email: `${key}@example.com` }, key);
    expect(customer.status).toBe(422);
    expect(await api.knex("customers").where({ organization_id: orgId, email: `${key}@example.com` })).toHaveLength(0);
  });

  it("answers 409 and writes nothing while another request holds the key", async () => {
    const key = randomUUID();
    const name = `Held ${key}`;
    const held = requestKey(`organization:${orgId}`, key, "products:create", {
      method: "POST",
      path: "/v1/products/",
      query: "",
      body: productBody(name),
    });
    const trx = await api.knex.transaction();
    try {
      await lock(trx, held);
      const busy = await send("POST", "/v1/products/", productBody(name), key);
      expect(busy).toMatchObject({ status: 409, body: { error: "IdempotencyKeyInUse", detail: expect.any(String) } });
      expect(await products(name)).toHaveLength(0);
    } finally {
      await trx.rollback(new Error("released"));
    }
    // Nothing was stored for the refused request: the key runs now.
    expect((await send("POST", "/v1/products/", productBody(name), key)).status).toBe(201);
    expect(await products(name)).toHaveLength(1);
  });

  it("stores nothing for a request that fails validation; keys over 255 characters are a 422", async () => {
    const key = randomUUID();
    const bad = await send("POST", "/v1/products/", { name: "No prices" }, key);
    expect(bad.status).toBe(422);
    const name = `Valid ${key}`;
    const good = await send("POST", "/v1/products/", productBody(name), key);
    expect(good).toMatchObject({ status: 201, replayed: false });
    // A refusal by the service itself (a 422 it finds) stores nothing either.
    const key2 = randomUUID();
    const taken = await send("POST", "/v1/customers/", { email: "not-an-email" }, key2);
    expect(taken.status).toBe(422);
    expect((await send("POST", "/v1/customers/", { email: `${key2}@example.com` }, key2)).status).toBe(201);

    const long = await send("POST", "/v1/products/", productBody(`Long ${key}`), "k".repeat(256));
    expect(long.status).toBe(422);
    expect(JSON.stringify(long.body)).toContain("idempotency-key");
    expect(await products(`Long ${key}`)).toHaveLength(0);
    expect((await send("POST", "/v1/products/", productBody(`Max ${key}`), "k".repeat(255))).status).toBe(201);
  });

  it("replays a typed refusal (404) and a 204, and keeps keys apart per caller", async () => {
    const key = randomUUID();
    const missing = `/v1/products/${randomUUID()}`;
    const first = await send("PATCH", missing, { name: "x" }, key);
    expect(first).toMatchObject({ status: 404, replayed: false });
    expect(await send("PATCH", missing, { name: "x" }, key)).toEqual({ ...first, replayed: true });

    const customer = await createCustomer(api.knex, orgId);
    const delKey = randomUUID();
    expect(await send("DELETE", `/v1/customers/${customer.id}`, undefined, delKey)).toEqual({ status: 204, body: null, replayed: false });
    expect(await send("DELETE", `/v1/customers/${customer.id}`, undefined, delKey)).toEqual({ status: 204, body: null, replayed: true });
    // Without the key, the customer is gone.
    expect((await send("DELETE", `/v1/customers/${customer.id}`, undefined, null)).status).toBe(404);

    // The same key from another organization is its own.
    const other = await orgWithToken(api.knex);
    const shared = randomUUID();
    const mine = await send("POST", "/v1/products/", productBody(`Mine ${shared}`), shared);
    const theirs = await send("POST", "/v1/products/", productBody(`Mine ${shared}`), shared, other.token);
    expect([mine.status, mine.replayed, theirs.status, theirs.replayed]).toEqual([201, false, 201, false]);
  });

  it("keeps answers that carry a token encrypted, and replays the same token", async () => {
    const customer = await createCustomer(api.knex, orgId);
    const key = randomUUID();
    const first = await send("POST", "/v1/customer-sessions/", { customer_id: customer.id }, key);
    const again = await send("POST", "/v1/customer-sessions/", { customer_id: customer.id }, key);
    expect(first.status).toBe(201);
    const sessionToken = (first.body as { token: string }).token;
    expect(again).toEqual({ ...first, replayed: true });
    expect(await api.knex("customer_sessions").where({ customer_id: customer.id })).toHaveLength(1);
    const rows = await api.knex("idempotency_keys").where({ scope: `organization:${orgId}`, operation: "customer-sessions:create" });
    expect(rows).toHaveLength(1);
    expect(rows[0].key_hash).not.toContain(key);
    expect(Buffer.from(rows[0].answer).toString("latin1")).not.toContain(sessionToken);
  });

  it("forgets an answer after 24 hours: the key runs again, and the worker's cleanup deletes the row", async () => {
    const key = randomUUID();
    const name = `Expired ${key}`;
    expect((await send("POST", "/v1/products/", productBody(name), key)).status).toBe(201);
    await api
      .knex("idempotency_keys")
      .where({ scope: `organization:${orgId}` })
      .whereRaw("created_at > now() - interval '1 minute'")
      .update({ expires_at: api.knex.raw("now() - interval '1 second'") });
    expect(await send("POST", "/v1/products/", productBody(name), key)).toMatchObject({ status: 201, replayed: false });
    expect(await products(name)).toHaveLength(2);
    await api
      .knex("idempotency_keys")
      .where({ scope: `organization:${orgId}` })
      .update({ expires_at: api.knex.raw("now() - interval '1 second'") });
    expect(await deleteExpiredKeys(api.knex)).toBeGreaterThan(0);
    expect(await api.knex("idempotency_keys").where({ scope: `organization:${orgId}` })).toHaveLength(0);
  });

  describe("checkout confirm (its answer written by the confirm's own transactions)", () => {
    let anon: Polar;
    let product: { id: string };
    const confirmBody = (email: string) => ({
      customer_email: email,
      customer_billing_address: { country: "FR" },
      confirmation_token_id: "tok_sandbox_success",
    });
    const confirmPath = (secret: string) => `/v1/checkouts/client/${secret}/confirm`;

    beforeAll(async () => {
      anon = new (polar.constructor as new (o: { serverURL: string }) => Polar)({ serverURL: api.url });
      product = (await createCheckoutProduct(api.knex, orgId, { name: "Confirmed once" })).product;
    });

    it("charges once and replays the confirmed checkout, session token included", async () => {
      const checkout = await polar.checkouts.create({ products: [product.id] });
      const key = randomUUID();
      const first = await send("POST", confirmPath(checkout.clientSecret), confirmBody("once@example.com"), key, null);
      expect(first).toMatchObject({ status: 200, replayed: false, body: { status: "confirmed" } });
      const again = await send("POST", confirmPath(checkout.clientSecret), confirmBody("once@example.com"), key, null);
      expect(again).toEqual({ ...first, replayed: true });
      expect(await api.knex("orders").where({ checkout_id: checkout.id })).toHaveLength(1);
      expect(await api.knex("payments").where({ checkout_id: checkout.id })).toHaveLength(1);
      const sessionToken = (first.body as { customer_session_token: string }).customer_session_token;
      expect(await api.knex("customer_sessions").where({ token_hash: hashToken(sessionToken) })).toHaveLength(1);
      // Without the key a second confirm is refused as before: the checkout is not open.
      expect((await send("POST", confirmPath(checkout.clientSecret), confirmBody("once@example.com"), null, null)).status).toBe(403);
      // The official client's confirm with the key (it sends no such header by itself).
      const other = await polar.checkouts.create({ products: [product.id] });
      const options = { headers: { "Idempotency-Key": key } };
      const call = () =>
        anon.checkouts.clientConfirm(
          {
            clientSecret: other.clientSecret,
            checkoutConfirmStripe: {
              customerEmail: "sdk@example.com",
              customerBillingAddress: { country: "FR" },
              confirmationTokenId: "tok_sandbox_success",
            },
          },
          options,
        );
      const viaSdk = await call();
      expect((await call()).customerSessionToken).toBe(viaSdk.customerSessionToken);
    });

    it("makes one order of 8 parallel confirms with one key; a decline is replayed too", async () => {
      const checkout = await polar.checkouts.create({ products: [product.id] });
      const key = randomUUID();
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => send("POST", confirmPath(checkout.clientSecret), confirmBody("race@example.com"), key, null)),
      );
      expect(await api.knex("orders").where({ checkout_id: checkout.id })).toHaveLength(1);
      const ok = answers.filter((a) => a.status === 200);
      expect(ok.filter((a) => !a.replayed)).toHaveLength(1);
      for (const a of answers) {
        if (a.status === 200) expect(a.body).toEqual(ok[0].body);
        else expect(a).toMatchObject({ status: 409, body: { error: "IdempotencyKeyInUse" } });
      }

      const declined = await polar.checkouts.create({ products: [product.id] });
      const declineKey = randomUUID();
      const body = { ...confirmBody("decline@example.com"), confirmation_token_id: "tok_sandbox_decline" };
      const first = await send("POST", confirmPath(declined.clientSecret), body, declineKey, null);
      expect(first).toMatchObject({ status: 400, body: { error: "PaymentError" } });
      expect(await send("POST", confirmPath(declined.clientSecret), body, declineKey, null)).toEqual({ ...first, replayed: true });
      expect(await api.knex("payments").where({ checkout_id: declined.id })).toHaveLength(1);
    });

    it("stores nothing when the confirm is refused for a total that moved (422), so the key confirms after a new view", async () => {
      const checkout = await polar.checkouts.create({ products: [product.id] });
      const code = `GONE${Date.now()}`;
      const discount = await createDiscount(api.knex, orgId, { code, type: "fixed", amount: 100, currency: "usd", basis_points: null });
      await anon.checkouts.clientUpdate({ clientSecret: checkout.clientSecret, checkoutUpdatePublic: { discountCode: code } });
      await polar.discounts.delete({ id: discount.id });
      const key = randomUUID();
      const refused = await send("POST", confirmPath(checkout.clientSecret), confirmBody("moved@example.com"), key, null);
      expect(refused.status).toBe(422);
      expect(await api.knex("idempotency_keys").where({ subject: `checkout:${checkout.id}` })).toHaveLength(0);
      // The refusal saved the new total; the buyer's next view shows it, and the same key confirms.
      await anon.checkouts.clientGet({ clientSecret: checkout.clientSecret });
      const ok = await send("POST", confirmPath(checkout.clientSecret), confirmBody("moved@example.com"), key, null);
      expect(ok).toMatchObject({ status: 200, replayed: false, body: { total_amount: 2500 } });
    });
  });
});
