/* eslint-disable @typescript-eslint/no-explicit-any -- walks the JSON contract generically */
// Tenant isolation and permissions over EVERY operation of the contract (generated/openapi.json),
// each called with a request built from its own schemas and checked as its class calls for (one
// `it` per class below). An operation in no class, or naming a resource without a fixture here,
// fails the test: a new operation is covered, or the test says what to add.
import { appendTransaction, lockOrCreate } from "../../server/wallets/repository.js";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { get as httpGet } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mintOrganizationToken } from "../../server/organization-access-tokens/service.js";
import { foldUsage } from "../../server/meters/fold.js";
import {
  type Browser,
  createBenefit,
  createBenefitGrant,
  createCustomer,
  createCustomerSessionToken,
  createCustomField,
  createDiscount,
  createEvent,
  createFile,
  createLicenseKey,
  createMeter,
  createOrder,
  createOrganization,
  createPayment,
  createPaymentMethod,
  createProductWithPrice,
  createSubscriptionFixture,
  createWebhookEndpoint,
  latestMail,
  mailsTo,
  ownerWithOrganization,
  useTestApi,
} from "../harness/index.js";
import { sleep } from "../../server/kit/time.js";

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
        ? schemes.some((s) => s === "none")
          ? "optional_access_token"
          : "access_token"
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
  /** Required query parameters that name a record of A (a sample would be refused before the ids are looked at). */
  query: Record<string, string>;
  activationId: string;
  externalId: string;
  /** A member of A's customer (`ids.customers`), by id and by external id. */
  memberId: string;
  memberExternalId: string;
  sessionA1: string;
  sessionA2: string;
  marker: string;
  markerA2: string;
  emailA2: string;
  licenseKey: string;
  /** Signed-in owners: A's of organization A (active), B's of organization B (active). */
  ownerA: Browser;
  ownerB: Browser;
}

/** The id a path parameter names, for organization A (or customer A2 in the portal). */
function idFor(f: Fixtures, path: string, name: string): string {
  if (name === "activation_id") return f.activationId;
  if (name === "external_id") return f.externalId;
  if (name === "member_id") return f.memberId;
  if (name === "member_external_id") return f.memberExternalId;
  const rest = path.replace(/^\/v1\//, "").split("/{")[0];
  const id = f.ids[rest];
  if (!id) throw new Error(`no fixture for the resource of ${path} (${rest}): add one to test/contract/isolation.test.ts`);
  return id;
}

function requestOf(f: Fixtures, op: Op, opts: { organizationId?: string } = {}) {
  let path = op.path;
  for (const p of op.params.filter((x) => x.in === "path"))
    path = path.replace(`{${p.name}}`, encodeURIComponent(idFor(f, op.path, p.name)));
  const query = new URLSearchParams();
  for (const p of op.params.filter((x) => x.in === "query")) {
    if (p.name === "organization_id" && opts.organizationId) query.append(p.name, opts.organizationId);
    else if (p.required) query.append(p.name, f.query[p.name] ?? String(sample(p.schema)));
  }
  let body = op.body ? (sample(op.body) as Record<string, unknown>) : undefined;
  if (
    body &&
    opts.organizationId &&
    typeof body === "object" &&
    "organization_id" in (spec.components.schemas[op.body.$ref?.slice(REF.length)]?.properties ?? {})
  ) {
    body = { ...body, organization_id: opts.organizationId };
  }
  return { path: query.size ? `${path}?${query}` : path, body };
}

async function send(op: Op, req: { path: string; body?: unknown }, bearer: string | null) {
  const res = await fetch(api.url + req.path, {
    method: op.method,
    headers: {
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      ...(req.body !== undefined ? { "content-type": "application/json" } : {}),
    },
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
  "customer_portal:customer_session:request": "mails a sign-in code to the organization's customer with that email, if any",
  "customer_portal:customer_session:authenticate": "the emailed code is the credential",
  "customer_portal:customers:check_email_update": "the code mailed to the new address is the credential",
  "customer_portal:customers:verify_email_update": "the code mailed to the new address is the credential",
  "customer-seats:get_claim_info": "the emailed invitation token is the credential",
  "customer-seats:claim_seat": "the emailed invitation token is the credential",
  "oauth2:clients:oauth2:create_client": "better-auth registers a client for the signed-in user only",
  "oauth2:clients:oauth2:get_client": "better-auth answers the client's own user only",
  "oauth2:clients:oauth2:update_client": "better-auth answers the client's own user only",
  "oauth2:clients:oauth2:delete_client": "better-auth answers the client's own user only",
  "oauth2:list": "better-auth lists the signed-in member's active organization's clients only",
};

/** Operations an OAuth2 client authenticates inside the handler (its client id and secret): walked by their own test. */
const CLIENT_CREDENTIALS: Record<string, string> = {
  "oauth2:request_token": "exchanges the client's own codes and refresh tokens",
  "oauth2:revoke_token": "revokes the client's own tokens",
  "oauth2:introspect_token": "describes the client's own tokens",
};

/** Done by a signed-in user, never with an organization's token (server/auth/callers.ts): walked by their own test. */
const USER_OPS: Record<string, string> = {
  "organizations:create": "creates an organization the signed-in user owns",
  "oauth2:authorize": "describes an authorization request to the signed-in user, for the organizations they belong to",
  "emails:get_notification_preferences": "the signed-in member's own mutes in an organization they belong to",
  "emails:update_notification_preferences": "changes the signed-in member's own mutes in an organization they belong to",
};

const REDIRECT = "https://client.example/callback";

/** An OAuth2 client registered by a signed-in owner (for the owner's active organization). */
async function registerClient(owner: Browser): Promise<{ client_id: string; client_secret: string }> {
  const res = await owner.fetch(`${api.url}/v1/oauth2/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: "Isolation client",
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: "client_secret_post",
      grant_types: ["authorization_code", "refresh_token"],
    }),
  });
  const body = (await res.json()) as { client_id: string; client_secret: string };
  expect(res.status, JSON.stringify(body)).toBe(201);
  return body;
}

/** A browser's navigation (Node's fetch would get better-auth's JSON answer instead of the redirect). */
function navigate(url: URL, cookie: string): Promise<{ status: number; location?: string }> {
  return new Promise((resolve, reject) => {
    const req = httpGet(
      url,
      { headers: { cookie, accept: "text/html", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" } },
      (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, location: res.headers.location });
      },
    );
    req.on("error", reject);
  });
}

/** An OAuth2 client's POST (form-encoded, the client's credentials in the body). */
async function clientPost(path: string, client: { client_id: string; client_secret: string }, params: Record<string, string>) {
  const res = await fetch(`${api.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ client_id: client.client_id, client_secret: client.client_secret, ...params }),
  });
  return { status: res.status, text: await res.text() };
}

/** The authorization-code flow with PKCE: the owner consents, the client exchanges the code. */
async function authorizationCode(owner: Browser, client: { client_id: string; client_secret: string }, scope: string) {
  const verifier = randomBytes(32).toString("base64url");
  const url = new URL(`${api.url}/api/auth/oauth2/authorize`);
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    scope,
    state: "isolation",
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
  }).toString();
  const first = await navigate(url, owner.cookie());
  expect(first.status).toBe(302);
  let callback = new URL(first.location!, api.url);
  if (!callback.href.startsWith(REDIRECT)) {
    const accepted = await owner.fetch(`${api.url}/api/auth/oauth2/consent`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ accept: true, oauth_query: callback.search.slice(1) }),
    });
    const body = (await accepted.json()) as { redirect_uri?: string; url?: string };
    expect(accepted.status, JSON.stringify(body)).toBe(200);
    callback = new URL(body.redirect_uri ?? body.url!);
  }
  const code = callback.searchParams.get("code");
  expect(code, callback.href).toBeTruthy();
  const res = await clientPost("/v1/oauth2/token", client, {
    grant_type: "authorization_code",
    code: code!,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
  });
  expect(res.status, res.text).toBe(200);
  return JSON.parse(res.text) as { access_token: string; refresh_token: string };
}

describe("isolation and permissions over every operation", () => {
  let f: Fixtures;
  const covered = new Map<string, string[]>();
  const cover = (op: Op, check: string) => covered.set(op.id, [...(covered.get(op.id) ?? []), check]);
  const started = new Date();

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
    const customer = await createCustomer(k, orgA.id, {
      name: `Customer ${marker}`,
      email: `${marker}@example.com`,
      external_id: externalId,
    });
    const a1 = await createCustomer(k, orgA.id, { name: "Customer A1" });
    const a2 = await createCustomer(k, orgA.id, { name: `Customer ${markerA2}`, email: `${markerA2}@example.com` });
    // Members: A has the Member model on; A1 and A2 are teams with their owners, A2 with a member too.
    await k("organizations")
      .where({ id: orgA.id })
      .update({ feature_settings: JSON.stringify({ issue_funding_enabled: false, member_model_enabled: true }) });
    await k("customers").whereIn("id", [a1.id, a2.id]).update({ type: "team" });
    const addMember = async (customerId: string, email: string, role: string, externalId: string | null = null) =>
      (
        await k("customer_members")
          .insert({ organization_id: orgA.id, customer_id: customerId, email, role, external_id: externalId })
          .returning("id")
      )[0].id as string;
    await addMember(a1.id, "a1-owner@example.com", "owner");
    await addMember(a2.id, `owner-${markerA2}@example.com`, "owner");
    const memberA2 = await addMember(a2.id, `member-${markerA2}@example.com`, "member");
    const memberExternalId = `member-${marker}`;
    const member = await addMember(customer.id, `member-${marker}@example.com`, "member", memberExternalId);
    const order = await createOrder(
      k,
      orgA.id,
      { customerId: customer.id, productId: product.id, productPriceId: price.id },
      { billing_name: `Billing ${marker}` },
    );
    const payment = await createPayment(k, orgA.id, { order_id: order.id });
    const [dispute] = await k("disputes")
      .insert({
        organization_id: orgA.id,
        order_id: order.id,
        payment_id: payment.id,
        customer_id: customer.id,
        status: "needs_response",
        amount: 2500,
        currency: "usd",
        reason: `Reason ${marker}`,
        processor: "stripe",
        processor_ref: `du_${marker}`,
      })
      .returning("id");
    const orderA2 = await createOrder(k, orgA.id, { customerId: a2.id, productId: product.id }, { billing_name: `Billing ${markerA2}` });
    const sub = await createSubscriptionFixture(k, { startedAt: new Date(), organizationId: orgA.id });
    const subA2 = (await createSubscriptionFixture(k, { startedAt: new Date(), organizationId: orgA.id })).subscription.id;
    await k("subscriptions").where({ id: subA2 }).update({ customer_id: a2.id });
    // Seats on A's subscriptions (seat-based pricing on), and a wallet of A2. A2's seats are on a
    // subscription of their own: a plan change of one with seats handed out is refused.
    const seatSubA2 = (await createSubscriptionFixture(k, { startedAt: new Date(), organizationId: orgA.id })).subscription.id;
    await k("subscriptions").where({ id: seatSubA2 }).update({ customer_id: a2.id });
    await k("organizations")
      .where({ id: orgA.id })
      .update({ feature_settings: k.raw("coalesce(feature_settings, '{}'::jsonb) || '{\"seat_based_pricing_enabled\": true}'::jsonb") });
    await k("subscriptions").whereIn("id", [sub.subscription.id, seatSubA2]).update({ seats: 2 });
    const seatOf = async (subscriptionId: string, email: string) =>
      (
        await k("customer_seats")
          .insert({ organization_id: orgA.id, subscription_id: subscriptionId, status: "pending", email, invitation_token: randomUUID() })
          .returning("id")
      )[0].id as string;
    const seat = await seatOf(sub.subscription.id, `seat-${marker}@example.com`);
    const seatA2 = await seatOf(seatSubA2, `seat-a2-${marker}@example.com`);
    const walletA2 = await k.transaction(async (trx) => {
      const wallet = await lockOrCreate(trx, orgA.id, a2.id, "usd");
      await appendTransaction(trx, wallet, { kind: "credit", amount: 500 });
      return wallet.id;
    });
    // Invoices and receipts stored, so that their links can be read.
    for (const [n, o] of [order, orderA2].entries())
      await k("orders")
        .where({ id: o.id })
        .update({
          is_invoice_generated: true,
          invoice_number: n + 1,
          invoice_path: `invoices/${o.id}.pdf`,
          receipt_number: `RCPT-${n + 1}`,
          receipt_path: `receipts/${o.id}.pdf`,
        });
    const grantA2 = await createBenefitGrant(k, benefit.id, a2.id, { order_id: orderA2.id });
    const licenseKey = await createLicenseKey(k, orgA.id, { customerId: a2.id });
    const [activation] = await k("license_key_activations")
      .insert({ license_key_id: licenseKey.id, label: `Laptop ${markerA2}` })
      .returning("id");
    const paymentMethodA2 = await createPaymentMethod(k, orgA.id, a2.id);
    const endpoint = await createWebhookEndpoint(k, orgA.id, { url: `https://example.com/${marker}` });
    const [outbox] = await k("outbox")
      .insert({
        organization_id: orgA.id,
        type: "product.created",
        payload: JSON.stringify({ type: "product.created", data: { name: marker } }),
      })
      .returning("id");
    const [event] = await k("webhook_events")
      .insert({
        organization_id: orgA.id,
        endpoint_id: endpoint.id,
        outbox_id: outbox.id,
        type: "product.created",
        payload: JSON.stringify({ name: marker }),
        pending: false,
      })
      .returning("id");

    // A receipt A sent its customer (resendable), in the send log.
    const [emailSend] = await k("email_sends")
      .insert({
        id: randomUUID(),
        organization_id: orgA.id,
        kind: "order_confirmation",
        recipient: customer.email,
        customer_id: customer.id,
        dedupe_key: `isolation:${marker}`,
        data: JSON.stringify({ order: { id: order.id } }),
        subject: `Receipt ${marker}`,
        message_id: `<${randomUUID()}@borealis>`,
        status: "sent",
        attempts: 1,
        sent_at: new Date(),
      })
      .returning("id");

    // What the API builds best itself: a checkout link, a checkout, a test clock.
    const asA = (method: string, path: string, body: unknown) =>
      fetch(api.url + path, {
        method,
        headers: { authorization: `Bearer ${tokenA}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      }).then(async (r) => {
        expect(r.status, `${method} ${path}`).toBeLessThan(300);
        return (await r.json()) as { id: string };
      });
    const link = await asA("POST", "/v1/checkout-links/", { payment_processor: "stripe", product_id: product.id, label: `Link ${marker}` });
    const checkout = await asA("POST", "/v1/checkouts/", { products: [product.id], metadata: { marker } });
    const clock = await asA("POST", "/v1/test-clocks/", { name: `Clock ${marker}`, frozen_time: "2030-01-01T00:00:00Z" });
    const dashboard = await asA("POST", "/v1/metrics/dashboards", { name: `Dashboard ${marker}`, metrics: ["revenue"] });

    // Usage: a meter of A counting A's events, and the customers' meters the worker folds them into.
    const eventName = `call_${marker}`;
    const meter = await createMeter(k, orgA.id, {
      name: `Meter ${marker}`,
      filter: JSON.stringify({ conjunction: "and", clauses: [{ property: "name", operator: "eq", value: eventName }] }),
    });
    const usageEvent = await createEvent(k, orgA.id, { name: eventName, customer_id: customer.id, metadata: { marker } });
    await createEvent(k, orgA.id, { name: eventName, customer_id: a2.id, metadata: { marker: markerA2 } });
    await foldUsage(k);
    const customerMeter = await k("customer_meters").where({ customer_id: customer.id, meter_id: meter.id }).first("id");
    const customerMeterA2 = await k("customer_meters").where({ customer_id: a2.id, meter_id: meter.id }).first("id");
    const eventType = await k("event_types").where({ organization_id: orgA.id, name: eventName }).first("id");
    expect(customerMeter && customerMeterA2).toBeTruthy();
    // Another access token of A (not the one the walk uses), to be addressed by id.
    await mintOrganizationToken(k, orgA.id, { comment: `Token ${marker}` });
    const accessToken = await k("organization_access_tokens")
      .where({ organization_id: orgA.id, comment: `Token ${marker}` })
      .first("id");

    // Signed-in users: A's owner (a member of A, A active) and B's (a member of B, B active).
    const owner = async (organizationId: string, name: string) => {
      const o = await ownerWithOrganization(api.url, name);
      await k("members").insert({ organization_id: organizationId, user_id: o.userId, role: "owner" });
      const active = await o.browser.client.organization.setActive({ organizationId });
      if (active.error) throw new Error(`set-active failed: ${JSON.stringify(active.error)}`);
      return o.browser;
    };

    f = {
      orgA: orgA.id,
      orgB: orgB.id,
      tokenA,
      tokenB,
      scopeless,
      marker,
      markerA2,
      emailA2: a2.email,
      ownerA: await owner(orgA.id, "Owner A"),
      ownerB: await owner(orgB.id, "Owner B"),
      externalId,
      memberId: member,
      memberExternalId,
      activationId: activation.id,
      licenseKey: licenseKey.key,
      sessionA1: await createCustomerSessionToken(k, a1.id),
      sessionA2: await createCustomerSessionToken(k, a2.id),
      // A plan change of A2's subscription to the product of A's other subscription (recurring too).
      query: { product_id: sub.productId },
      ids: {
        benefits: benefit.id,
        "checkout-links": link.id,
        checkouts: checkout.id,
        "custom-fields": (await createCustomField(k, orgA.id, { name: `Field ${marker}` })).id,
        customers: customer.id,
        discounts: (await createDiscount(k, orgA.id, { name: `Discount ${marker}` })).id,
        files: (await createFile(k, orgA.id, { name: `${marker}.png` })).id,
        "license-keys": licenseKey.id,
        meters: meter.id,
        "customer-meters": customerMeter.id,
        events: usageEvent.id,
        "organization-access-tokens": accessToken.id,
        orders: order.id,
        organizations: orgA.id,
        payments: payment.id,
        disputes: dispute.id,
        products: product.id,
        subscriptions: sub.subscription.id,
        "webhooks/endpoints": endpoint.id,
        "webhooks/events": event.id,
        "test-clocks": clock.id,
        "metrics/dashboards": dashboard.id,
        "event-types": eventType.id,
        emails: emailSend.id,
        "customer-portal/orders": orderA2.id,
        "customer-portal/meters": customerMeterA2.id,
        "customer-portal/subscriptions": subA2,
        "customer-portal/benefit-grants": grantA2.id,
        "customer-portal/license-keys": licenseKey.id,
        "customer-portal/customers/me/payment-methods": paymentMethodA2.id,
        "customer-portal/members": memberA2,
        "customer-seats": seat,
        "customer-portal/seats": seatA2,
        "customer-portal/wallets": walletA2,
      },
    };
  });

  // The sign-in code limits count per client address, and every test file calls from 127.0.0.1.
  afterAll(async () => {
    if (!f) return;
    await api.knex("customer_session_codes").whereIn("organization_id", [f.orgA, f.orgB]).delete();
    await api.knex("customer_session_code_failures").where("created_at", ">=", started).delete();
  });

  it("the fixtures are right: A's own token reads every id it is refused to B (200)", async () => {
    const failures: string[] = [];
    for (const op of ops.filter((o) => o.security === "access_token" && hasIds(o) && o.method === "GET" && !USER_OPS[o.id])) {
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
    for (const op of ops.filter(
      (o) => (o.security === "access_token" || o.security === "optional_access_token") && hasIds(o) && !PUBLIC[o.id],
    )) {
      const res = await send(op, requestOf(f, op), f.tokenB);
      if (res.status !== 404 || res.text.includes(f.marker))
        failures.push(`${op.id} ${op.method} ${op.path}: ${res.status} ${res.text.slice(0, 300)}`);
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
      const items =
        op.method === "GET" && res.status === 200 && res.text.startsWith("{")
          ? (JSON.parse(res.text) as { items?: unknown[] }).items
          : undefined;
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
    for (const op of ops.filter((o) => o.security === "access_token" && !hasIds(o) && !takesOrganization(o) && !USER_OPS[o.id])) {
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
    for (const op of ops.filter((o) => (o.security === "public" || PUBLIC[o.id]) && !CLIENT_CREDENTIALS[o.id])) {
      if (!PUBLIC[op.id]) {
        failures.push(`${op.id} needs no credential and is not classified in PUBLIC`);
        continue;
      }
      if (op.id.startsWith("customer_portal:license_keys:")) {
        const body = {
          ...(sample(op.body) as Record<string, unknown>),
          key: f.licenseKey,
          organization_id: f.orgB,
          activation_id: f.activationId,
        };
        const res = await send(op, { path: op.path, body }, null);
        if (res.status !== 404 || res.text.includes(f.markerA2)) failures.push(`${op.id}: ${res.status} ${res.text.slice(0, 200)}`);
      } else if (op.id === "customer_portal:customer_session:request") {
        // Customer A2's email with organization B: the same answer as for anyone (202), and no code for A2.
        const res = await send(op, { path: op.path, body: { email: f.emailA2, organization_id: f.orgB } }, null);
        const codes = await api
          .knex("customer_session_codes")
          .where({ organization_id: f.orgB })
          .whereRaw("lower(email) = lower(?)", [f.emailA2]);
        if (res.status !== 202 || res.text.includes(f.markerA2)) failures.push(`${op.id}: ${res.status} ${res.text.slice(0, 200)}`);
        if (codes.length !== 1 || codes.some((c) => c.customer_id !== null || c.code_hash !== null))
          failures.push(`${op.id}: a code for A2 through organization B: ${JSON.stringify(codes)}`);
        await sleep(500);
        if ((await mailsTo(f.emailA2)).length) failures.push(`${op.id}: mailed A2 for organization B`);
      } else if (op.id === "customer_portal:customer_session:authenticate") {
        // A wrong code is refused; A2's own code (organization A) signs in A2, and only A2.
        const wrong = await send(op, { path: op.path, body: { code: "ZZZZZZ" } }, null);
        if (wrong.status !== 401 || wrong.text.includes("polar_cst_"))
          failures.push(`${op.id} (a wrong code): ${wrong.status} ${wrong.text.slice(0, 200)}`);
        // Organization A has the Member model on: the code is its member's, A2's owner.
        const ownerA2 = `owner-${f.markerA2}@example.com`;
        const asked = await fetch(`${api.url}/v1/customer-portal/customer-session/request`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email: ownerA2, organization_id: f.orgA }),
        });
        expect(asked.status).toBe(202);
        const mail = await latestMail(ownerA2, { subject: /sign-in code/ });
        const code = /sign-in code: ([A-Z0-9]{6})$/.exec(mail.subject)?.[1] ?? "";
        const res = await send(op, { path: op.path, body: { code } }, null);
        const token = res.status === 200 ? (JSON.parse(res.text) as { token: string }).token : "";
        const me = await fetch(`${api.url}/v1/customer-portal/customers/me`, { headers: { authorization: `Bearer ${token}` } });
        const meText = await me.text();
        if (me.status !== 200 || !meText.includes(f.markerA2))
          failures.push(`${op.id} (A2's code): ${res.status} ${res.text.slice(0, 100)} → ${me.status} ${meText.slice(0, 200)}`);
      } else if (op.id.endsWith("_email_update")) {
        // Only the code mailed to the new address proves anything: a made-up one changes nothing and signs in no one.
        const token = `polar_cev_${randomUUID().replace(/-/g, "")}`;
        const res =
          op.method.toLowerCase() === "get"
            ? await send(op, { path: `${op.path}?token=${token}` }, null)
            : await send(op, { path: op.path, body: { token } }, null);
        if (res.status !== 401 || res.text.includes("polar_cst_")) failures.push(`${op.id}: ${res.status} ${res.text.slice(0, 200)}`);
      } else if (op.id.startsWith("customer-seats:")) {
        // A made-up invitation token shows and claims nothing.
        const token = randomUUID();
        const res =
          op.method.toLowerCase() === "get"
            ? await send(op, { path: op.path.replace("{invitation_token}", token) }, null)
            : await send(op, { path: op.path, body: { invitation_token: token } }, null);
        if (![400, 404].includes(res.status) || res.text.includes("polar_cst_"))
          failures.push(`${op.id}: ${res.status} ${res.text.slice(0, 200)}`);
      } else if (op.id.startsWith("oauth2:clients:") || op.id === "oauth2:list") {
        // No signed-in user: refused.
        const res = await send(
          op,
          { path: op.path.replace("{client_id}", randomUUID()), body: op.body ? { redirect_uris: [REDIRECT] } : undefined },
          null,
        );
        if (res.status !== 401) failures.push(`${op.id}: ${res.status} ${res.text.slice(0, 200)}`);
      } else if (op.path.includes("{client_secret}")) {
        const res = await send(
          op,
          {
            path: op.path.replace("{client_secret}", `polar_c_${randomUUID().replace(/-/g, "")}`),
            body: op.body ? sample(op.body) : undefined,
          },
          null,
        );
        if (res.status !== 404) failures.push(`${op.id}: ${res.status} ${res.text.slice(0, 200)}`);
      }
      cover(op, `public: ${PUBLIC[op.id]}`);
    }
    expect(failures).toEqual([]);
  });

  it("the user operations: refused to an organization's token (403); another organization's user sees nothing of A's", async () => {
    const failures: string[] = [];
    const client = await registerClient(f.ownerA);
    const authorize = `?${new URLSearchParams({ client_id: client.client_id, scope: "openid products:read", redirect_uri: REDIRECT })}`;
    for (const op of ops.filter((o) => USER_OPS[o.id])) {
      if (hasIds(op)) {
        // About organization A: its own owner gets it, B's owner nothing.
        const req = requestOf(f, op);
        const call = (who: Browser) =>
          who.fetch(api.url + req.path, {
            method: op.method,
            headers: req.body ? { "content-type": "application/json" } : {},
            body: req.body ? JSON.stringify(req.body) : undefined,
          });
        const ownToken = await send(op, req, f.tokenA);
        if (ownToken.status !== 403)
          failures.push(`${op.id} with A's organization token: ${ownToken.status} ${ownToken.text.slice(0, 200)}`);
        const otherToken = await send(op, req, f.tokenB);
        if (![403, 404].includes(otherToken.status) || otherToken.text.includes(f.marker))
          failures.push(`${op.id} with B's organization token: ${otherToken.status} ${otherToken.text.slice(0, 200)}`);
        const mine = await call(f.ownerA);
        if (mine.status !== 200) failures.push(`${op.id} by A's owner: ${mine.status} ${(await mine.text()).slice(0, 200)}`);
        const theirs = await call(f.ownerB);
        const text = await theirs.text();
        if (theirs.status !== 404 || text.includes(f.marker))
          failures.push(`${op.id} by B's owner on A: ${theirs.status} ${text.slice(0, 200)}`);
        cover(op, `user: ${USER_OPS[op.id]}`);
        continue;
      }
      const req =
        op.id === "oauth2:authorize"
          ? { path: `${op.path}${authorize}` }
          : { path: op.path, body: { name: `Org of B's owner ${randomUUID().slice(0, 8)}`, slug: `org-${randomUUID().slice(0, 12)}` } };
      for (const [who, token] of [
        ["A's", f.tokenA],
        ["B's", f.tokenB],
      ]) {
        const res = await send(op, req, token);
        if (res.status !== 403 || res.text.includes(f.marker))
          failures.push(`${op.id} with ${who} organization token: ${res.status} ${res.text.slice(0, 200)}`);
      }
      const res = await f.ownerB.fetch(api.url + req.path, {
        method: op.method,
        headers: req.body ? { "content-type": "application/json" } : {},
        body: req.body ? JSON.stringify(req.body) : undefined,
      });
      const text = await res.text();
      if (res.status >= 300 || text.includes(f.marker) || text.includes(f.orgA))
        failures.push(`${op.id} by B's owner: ${res.status} ${text.slice(0, 300)}`);
      cover(op, `user: ${USER_OPS[op.id]}`);
    }
    // The fixture is right: A's owner is offered organization A.
    const own = await f.ownerA.fetch(`${api.url}/v1/oauth2/authorize${authorize}`);
    const ownText = await own.text();
    expect(own.status, ownText).toBe(200);
    expect(ownText).toContain(f.orgA);
    expect(failures).toEqual([]);
  });

  it("the client-credential operations: client B can neither use, read nor revoke client A's tokens", async () => {
    const failures: string[] = [];
    const clientA = await registerClient(f.ownerA);
    const clientB = await registerClient(f.ownerB);
    const tokens = await authorizationCode(f.ownerA, clientA, "openid offline_access products:read");
    const productsOfA = async (accessToken: string) => {
      const res = await fetch(`${api.url}/v1/products/`, { headers: { authorization: `Bearer ${accessToken}` } });
      return { status: res.status, text: await res.text() };
    };
    // The fixture is right: A's access token reads A's products.
    const before = await productsOfA(tokens.access_token);
    expect(before.status, before.text).toBe(200);
    expect(before.text).toContain(f.marker);

    for (const op of ops.filter((o) => CLIENT_CREDENTIALS[o.id])) {
      if (op.id === "oauth2:request_token") {
        const stolen = await clientPost(op.path, clientB, { grant_type: "refresh_token", refresh_token: tokens.refresh_token });
        if (stolen.status < 400 || stolen.text.includes("polar_at_"))
          failures.push(`${op.id}: client B refreshed A's token: ${stolen.status} ${stolen.text.slice(0, 200)}`);
        const wrongSecret = await clientPost(
          op.path,
          { ...clientA, client_secret: "polar_cs_wrong" },
          { grant_type: "refresh_token", refresh_token: tokens.refresh_token },
        );
        if (![400, 401].includes(wrongSecret.status) || wrongSecret.text.includes("polar_at_"))
          failures.push(`${op.id}: a wrong secret: ${wrongSecret.status} ${wrongSecret.text.slice(0, 200)}`);
      } else if (op.id === "oauth2:introspect_token") {
        const res = await clientPost(op.path, clientB, { token: tokens.access_token });
        const active = res.status === 200 && (JSON.parse(res.text) as { active?: boolean }).active !== false;
        if (active || res.text.includes(f.orgA))
          failures.push(`${op.id}: client B reads A's token: ${res.status} ${res.text.slice(0, 300)}`);
      } else if (op.id === "oauth2:revoke_token") {
        const res = await clientPost(op.path, clientB, { token: tokens.access_token });
        const after = await productsOfA(tokens.access_token);
        if (res.text.includes(f.orgA) || after.status !== 200)
          failures.push(`${op.id}: client B revoked A's token: ${res.status} ${res.text.slice(0, 200)} → ${after.status}`);
      } else {
        failures.push(`${op.id}: no check written`);
      }
      cover(op, `client credentials: ${CLIENT_CREDENTIALS[op.id]}`);
    }
    // Client A's own: its token is still its own, and still active.
    const own = await clientPost("/v1/oauth2/introspect", clientA, { token: tokens.access_token });
    expect(own.status, own.text).toBe(200);
    expect(JSON.parse(own.text)).toMatchObject({ active: true, sub_type: "organization", sub: f.orgA });
    const refreshed = await clientPost("/v1/oauth2/token", clientA, { grant_type: "refresh_token", refresh_token: tokens.refresh_token });
    expect(refreshed.status, refreshed.text).toBe(200);
    expect(failures).toEqual([]);
  });

  it("covers every built operation", () => {
    const missing = ops.filter((o) => !covered.has(o.id)).map((o) => `${o.id} (${o.security})`);
    expect(missing).toEqual([]);
    expect(ops.length).toBeGreaterThan(100);
  });
});
