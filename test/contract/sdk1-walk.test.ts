// The 1.x client (@polar-sh/sdk 1.0.1) against the API through `createPolar` of 2026-04 and
// 2026-10: every method we serve is called, and each answer is checked against that version's
// declared TypeScript (./declared-types.ts): required fields, declared types, no field of another
// version. Methods we do not serve are listed below with why and must answer 404 or 405.
import { createHash, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PolarClientError } from "polar-sdk-1";
import { createPolar as createPolar2604, type Polar } from "polar-sdk-1/2026-04";
import { createPolar as createPolar2610 } from "polar-sdk-1/2026-10";
import { foldUsage } from "../../server/meters/fold.js";
import {
  createBenefitGrant,
  createLicenseKey,
  createOrder,
  createPayment,
  latestMail,
  linkIn,
  orgWithToken,
  ownerWithOrganization,
  uniqueEmail,
  useTestApi,
} from "../harness/index.js";
import { declaredClient, type DeclaredClient } from "./declared-types.js";
import { sdk1Operations, type Sdk1Operation } from "./sdk1-operations.js";

const filesDir = mkdtempSync(join(tmpdir(), "borealis-sdk1-"));
const api = useTestApi({ env: { FILES_DIR: filesDir } });
afterAll(() => rmSync(filesDir, { recursive: true, force: true }));

/** 1.x methods whose operations we do not serve yet, by what they are part of. */
const NOT_SERVED: Record<string, string> = {
  ...only("a customer's members listed under the customer (0.49.0 lists them at /v1/members/)", [
    "customers.members.list",
    "customers.members.listExternal",
  ]),
  ...only("license key rotation", ["licenseKeys.rotate", "customerPortal.licenseKeys.rotate"]),
  ...only("product deletion", ["products.delete"]),
  ...only("a benefit's files", ["benefits.files"]),
};

/** In the contract and walked through 0.49.0 (test/contract/sdk-walk-steps.ts), not yet through 1.x. */
const NOT_WALKED = new Set([
  "customerSeats.assignSeat",
  "customerSeats.claimSeat",
  "customerSeats.getClaimInfo",
  "customerSeats.listSeats",
  "customerSeats.resendInvitation",
  "customerSeats.revokeSeat",
  "customerPortal.seats.assignSeat",
  "customerPortal.seats.listClaimedSubscriptions",
  "customerPortal.seats.listSeats",
  "customerPortal.seats.resendInvitation",
  "customerPortal.seats.revokeSeat",
  "customerPortal.wallets.get",
  "customerPortal.wallets.list",
]);

/**
 * Served, but the 1.x client sends none of their parameters (the authorization request's query,
 * the token endpoints' form body): each is answered RFC 6749's 400 invalid_request, as Polar's
 * would refuse them. OAuth2 clients call these with a form body of their own (test/oauth2/).
 */
const SENDS_NO_PARAMETERS = new Set(["oauth2.authorize", "oauth2.requestToken", "oauth2.revokeToken", "oauth2.introspectToken"]);

function only(why: string, methods: string[]): Record<string, string> {
  return Object.fromEntries(methods.map((m) => [m, why]));
}

/** One call the walk made through the client: its answer, or what it threw. */
interface Call {
  method: string;
  result?: unknown;
  error?: unknown;
}

/** The client with every method call recorded (by its path, `customers.getExternal`) in `calls`. */
function recorded<T extends object>(target: T, calls: Call[], prefix = ""): T {
  return new Proxy(target, {
    get(obj, key, receiver) {
      const value: unknown = Reflect.get(obj, key, receiver);
      if (typeof key !== "string") return value;
      const path = prefix ? `${prefix}.${key}` : key;
      if (typeof value === "function") {
        return (...args: unknown[]) => {
          const call: Call = { method: path };
          calls.push(call);
          return Promise.resolve(value.apply(obj, args)).then(
            (result: unknown) => ((call.result = result), result),
            (error: unknown) => {
              call.error = error;
              throw error;
            },
          );
        };
      }
      return value && typeof value === "object" ? recorded(value, calls, path) : value;
    },
  });
}

interface Clients {
  /** The merchant: an organization access token with every scope. */
  merchant: Polar;
  /** A signed-in user: their session token as the bearer. */
  user: Polar;
  /** The customer's portal session. */
  portal: (token: string) => Polar;
}

const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("base64");

/** The walk: every method we serve, in an order that makes what the next call needs. */
async function walk(c: Clients, org: { id: string; slug: string }) {
  const k = api.knex;
  const m = c.merchant;
  // Catalog: benefits, products, custom fields, discounts, checkout links.
  const benefit = await m.benefits.create({ type: "custom", description: "Priority support", properties: { note: "Write any time." } });
  const licenseBenefit = await m.benefits.create({
    type: "license_keys",
    description: "License",
    properties: { prefix: "WALK", expires: null, activations: { limit: 3, enable_customer_admin: true }, limit_usage: null },
  });
  await m.benefits.list();
  await m.benefits.get(benefit.id);
  await m.benefits.update(benefit.id, { type: "custom", description: "Priority support, 24/7" });
  const oneTime = await m.products.create({
    name: "Walk guide",
    prices: [{ amount_type: "fixed", price_amount: 1500, price_currency: "usd" }],
  });
  const monthly = await m.products.create({
    name: "Walk monthly",
    recurring_interval: "month",
    prices: [{ amount_type: "fixed", price_amount: 900, price_currency: "usd" }],
  });
  await m.products.list();
  await m.products.get(oneTime.id);
  await m.products.update(oneTime.id, { description: "The walk's guide" });
  await m.products.updateBenefits(monthly.id, { benefits: [benefit.id, licenseBenefit.id] });
  const field = await m.customFields.create({ type: "text", slug: `note-${randomUUID().slice(0, 8)}`, name: "Note", properties: {} });
  await m.customFields.list();
  await m.customFields.get(field.id);
  await m.customFields.update(field.id, { type: "text", name: "A note" });
  const discount = await m.discounts.create({ name: "Walk 10%", type: "percentage", basis_points: 1000, duration: "once" });
  await m.discounts.list();
  await m.discounts.get(discount.id);
  await m.discounts.update(discount.id, { name: "Walk ten percent" });
  const link = await m.checkoutLinks.create({ payment_processor: "stripe", product_id: oneTime.id, label: "Walk link" });
  await m.checkoutLinks.list();
  await m.checkoutLinks.get(link.id);
  await m.checkoutLinks.update(link.id, { label: "The walk's link" });

  // Customers.
  const externalId = `walk-${randomUUID().slice(0, 8)}`;
  const customer = await m.customers.create({ email: uniqueEmail("walker"), name: "Walker", external_id: externalId });
  await m.customers.list();
  await m.customers.get(customer.id);
  await m.customers.update(customer.id, { name: "Walker Jr." });
  await m.customers.getExternal(externalId);
  await m.customers.updateExternal(externalId, { name: "Walker III" });
  await m.customers.getState(customer.id);
  await m.customers.getStateExternal(externalId);
  await m.customers.listPaymentMethods(customer.id);
  await m.customers.listPaymentMethodsExternal(externalId);
  await m.customers.export();

  // A team customer's members, where the organization enabled the Member model; and its portal.
  await m.organizations.update(org.id, { feature_settings: { member_model_enabled: true } });
  const teamExternalId = `team-${randomUUID().slice(0, 8)}`;
  const team = await m.customers.create({ type: "team", email: uniqueEmail("team"), external_id: teamExternalId });
  const member = await m.customers.members.create(team.id, { email: uniqueEmail("member"), role: "billing_manager" });
  await m.customers.members.get(team.id, member.id);
  await m.customers.members.update(team.id, member.id, { name: "Member" });
  await m.customers.members.delete(team.id, member.id);
  const byExternal = await m.customers.members.createExternal(teamExternalId, { email: uniqueEmail("ext"), external_id: "walk-member" });
  await m.customers.members.getExternal(teamExternalId, "walk-member");
  await m.customers.members.updateExternal(teamExternalId, "walk-member", { role: "member" });
  await m.customers.members.deleteExternal(teamExternalId, byExternal.external_id ?? "walk-member");
  const teamPortal = c.portal((await m.customerSessions.create({ customer_id: team.id })).token);
  const added = await teamPortal.customerPortal.members.addMember({ email: uniqueEmail("added") });
  await teamPortal.customerPortal.members.listMembers();
  await teamPortal.customerPortal.members.updateMember(added.id, { name: "Added" });
  await teamPortal.customerPortal.members.removeMember(added.id);

  // Checkouts: a one-time purchase and two subscriptions, paid on the sandbox processor.
  const pay = { confirmation_token_id: "tok_sandbox_success", customer_billing_address: { country: "FR" } } as const;
  const checkout = await m.checkouts.create({ products: [oneTime.id], customer_id: customer.id });
  await m.checkouts.list();
  await m.checkouts.get(checkout.id);
  await m.checkouts.update(checkout.id, { metadata: { walk: "yes" } });
  await m.checkouts.clientGet(checkout.client_secret);
  await m.checkouts.clientUpdate(checkout.client_secret, { customer_name: "Walker" });
  await m.checkouts.clientConfirm(checkout.client_secret, pay);
  for (let i = 0; i < 2; i++) {
    const sub = await m.checkouts.create({ products: [monthly.id], customer_id: customer.id });
    await m.checkouts.clientConfirm(sub.client_secret, pay);
  }

  // Orders, payments, refunds, invoices.
  const orders = await m.orders.list({ customer_id: customer.id, product_id: oneTime.id });
  const order = orders.items[0];
  await m.orders.get(order.id);
  await m.orders.update(order.id, { billing_name: "Walker Inc." });
  await m.orders.generateInvoice(order.id);
  await k("orders")
    .where({ id: order.id })
    .update({ is_invoice_generated: true, invoice_number: 1, invoice_path: `invoices/${order.id}.pdf` });
  await m.orders.invoice(order.id);
  await m.orders.export();
  // A draft order charged off-session on the walker's card (saved by the subscriptions' checkouts).
  const draft = await m.orders.create({ customer_id: customer.id, product_id: oneTime.id });
  await m.orders.finalize(draft.id, {});
  await m.orders.receipt(draft.id);
  const payments = await m.payments.list();
  await m.payments.get(payments.items[0].id);
  await m.refunds.create({ order_id: order.id, reason: "customer_request", amount: 100 });
  await m.refunds.list();

  // Disputes: the sandbox's dispute card opens one, which the merchant concedes.
  const disputed = await m.checkouts.create({ products: [oneTime.id], customer_id: customer.id });
  await m.checkouts.clientConfirm(disputed.client_secret, Object.assign({}, pay, { confirmation_token_id: "4000000000000259" }));
  const disputes = await m.disputes.list({ status: "needs_response" });
  await m.disputes.get(disputes.items[0].id);
  await m.disputes.accept(disputes.items[0].id);

  // Subscriptions.
  const subs = await m.subscriptions.list({ customer_id: customer.id });
  const [kept, revoked] = subs.items;
  await m.subscriptions.get(kept.id);
  await m.subscriptions.update(kept.id, { cancel_at_period_end: true });
  await m.subscriptions.export();
  await m.subscriptions.revoke(revoked.id);
  // A free plan the merchant gives without a checkout.
  const freePlan = await m.products.create({
    name: "Walk free plan",
    recurring_interval: "month",
    prices: [{ amount_type: "fixed", price_amount: 0 }],
  });
  const comped = await m.customers.create({ email: uniqueEmail("comped") });
  await m.subscriptions.create({ product_id: freePlan.id, customer_id: comped.id });

  // Benefit grants and license keys (granted as the worker grants them).
  const grant = await createBenefitGrant(k, benefit.id, customer.id, { order_id: order.id });
  await m.benefits.grants(benefit.id);
  await m.benefitGrants.list({ customer_id: customer.id });
  const key = await createLicenseKey(k, org.id, {
    benefitId: licenseBenefit.id,
    customerId: customer.id,
    properties: { prefix: "WALK", expires: null, activations: { limit: 3, enable_customer_admin: true }, limit_usage: null },
  });
  await m.licenseKeys.list();
  await m.licenseKeys.get(key.id);
  await m.licenseKeys.update(key.id, { usage: 1 });
  await m.licenseKeys.validate({ key: key.key, organization_id: org.id });
  const activation = await m.licenseKeys.activate({ key: key.key, organization_id: org.id, label: "Laptop" });
  await m.licenseKeys.getActivation(key.id, activation.id);
  await m.licenseKeys.deactivate({ key: key.key, organization_id: org.id, activation_id: activation.id });

  // Usage: a meter over ingested events, folded into the customer's meter as the worker does.
  const meter = await m.meters.create({
    name: "Walk calls",
    filter: { conjunction: "and", clauses: [{ property: "name", operator: "eq", value: "walk_call" }] },
    aggregation: { func: "count" },
  });
  await m.meters.list();
  await m.meters.get(meter.id);
  await m.meters.update(meter.id, { name: "Walk API calls" });
  await m.events.ingest({ events: [{ name: "walk_call", customer_id: customer.id, metadata: { route: "/walk" } }] });
  await foldUsage(k);
  const events = await m.events.list({ customer_id: customer.id });
  await m.events.get(events.items[0].id);
  await m.events.listNames();
  const eventTypes = await m.eventTypes.list({ source: "user" });
  await m.eventTypes.update(eventTypes.items[0].id ?? "", { label: "Walk calls" });
  const today = new Date();
  const day = (offset: number) => new Date(today.getTime() + offset * 86_400_000);
  await m.meters.quantities(meter.id, { start_timestamp: day(-1).toISOString(), end_timestamp: day(1).toISOString(), interval: "day" });
  const meters = await m.customerMeters.list({ customer_id: customer.id });
  await m.customerMeters.get(meters.items[0].id);
  await m.metrics.get({ start_date: day(-7).toISOString().slice(0, 10), end_date: day(0).toISOString().slice(0, 10), interval: "day" });
  await m.metrics.limits();
  await m.metrics.export({ start_date: day(-7).toISOString().slice(0, 10), end_date: day(0).toISOString().slice(0, 10), interval: "day" });
  const dashboard = await m.metrics.createDashboard({ name: "Walk", metrics: ["revenue"] });
  await m.metrics.listDashboards();
  await m.metrics.getDashboard(dashboard.id);
  await m.metrics.updateDashboard(dashboard.id, { name: "The walk's dashboard" });
  await m.metrics.deleteDashboard(dashboard.id);

  // Files: declared, its part uploaded, completed.
  const bytes = Buffer.from("The walk's downloadable guide.");
  const file = await m.files.create({
    name: "guide.pdf",
    mime_type: "application/pdf",
    size: bytes.length,
    checksum_sha256_base64: sha256(bytes),
    service: "downloadable",
    upload: { parts: [{ number: 1, chunk_start: 0, chunk_end: bytes.length, checksum_sha256_base64: sha256(bytes) }] },
  });
  const part = file.upload.parts[0];
  // The part's URL names the configured public address (port 8000 unless set); this API listens on its own port.
  const partUrl = new URL(part.url);
  const put = await fetch(new URL(partUrl.pathname + partUrl.search, api.url), {
    method: "PUT",
    headers: part.headers,
    body: Uint8Array.from(bytes),
  });
  await m.files.uploaded(file.id, {
    id: file.upload.id,
    path: file.upload.path,
    parts: [{ number: 1, checksum_etag: String(put.headers.get("etag")), checksum_sha256_base64: sha256(bytes) }],
  });
  await m.files.list();
  await m.files.update(file.id, { name: "walk-guide.pdf" });

  // Webhooks: an endpoint, and a delivery of an event to redeliver (recorded as the relay records it).
  const endpoint = await m.webhooks.createWebhookEndpoint({
    url: "https://example.com/walk-hook",
    format: "raw",
    events: ["order.created"],
  });
  await m.webhooks.listWebhookEndpoints();
  await m.webhooks.getWebhookEndpoint(endpoint.id);
  await m.webhooks.updateWebhookEndpoint(endpoint.id, { name: "Walk hook" });
  await m.webhooks.resetWebhookEndpointSecret(endpoint.id);
  const [outbox] = await k("outbox")
    .insert({ organization_id: org.id, type: "order.created", payload: JSON.stringify({ type: "order.created", data: {} }) })
    .returning("id");
  const [event] = await k("webhook_events")
    .insert({
      organization_id: org.id,
      endpoint_id: endpoint.id,
      outbox_id: outbox.id,
      type: "order.created",
      payload: JSON.stringify({}),
      pending: false,
    })
    .returning("id");
  await m.webhooks.listWebhookDeliveries();
  await m.webhooks.redeliverWebhookEvent(event.id);

  // Organizations: the merchant's own; a new one by a signed-in user.
  await m.organizations.list();
  await m.organizations.get(org.id);
  await m.organizations.update(org.id, { name: "Walk & Co" });
  await c.user.organizations.create({ name: "Walk Two", slug: `walk-${randomUUID().slice(0, 12)}` });
  await c.user.oauth2.userinfo();
  const registered = await c.user.oauth2.clients.oauth2.createClient({
    client_name: "Walk client",
    redirect_uris: ["https://client.example/callback"],
    token_endpoint_auth_method: "client_secret_post",
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
  });
  // The 1.x client types the registration's answer as unknown.
  const clientId = typeof registered === "object" && registered !== null && "client_id" in registered ? String(registered.client_id) : "";
  await c.user.oauth2.clients.oauth2.getClient(clientId);
  await c.user.oauth2.clients.oauth2.updateClient(clientId, {
    client_id: clientId,
    client_name: "Walk client, renamed",
    redirect_uris: ["https://client.example/callback"],
    token_endpoint_auth_method: "client_secret_post",
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
  });
  await c.user.oauth2.clients.oauth2.deleteClient(clientId);

  // The customer's portal.
  const session = await m.customerSessions.create({ customer_id: customer.id });
  const p = c.portal(session.token);
  await p.customerPortal.organizations.get(org.slug);
  await p.customerPortal.customers.get();
  await p.customerPortal.customerSession.introspect();
  await p.customerPortal.customers.update({ billing_name: "Walker Household" });
  await k("organizations")
    .where({ id: org.id })
    .update({ customer_portal_settings: { customer: { allow_email_change: true } } });
  const moved = uniqueEmail("moved");
  await p.customerPortal.customers.requestEmailUpdate({ email: moved });
  const emailCode = new URL(linkIn(await latestMail(moved), "/portal/verify-email")).searchParams.get("token") ?? "";
  await p.customerPortal.customers.checkEmailUpdate({ token: emailCode });
  await p.customerPortal.customers.verifyEmailUpdate({ token: emailCode });
  const method = await p.customerPortal.customers.addPaymentMethod({
    confirmation_token_id: "tok_sandbox_success",
    set_default: false,
    return_url: "https://example.com/back",
  });
  await p.customerPortal.customers.listPaymentMethods();
  if ("payment_method" in method) await p.customerPortal.customers.deletePaymentMethod(method.payment_method.id);
  const needsAction = await p.customerPortal.customers.addPaymentMethod({
    confirmation_token_id: "tok_sandbox_requires_action",
    set_default: false,
    return_url: "https://example.com/back",
  });
  if ("client_secret" in needsAction)
    await p.customerPortal.customers.confirmPaymentMethod({
      setup_intent_id: needsAction.client_secret.replace(/_secret$/, ""),
      set_default: false,
    });
  await p.customerPortal.customerSession.getAuthenticatedUser();
  await p.customerPortal.orders.list();
  await p.customerPortal.orders.get(order.id);
  const renewal = (await m.orders.list({ customer_id: customer.id, product_id: monthly.id })).items[0];
  await p.customerPortal.orders.update(renewal.id, { billing_name: "Walker Household" });
  await p.customerPortal.orders.invoice(order.id);
  await p.customerPortal.orders.receipt(order.id);
  await p.customerPortal.orders.generateInvoice(renewal.id);
  const pending = await createOrder(
    k,
    org.id,
    { customerId: customer.id, productId: oneTime.id },
    { status: "pending", subtotal_amount: 1500 },
  );
  await createPayment(k, org.id, {
    order_id: pending.id,
    status: "failed",
    amount: 1500,
    decline_reason: "card_declined",
    decline_message: "Your card was declined.",
  });
  await p.customerPortal.orders.getPaymentStatus(pending.id);
  await p.customerPortal.orders.confirmRetryPayment(pending.id, { confirmation_token_id: "tok_sandbox_success" });
  await p.customerPortal.subscriptions.list();
  await p.customerPortal.subscriptions.get(kept.id);
  await p.customerPortal.subscriptions.update(kept.id, { cancel_at_period_end: false });
  await p.customerPortal.subscriptions.cancel(kept.id);
  await p.customerPortal.benefitGrants.list();
  await p.customerPortal.benefitGrants.get(grant.id);
  await p.customerPortal.benefitGrants.update(grant.id, { benefit_type: "custom" });
  await p.customerPortal.downloadables.list();
  await p.customerPortal.licenseKeys.list();
  await p.customerPortal.licenseKeys.get(key.id);
  await p.customerPortal.licenseKeys.validate({ key: key.key, organization_id: org.id });
  const own = await p.customerPortal.licenseKeys.activate({ key: key.key, organization_id: org.id, label: "Desktop" });
  await p.customerPortal.licenseKeys.deactivate({ key: key.key, organization_id: org.id, activation_id: own.id });
  const portalMeters = await p.customerPortal.customerMeters.list();
  await p.customerPortal.customerMeters.get(portalMeters.items[0].id);

  // What the 1.x client cannot send its parameters to: refused, as the contract says.
  for (const refused of [
    () => c.user.oauth2.authorize(),
    () => m.oauth2.requestToken(),
    () => m.oauth2.revokeToken(),
    () => m.oauth2.introspectToken(),
  ]) {
    await refused().catch(() => undefined);
  }

  // Deletions last.
  await m.files.delete(file.id);
  await m.webhooks.deleteWebhookEndpoint(endpoint.id);
  await m.checkoutLinks.delete(link.id);
  await m.discounts.delete(discount.id);
  await m.customFields.delete(field.id);
  await m.benefits.delete((await m.benefits.create({ type: "custom", description: "Short-lived", properties: { note: null } })).id);
  await m.customers.delete((await m.customers.create({ email: uniqueEmail("gone") })).id);
  const goneExternal = `gone-${randomUUID().slice(0, 8)}`;
  await m.customers.create({ email: uniqueEmail("gone"), external_id: goneExternal });
  await m.customers.deleteExternal(goneExternal);
}

const VERSIONS = [
  { version: "2026-04", createPolar: createPolar2604 },
  { version: "2026-10", createPolar: createPolar2610 },
] as const;
const declared = new Map<string, DeclaredClient>(VERSIONS.map(({ version }) => [version, declaredClient(`polar-sdk-1/${version}`)]));

for (const { version, createPolar } of VERSIONS) {
  describe(`@polar-sh/sdk 1.0.1, createPolar of ${version}`, () => {
    const types = declared.get(version);
    const others = VERSIONS.map((v) => declared.get(v.version)).filter((d) => d && d !== types);
    const calls: Call[] = [];
    const refusals = new Map<string, unknown>();
    let ops = new Map<string, Sdk1Operation>();
    let walked: unknown;

    beforeAll(async () => {
      ops = await sdk1Operations(createPolar({ accessToken: "x", baseUrl: "http://localhost" }));
      const { org, token } = await orgWithToken(api.knex);
      const owner = await ownerWithOrganization(api.url, "Walk owner");
      const sessionToken = decodeURIComponent(/borealis\.session_token=([^;.]+)/.exec(owner.browser.cookie())?.[1] ?? "");
      const make = (accessToken: string) => recorded(createPolar({ accessToken, baseUrl: api.url, timeout: 30 }), calls);
      walked = await walk({ merchant: make(token), user: make(sessionToken), portal: make }, org).then(
        () => null,
        (err: unknown) => err,
      );
      // The methods we do not serve: called with made-up ids and an empty body or query.
      const merchant = createPolar({ accessToken: token, baseUrl: api.url });
      for (const method of Object.keys(NOT_SERVED)) {
        const fn = method
          .split(".")
          .reduce<unknown>((node, key) => (node && typeof node === "object" ? Reflect.get(node, key) : undefined), merchant);
        const args = [...Array.from({ length: ops.get(method)?.pathParameters ?? 0 }, () => randomUUID()), {}];
        if (typeof fn === "function")
          refusals.set(
            method,
            await Promise.resolve(fn(...args)).then(
              () => "answered",
              (e: unknown) => e,
            ),
          );
      }
    }, 240_000);

    it("walks to the end", () => {
      const failed = calls.find((x) => x.error !== undefined && !SENDS_NO_PARAMETERS.has(x.method));
      const err = failed?.error;
      expect(failed ? `${failed.method}: ${err instanceof PolarClientError ? JSON.stringify(err.error) : String(err)}` : walked).toBeNull();
    });

    it("has every method of the client in the walk or in a list, and the lists are right", () => {
      const methods = types?.methods ?? [];
      expect([...ops.keys()].sort()).toEqual([...methods]);
      for (const [method, op] of ops) {
        const listed = NOT_SERVED[method] !== undefined;
        expect(listed && NOT_WALKED.has(method), method).toBe(false);
        // A method is in the contract exactly when it is not in the list of what the contract does not serve.
        expect(op.operationId === undefined, `${method} (${op.request})`).toBe(listed);
      }
      expect(methods.length).toBe(190);
    });

    it("calls each method we do not serve and gets a 404 or 405 (or the 422 of an operation of ours its path fits)", () => {
      for (const method of Object.keys(NOT_SERVED)) {
        const err = refusals.get(method);
        const op = ops.get(method);
        expect(err, method).toBeInstanceOf(PolarClientError);
        if (!(err instanceof PolarClientError)) continue;
        // `GET /v1/orders/export` is `GET /v1/orders/{id}` with an id that is not one: that operation's 404 or 422.
        expect(
          op?.routedTo ? [404, 405, 422] : [404, 405],
          `${method} ${op?.request}${op?.routedTo ? ` (as ${op.routedTo})` : ""}`,
        ).toContain(err.statusCode);
      }
    });

    it("answers the OAuth2 calls it sends no parameters to with invalid_request", () => {
      for (const method of SENDS_NO_PARAMETERS) {
        const call = calls.find((x) => x.method === method);
        expect(call?.error, method).toBeInstanceOf(PolarClientError);
        const err = call?.error as PolarClientError;
        expect(err.statusCode, method).toBe(400);
        expect(String(err.error), method).toContain("invalid_request");
      }
    });

    const served = () =>
      [...(types?.methods ?? [])].filter((m) => NOT_SERVED[m] === undefined && !NOT_WALKED.has(m) && !SENDS_NO_PARAMETERS.has(m));
    it.each(served())("%s answers what the version declares", (method) => {
      const mine = calls.filter((x) => x.method === method);
      expect(mine.length, `${method} was not called`).toBeGreaterThan(0);
      for (const call of mine) {
        expect(call.error === undefined ? null : String(call.error), method).toBeNull();
        const { errors, undeclared } = types?.check(method, call.result) ?? { errors: ["no declarations"], undeclared: [] };
        // A property this version does not declare but another does is the other version's shape.
        const othersOnly = undeclared.filter((u) => {
          const [model, field] = u.split(".");
          return others.some((o) => {
            try {
              return o !== undefined && field in o.modelProperties(model);
            } catch {
              return false;
            }
          });
        });
        const problems = [...errors, ...othersOnly.map((u) => `${u}: another version's field`)];
        expect(problems, `${method}:\n  ${problems.join("\n  ")}`).toEqual([]);
      }
    });
  });
}
