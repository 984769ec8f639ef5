/* eslint-disable @typescript-eslint/no-explicit-any -- walks the JSON contract generically */
// Tenant isolation and permissions, walked over EVERY operation of the contract (generated/
// openapi.json; the ones in server/not-built.ts aside). Each built operation gets the checks its
// security and shape call for, with a request built from its own schemas:
//
// - merchant operations with ids in the path: organization B's token on organization A's ids → 404,
//   and nothing of A's in the answer;
// - merchant operations that take `organization_id` (a filter, or a body field): B's token with A's
//   organization id → nothing of A's (an empty list, or a refusal), nothing created in A;
// - customer portal operations: customer A1's session on customer A2's orders, subscriptions,
//   grants, license keys and payment methods → 404; A1's lists show nothing of A2's;
// - every merchant operation with scopes, called with a token holding none of them → 403;
// - the public operations (client secret, license key, storefront) are each classified below.
//
// An operation that falls in no class, or whose path names a resource this file has no fixture
// for, fails the test: a new operation is covered, or the test says what to add.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { mintOrganizationToken } from "../../server/kit/auth.js";
import { useTestApi } from "../helpers/api.js";
import {
  createBenefit, createBenefitGrant, createCustomer, createCustomerSessionToken, createCustomField, createDiscount, createFile, createLicenseKey,
  createMeter, createOrder, createOrganization, createPayment, createPaymentMethod, createProductWithPrice, createWebhookEndpoint,
} from "../fixtures/factories.js";
import { createSubscriptionFixture } from "../subscriptions/fixtures.js";

const api = useTestApi();
const spec = JSON.parse(readFileSync(new URL("../../generated/openapi.json", import.meta.url), "utf8"));
const REF = "#/components/schemas/";

interface Op {
  id: string;
  method: string;
  path: string;
  security: "access_token" | "customer_session" | "optional_access_token" | "public";
  scopes: string[];
  params: any[];
  body: any | null;
}

const ops: Op[] = [];
for (const [path, item] of Object.entries<any>(spec.paths)) {
  for (const [method, op] of Object.entries<any>(item)) {
    const schemes: string[] = (op.security ?? []).map((s: Record<string, string[]>) => Object.keys(s)[0] ?? "none");
    const security = schemes.includes("customer_session")
      ? "customer_session"
      : schemes.includes("access_token")
        ? schemes.some((s) => s === "none") ? "optional_access_token" : "access_token"
        : "public";
    ops.push({
      id: op.operationId,
      method: method.toUpperCase(),
      path,
      security,
      scopes: op["x-scopes"] ?? [],
      params: (op.parameters ?? []).map((p: any) => (p.$ref ? spec.components.parameters[p.$ref.split("/").pop()] : p)),
      body: op.requestBody?.content?.["application/json"]?.schema ?? null,
    });
  }
}

/** A small instance of a schema: required fields only, first branch of a union, formats honored. */
function sample(s: any, depth = 0): unknown {
  if (!s || depth > 12) return null;
  if (s.$ref) return sample(spec.components.schemas[s.$ref.slice(REF.length)], depth + 1);
  if ("const" in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum.find((v: unknown) => v !== null) ?? null;
  const alts: any[] | undefined = s.oneOf ?? s.anyOf;
  if (alts) return sample(alts.find((a) => a.type !== "null") ?? alts[0], depth + 1);
  if (s.allOf) return Object.assign({}, ...s.allOf.map((x: any) => sample(x, depth + 1)));
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== "null") : s.type;
  switch (type) {
    case "string":
      if (s.format === "email") return `isolation-${randomUUID().slice(0, 8)}@example.com`;
      if (s.format === "uri") return "https://example.com/isolation";
      if (s.format === "date-time") return "2030-01-01T00:00:00Z";
      if (s.format === "date") return "2030-01-01";
      if (s.format === "uuid" || s.format === "uuid4") return randomUUID();
      if (s.pattern === "^[a-zA-Z]{3}$" || s.pattern === "^[a-z]{3}$") return "usd";
      return `x${"x".repeat(Math.max(0, (s.minLength ?? 1) - 1))}`;
    case "integer":
    case "number":
      return Math.min(Math.max(s.minimum ?? 1, 1), s.maximum ?? Number.MAX_SAFE_INTEGER);
    case "boolean":
      return false;
    case "array":
      return Array.from({ length: s.minItems ?? 0 }, () => sample(s.items ?? {}, depth + 1));
    default: {
      const out: Record<string, unknown> = {};
      for (const key of s.required ?? []) out[key] = sample(s.properties?.[key] ?? {}, depth + 1);
      return out;
    }
  }
}

interface Fixtures {
  orgA: string;
  orgB: string;
  tokenA: string;
  tokenB: string;
  /** A token of A holding a scope no operation asks for. */
  scopeless: string;
  /** path resource → A's id; customer-portal resources are customer A2's. */
  ids: Record<string, string>;
  activationId: string;
  externalId: string;
  sessionA1: string;
  sessionA2: string;
  marker: string;
  markerA2: string;
  licenseKey: string;
}

/** The id a path parameter names, for organization A (or customer A2 in the portal). */
function idFor(f: Fixtures, path: string, name: string): string {
  if (name === "activation_id") return f.activationId;
  if (name === "external_id") return f.externalId;
  const rest = path.replace(/^\/v1\//, "").split("/{")[0];
  const id = f.ids[rest];
  if (!id) throw new Error(`no fixture for the resource of ${path} (${rest}): add one to test/contract/isolation.test.ts`);
  return id;
}

function requestOf(f: Fixtures, op: Op, opts: { organizationId?: string } = {}) {
  let path = op.path;
  for (const p of op.params.filter((x) => x.in === "path")) path = path.replace(`{${p.name}}`, encodeURIComponent(idFor(f, op.path, p.name)));
  const query = new URLSearchParams();
  for (const p of op.params.filter((x) => x.in === "query")) {
    if (p.name === "organization_id" && opts.organizationId) query.append(p.name, opts.organizationId);
    else if (p.required) query.append(p.name, String(sample(p.schema)));
  }
  let body = op.body ? (sample(op.body) as Record<string, unknown>) : undefined;
  if (body && opts.organizationId && typeof body === "object" && "organization_id" in (spec.components.schemas[op.body.$ref?.slice(REF.length)]?.properties ?? {})) {
    body = { ...body, organization_id: opts.organizationId };
  }
  return { path: query.size ? `${path}?${query}` : path, body };
}

async function send(op: Op, req: { path: string; body?: unknown }, bearer: string | null) {
  const res = await fetch(api.url + req.path, {
    method: op.method,
    headers: { ...(bearer ? { authorization: `Bearer ${bearer}` } : {}), ...(req.body !== undefined ? { "content-type": "application/json" } : {}) },
    body: req.body === undefined ? undefined : JSON.stringify(req.body),
  });
  return { status: res.status, text: await res.text() };
}

const takesOrganization = (op: Op) =>
  op.params.some((p) => p.in === "query" && p.name === "organization_id") ||
  (op.body?.$ref && "organization_id" in (spec.components.schemas[op.body.$ref.slice(REF.length)]?.properties ?? {}));
const hasIds = (op: Op) => op.params.some((p) => p.in === "path");

/** The public operations and why each is safe without a token. */
const PUBLIC: Record<string, string> = {
  "checkouts:client_get": "the client secret is the credential",
  "checkouts:client_update": "the client secret is the credential",
  "checkouts:client_confirm": "the client secret is the credential",
  "customer_portal:license_keys:validate": "the license key is the credential, scoped by organization_id",
  "customer_portal:license_keys:activate": "the license key is the credential, scoped by organization_id",
  "customer_portal:license_keys:deactivate": "the license key is the credential, scoped by organization_id",
  "customer_portal:organizations:get": "a storefront: the organization's public profile and products",
};

describe("isolation and permissions over every operation", () => {
  let f: Fixtures;
  const covered = new Map<string, string[]>();
  const cover = (op: Op, check: string) => covered.set(op.id, [...(covered.get(op.id) ?? []), check]);

  beforeAll(async () => {
    const k = api.knex;
    const marker = `tenantA${randomUUID().replace(/-/g, "").slice(0, 12)}`;
    const markerA2 = `customerA2${randomUUID().replace(/-/g, "").slice(0, 12)}`;
    const orgA = await createOrganization(k, { name: `Org ${marker}` });
    const orgB = await createOrganization(k);
    const tokenA = await mintOrganizationToken(k, orgA.id);
    const tokenB = await mintOrganizationToken(k, orgB.id);
    const scopeless = await mintOrganizationToken(k, orgA.id, { scopes: ["openid"] });

    const benefit = await createBenefit(k, orgA.id, { description: `Benefit ${marker}` });
    const { product, price } = await createProductWithPrice(k, orgA.id, { name: `Product ${marker}` });
    const externalId = `ext-${marker}`;
    const customer = await createCustomer(k, orgA.id, { name: `Customer ${marker}`, email: `${marker}@example.com`, external_id: externalId });
    const a1 = await createCustomer(k, orgA.id, { name: "Customer A1" });
    const a2 = await createCustomer(k, orgA.id, { name: `Customer ${markerA2}`, email: `${markerA2}@example.com` });
    const order = await createOrder(k, orgA.id, { customerId: customer.id, productId: product.id, productPriceId: price.id }, { billing_name: `Billing ${marker}` });
    const payment = await createPayment(k, orgA.id, { order_id: order.id });
    const orderA2 = await createOrder(k, orgA.id, { customerId: a2.id, productId: product.id }, { billing_name: `Billing ${markerA2}` });
    const sub = await createSubscriptionFixture(k, { startedAt: new Date(), organizationId: orgA.id });
    const subA2 = (await createSubscriptionFixture(k, { startedAt: new Date(), organizationId: orgA.id })).subscription.id;
    await k("subscriptions").where({ id: subA2 }).update({ customer_id: a2.id });
    // Invoices generated, so that their links can be read.
    for (const [n, o] of [order, orderA2].entries()) await k("orders").where({ id: o.id }).update({ is_invoice_generated: true, invoice_number: n + 1, invoice_path: `invoices/${o.id}.pdf` });
    const grantA2 = await createBenefitGrant(k, benefit.id, a2.id, { order_id: orderA2.id });
    const licenseKey = await createLicenseKey(k, orgA.id, { customerId: a2.id });
    const [activation] = await k("license_key_activations").insert({ license_key_id: licenseKey.id, label: `Laptop ${markerA2}` }).returning("id");
    const paymentMethodA2 = await createPaymentMethod(k, orgA.id, a2.id);
    const endpoint = await createWebhookEndpoint(k, orgA.id, { url: `https://example.com/${marker}` });
    const [outbox] = await k("outbox").insert({ organization_id: orgA.id, type: "product.created", payload: JSON.stringify({ type: "product.created", data: { name: marker } }) }).returning("id");
    const [event] = await k("webhook_events")
      .insert({ organization_id: orgA.id, endpoint_id: endpoint.id, outbox_id: outbox.id, type: "product.created", payload: JSON.stringify({ name: marker }), pending: false })
      .returning("id");

    // What the API builds best itself: a checkout link, a checkout, a test clock.
    const asA = (method: string, path: string, body: unknown) =>
      fetch(api.url + path, { method, headers: { authorization: `Bearer ${tokenA}`, "content-type": "application/json" }, body: JSON.stringify(body) }).then(async (r) => {
        expect(r.status, `${method} ${path}`).toBeLessThan(300);
        return (await r.json()) as { id: string };
      });
    const link = await asA("POST", "/v1/checkout-links/", { payment_processor: "stripe", product_id: product.id, label: `Link ${marker}` });
    const checkout = await asA("POST", "/v1/checkouts/", { products: [product.id], metadata: { marker } });
    const clock = await asA("POST", "/v1/test-clocks/", { name: `Clock ${marker}`, frozen_time: "2030-01-01T00:00:00Z" });

    f = {
      orgA: orgA.id,
      orgB: orgB.id,
      tokenA,
      tokenB,
      scopeless,
      marker,
      markerA2,
      externalId,
      activationId: activation.id,
      licenseKey: licenseKey.key,
      sessionA1: await createCustomerSessionToken(k, a1.id),
      sessionA2: await createCustomerSessionToken(k, a2.id),
      ids: {
        benefits: benefit.id,
        "checkout-links": link.id,
        checkouts: checkout.id,
        "custom-fields": (await createCustomField(k, orgA.id, { name: `Field ${marker}` })).id,
        customers: customer.id,
        discounts: (await createDiscount(k, orgA.id, { name: `Discount ${marker}` })).id,
        files: (await createFile(k, orgA.id, { name: `${marker}.png` })).id,
        "license-keys": licenseKey.id,
        meters: (await createMeter(k, orgA.id, { name: `Meter ${marker}` })).id,
        orders: order.id,
        organizations: orgA.id,
        payments: payment.id,
        products: product.id,
        subscriptions: sub.subscription.id,
        "webhooks/endpoints": endpoint.id,
        "webhooks/events": event.id,
        "test-clocks": clock.id,
        "customer-portal/orders": orderA2.id,
        "customer-portal/subscriptions": subA2,
        "customer-portal/benefit-grants": grantA2.id,
        "customer-portal/license-keys": licenseKey.id,
        "customer-portal/customers/me/payment-methods": paymentMethodA2.id,
      },
    };
  });

  it("the fixtures are right: A's own token reads every id it is refused to B (200)", async () => {
    const failures: string[] = [];
    for (const op of ops.filter((o) => o.security === "access_token" && hasIds(o) && o.method === "GET")) {
      const res = await send(op, requestOf(f, op), f.tokenA);
      if (res.status !== 200) failures.push(`${op.id}: ${res.status} ${res.text.slice(0, 200)}`);
    }
    for (const op of ops.filter((o) => o.security === "customer_session" && hasIds(o) && o.method === "GET")) {
      const res = await send(op, requestOf(f, op), f.sessionA2);
      if (res.status !== 200) failures.push(`${op.id} (A2's session): ${res.status} ${res.text.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
  });

  it("B's token on A's ids: 404, and nothing of A's in the answer", async () => {
    const failures: string[] = [];
    for (const op of ops.filter((o) => (o.security === "access_token" || o.security === "optional_access_token") && hasIds(o) && !PUBLIC[o.id])) {
      const res = await send(op, requestOf(f, op), f.tokenB);
      if (res.status !== 404 || res.text.includes(f.marker)) failures.push(`${op.id} ${op.method} ${op.path}: ${res.status} ${res.text.slice(0, 300)}`);
      cover(op, "cross-organization ids");
    }
    expect(failures).toEqual([]);
  });

  it("B's token with A's organization_id: nothing of A's, nothing written in A", async () => {
    const failures: string[] = [];
    for (const op of ops.filter((o) => o.security === "access_token" && takesOrganization(o) && !hasIds(o))) {
      const before = await api.knex("outbox").where({ organization_id: f.orgA }).count({ n: "*" });
      const res = await send(op, requestOf(f, op, { organizationId: f.orgA }), f.tokenB);
      const after = await api.knex("outbox").where({ organization_id: f.orgA }).count({ n: "*" });
      const items = op.method === "GET" && res.status === 200 && res.text.startsWith("{") ? (JSON.parse(res.text) as { items?: unknown[] }).items : undefined;
      const wrote = Number(after[0].n) !== Number(before[0].n);
      if (res.text.includes(f.marker) || (items && items.length > 0) || (op.method !== "GET" && res.status < 300) || wrote) {
        failures.push(`${op.id}: ${res.status} ${res.text.slice(0, 300)}`);
      }
      cover(op, "foreign organization_id");
    }
    expect(failures).toEqual([]);
  });

  it("B's token on every other merchant operation: nothing of A's in the answer", async () => {
    const failures: string[] = [];
    for (const op of ops.filter((o) => o.security === "access_token" && !hasIds(o) && !takesOrganization(o))) {
      // Only reads here: a write without ids or organization_id acts on B alone by construction.
      if (op.method === "GET") {
        const res = await send(op, requestOf(f, op), f.tokenB);
        if (res.text.includes(f.marker)) failures.push(`${op.id}: ${res.status} ${res.text.slice(0, 300)}`);
      }
      cover(op, "own organization only");
    }
    expect(failures).toEqual([]);
  });

  it("customer A1's session on customer A2's resources: 404; A1's lists show nothing of A2's", async () => {
    const failures: string[] = [];
    for (const op of ops.filter((o) => o.security === "customer_session")) {
      const res = await send(op, requestOf(f, op), f.sessionA1);
      const bad = hasIds(op) ? res.status !== 404 || res.text.includes(f.markerA2) : res.text.includes(f.markerA2);
      if (bad) failures.push(`${op.id} ${op.method} ${op.path}: ${res.status} ${res.text.slice(0, 300)}`);
      cover(op, hasIds(op) ? "another customer's ids" : "own customer only");
    }
    expect(failures).toEqual([]);
  });

  it("a token without the operation's scopes: 403 on every merchant operation", async () => {
    const failures: string[] = [];
    for (const op of ops.filter((o) => o.security === "access_token" && o.scopes.length > 0)) {
      expect(op.scopes).not.toContain("openid");
      const res = await send(op, requestOf(f, op), f.scopeless);
      if (res.status !== 403 || res.text.includes(f.marker)) failures.push(`${op.id}: ${res.status} ${res.text.slice(0, 200)}`);
      cover(op, "missing scope");
    }
    expect(failures).toEqual([]);
  });

  it("the public operations: a license key of A with B's organization is 404; a wrong client secret is 404", async () => {
    const failures: string[] = [];
    for (const op of ops.filter((o) => o.security === "public" || PUBLIC[o.id])) {
      if (!PUBLIC[op.id]) {
        failures.push(`${op.id} needs no credential and is not classified in PUBLIC`);
        continue;
      }
      if (op.id.startsWith("customer_portal:license_keys:")) {
        const body = { ...(sample(op.body) as Record<string, unknown>), key: f.licenseKey, organization_id: f.orgB, activation_id: f.activationId };
        const res = await send(op, { path: op.path, body }, null);
        if (res.status !== 404 || res.text.includes(f.markerA2)) failures.push(`${op.id}: ${res.status} ${res.text.slice(0, 200)}`);
      } else if (op.path.includes("{client_secret}")) {
        const res = await send(op, { path: op.path.replace("{client_secret}", `polar_c_${randomUUID().replace(/-/g, "")}`), body: op.body ? sample(op.body) : undefined }, null);
        if (res.status !== 404) failures.push(`${op.id}: ${res.status} ${res.text.slice(0, 200)}`);
      }
      cover(op, `public: ${PUBLIC[op.id]}`);
    }
    expect(failures).toEqual([]);
  });

  it("covers every built operation", () => {
    const missing = ops.filter((o) => !covered.has(o.id)).map((o) => `${o.id} (${o.security})`);
    expect(missing).toEqual([]);
    expect(ops.length).toBeGreaterThan(100);
  });
});
