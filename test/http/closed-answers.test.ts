// A buyer (the checkout by its client secret) or a portal customer reads only what the contract
// declares for them: in tests their answers are checked against the closed contract
// (server/kit/contract.ts, `closedContract`), so an undeclared property is a 500. The models'
// answers are compared with the contract too: the public checkout's organization and tax
// calculation, a portal order's subscription metadata, the tax id check on embedded customers.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { contractRoutes } from "../../generated/routes.js";
import type { OperationId } from "../../generated/handlers.js";
import { readByOutsiders, responseValidators } from "../../server/kit/contract.js";
import {
  type ApiHandle,
  createBenefit,
  createBenefitGrant,
  createCustomerSessionToken,
  createLicenseKey,
  createOrder,
  createOrganization,
  createSubscriptionFixture,
  orgWithToken,
  plainJson,
  useTestApi,
} from "../harness/index.js";

/** The slugs whose portal organization answer the mocked handler adds a property to, at the top or inside the organization. */
const LEAKY = { top: "leaky-top", nested: "leaky-nested" };

vi.mock("../../server/handlers.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../server/handlers.js")>();
  type GetOrganization = (typeof original.handlers)["customer_portal:organizations:get"];
  const realGet: GetOrganization = original.handlers["customer_portal:organizations:get"];
  const get: GetOrganization = async (input, ctx) => {
    const out = await realGet(input, ctx);
    if (input.params.slug === "leaky-top") return { status: out.status, body: Object.assign({}, out.body, { internal_note: "x" }) };
    if (input.params.slug !== "leaky-nested") return out;
    return {
      status: out.status,
      body: Object.assign({}, out.body, { organization: Object.assign({}, out.body.organization, { internal_note: "x" }) }),
    };
  };
  return { ...original, handlers: { ...original.handlers, "customer_portal:organizations:get": get } };
});

const api = useTestApi();
let unchecked: ApiHandle;
const { routes, schemas } = contractRoutes();
const closedCheck = responseValidators(schemas, routes, () => true);

/**
 * The properties the closed contract finds undeclared in an answer, as `<path> <property>`. Only
 * these: an answer on the wire is in the default API version, which leaves out properties of later ones.
 */
function undeclared(operationId: OperationId, status: number, body: unknown): string[] {
  const validate = closedCheck(operationId, status)!;
  if (validate(body)) return [];
  const found = (validate.errors ?? []).filter((e) => e.keyword === "unevaluatedProperties");
  return [...new Set(found.map((e) => `${e.instancePath} ${String(e.params.unevaluatedProperty)}`))];
}

/** A JSON answer, read field by field. */
interface Json {
  readonly [key: string]: Json;
}

/** The properties a component schema of the contract declares. */
function declared(name: string): string[] {
  const properties = schemas[name]?.properties;
  return properties && typeof properties === "object" ? Object.keys(properties) : [];
}

async function raw(base: string, path: string, opts: { token?: string; method?: string; body?: unknown } = {}) {
  const res = await fetch(`${base}${path}`, {
    method: opts.method ?? "GET",
    headers: { "content-type": "application/json", ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}) },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

beforeAll(async () => {
  unchecked = await api.startAnother({ validateResponses: false });
});

describe("the closed contract in the test pipeline", () => {
  it("applies to the buyer's and the portal's operations, not the merchant's", () => {
    const outsiders: OperationId[] = [
      "checkouts:client_get",
      "checkouts:client_update",
      "checkouts:client_confirm",
      "customer_portal:orders:get",
    ];
    const merchants: OperationId[] = ["checkouts:get", "orders:get", "customers:get", "oauth2:request_token"];
    expect(outsiders.filter((id) => !readByOutsiders(id))).toEqual([]);
    expect(merchants.filter((id) => readByOutsiders(id))).toEqual([]);
    // Every portal operation, those without a session included.
    expect(routes.filter((op) => op.operationId.startsWith("customer_portal:") && !readByOutsiders(op.operationId))).toEqual([]);
  });

  it("turns a portal answer with an undeclared property, at the top or nested, into a 500", async () => {
    for (const slug of Object.values(LEAKY)) await createOrganization(api.knex, { slug });
    const path = (slug: string) => `/v1/customer-portal/organizations/${slug}`;
    for (const slug of Object.values(LEAKY)) {
      const checked = await raw(api.url, path(slug));
      expect([slug, checked.status, checked.body.error]).toEqual([slug, 500, "ResponseContractViolation"]);
      expect(checked.body.detail).toContain("internal_note");
    }
    // Without the check the property goes out; the official client would drop it and never tell.
    expect((await raw(unchecked.url, path(LEAKY.top))).body.internal_note).toBe("x");
    expect((await raw(unchecked.url, path(LEAKY.nested))).body.organization.internal_note).toBe("x");
  });

  it("lets through what a schema built with allOf declares, its members' properties included", () => {
    const card = {
      id: "00000000-0000-4000-8000-000000000001",
      created_at: "2026-01-01T00:00:00Z",
      modified_at: null,
      processor: "stripe",
      customer_id: "00000000-0000-4000-8000-000000000002",
      type: "card",
      method_metadata: { brand: "visa", last4: "4242", exp_month: 12, exp_year: 2030, wallet: null },
    };
    const saved = Object.assign({ status: "succeeded", payment_method: card }, card);
    expect(undeclared("customer_portal:customers:add_payment_method", 201, saved)).toEqual([]);
    expect(undeclared("customer_portal:customers:add_payment_method", 201, Object.assign({ processor_ref: "pm_1" }, saved))).toEqual([
      " processor_ref",
    ]);
    // Nested in a union: each member it fails names the property (the generic one names the card's metadata too).
    const cardWithRef = Object.assign({}, card, { processor_ref: "pm_1" });
    expect(
      undeclared("customer_portal:customers:add_payment_method", 201, Object.assign({}, saved, { payment_method: cardWithRef })),
    ).toContain("/payment_method processor_ref");
  });

  it("takes a 422 issue with the input it refuses, as Polar answers it, and nothing else undeclared", () => {
    const issue = { loc: ["body", "customer_email"], msg: "value is not a valid email address", type: "value_error" };
    expect(undeclared("checkouts:client_update", 422, { detail: [Object.assign({ input: "a@" }, issue)] })).toEqual([]);
    expect(undeclared("checkouts:client_update", 422, { detail: [Object.assign({ url: "https://errors.example" }, issue)] })).toEqual([
      "/detail/0 url",
    ]);
  });
});

describe("the answers as the models build them", () => {
  it("shows the buyer of a public checkout the organization as CheckoutOrganization declares it, and the quote's tax without its calculation", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const call = plainJson(unchecked.url, token);
    const seller = { provider: "builtin", origin_country: "FR", prices_include_tax: false, registrations: [{ country: "FR" }] };
    expect((await call("PATCH", `/v1/organizations/${org.id}`, { tax_settings: seller })).status).toBe(200);
    const product = await call("POST", "/v1/products/", {
      name: "E-book",
      tax_category: "digital_service",
      prices: [{ amount_type: "fixed", price_amount: 1000, price_currency: "eur" }],
    });
    const checkout = await call("POST", "/v1/checkouts/", { products: [product.body.id] });
    expect(checkout.status).toBe(201);
    const path = `/v1/checkouts/client/${String(checkout.body.client_secret)}`;

    const got = await raw(unchecked.url, path);
    expect(Object.keys(got.body.organization).sort()).toEqual(declared("CheckoutOrganization").sort());
    expect(got.body.organization).not.toHaveProperty("tax_settings");
    expect(undeclared("checkouts:client_get", 200, got.body)).toEqual([]);

    const taxed = await raw(unchecked.url, path, { method: "PATCH", body: { customer_billing_address: { country: "FR" } } });
    expect([taxed.status, taxed.body.tax_amount, taxed.body.taxability_reason]).toEqual([200, 200, "standard_rated"]);
    expect(taxed.body).not.toHaveProperty("tax_calculation");
    expect(undeclared("checkouts:client_update", 200, taxed.body)).toEqual([]);
  });

  it("shows a portal customer the order of a subscription without the merchant's subscription metadata", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const sub = await createSubscriptionFixture(api.knex, {
      startedAt: new Date(),
      organizationId: org.id,
      overrides: { metadata: JSON.stringify({ crm_segment: "whale" }) },
    });
    const order = await createOrder(
      api.knex,
      org.id,
      { customerId: sub.customerId, productId: sub.productId, productPriceId: sub.priceId },
      { subscription_id: sub.subscription.id, billing_reason: "subscription_create" },
    );
    const session = await createCustomerSessionToken(api.knex, sub.customerId);

    const merchant = await raw(unchecked.url, `/v1/orders/${order.id}`, { token });
    expect(merchant.body.subscription.metadata).toEqual({ crm_segment: "whale" });
    const portal = await raw(unchecked.url, `/v1/customer-portal/orders/${order.id}`, { token: session });
    expect(portal.status).toBe(200);
    expect(portal.body.subscription.id).toBe(sub.subscription.id);
    expect(portal.body.subscription).not.toHaveProperty("metadata");
    expect(undeclared("customer_portal:orders:get", 200, portal.body)).toEqual([]);
    const listed = await raw(unchecked.url, `/v1/customer-portal/orders/`, { token: session });
    expect(undeclared("customer_portal:orders:list", 200, listed.body)).toEqual([]);
  });

  it("keeps the registry's tax id check on the Customer, off the customer inside orders, subscriptions and license keys", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const sub = await createSubscriptionFixture(api.knex, { startedAt: new Date(), organizationId: org.id });
    await api
      .knex("customers")
      .where({ id: sub.customerId })
      .update({ tax_id: JSON.stringify(["FR40303265045", "eu_vat"]) });
    const order = await createOrder(api.knex, org.id, { customerId: sub.customerId, productId: sub.productId });
    const key = await createLicenseKey(api.knex, org.id, { customerId: sub.customerId });
    const session = await createCustomerSessionToken(api.knex, sub.customerId);

    const customer = await raw(unchecked.url, `/v1/customers/${sub.customerId}`, { token });
    expect(customer.body.tax_id_check).toMatchObject({ status: expect.any(String) });
    const inside = {
      order: (await raw(unchecked.url, `/v1/orders/${order.id}`, { token })).body.customer,
      subscription: (await raw(unchecked.url, `/v1/subscriptions/${sub.subscription.id}`, { token })).body.customer,
      licenseKey: (await raw(unchecked.url, `/v1/license-keys/${key.id}`, { token })).body.customer,
      portalLicenseKey: (await raw(unchecked.url, `/v1/customer-portal/license-keys/${key.id}`, { token: session })).body.customer,
    };
    for (const [where, c] of Object.entries(inside)) {
      expect([where, c.id, c.tax_id]).toEqual([where, sub.customerId, ["FR40303265045", "eu_vat"]]);
      expect([where, Object.hasOwn(c, "tax_id_check")]).toEqual([where, false]);
    }
    const portalKey = await raw(unchecked.url, `/v1/customer-portal/license-keys/${key.id}`, { token: session });
    expect(undeclared("customer_portal:license_keys:get", 200, portalKey.body)).toEqual([]);
  });

  it("shows a portal customer and the storefront lookup the organization as CustomerOrganization declares it", async () => {
    const { org } = await orgWithToken(api.knex);
    const sub = await createSubscriptionFixture(api.knex, { startedAt: new Date(), organizationId: org.id });
    const order = await createOrder(api.knex, org.id, { customerId: sub.customerId, productId: sub.productId });
    await createBenefitGrant(api.knex, (await createBenefit(api.knex, org.id)).id, sub.customerId);
    const session = await createCustomerSessionToken(api.knex, sub.customerId);

    const lookup = await raw(unchecked.url, `/v1/customer-portal/organizations/${org.slug}`);
    const grants = await raw(unchecked.url, "/v1/customer-portal/benefit-grants/", { token: session });
    const organizations = {
      lookup: lookup.body.organization,
      order: (await raw(unchecked.url, `/v1/customer-portal/orders/${order.id}`, { token: session })).body.product.organization,
      subscription: (await raw(unchecked.url, `/v1/customer-portal/subscriptions/${sub.subscription.id}`, { token: session })).body.product
        .organization,
      benefit: grants.body.items[0]!.benefit.organization,
    };
    for (const [where, o] of Object.entries(organizations)) {
      expect([where, Object.keys(o).sort()]).toEqual([where, declared("CustomerOrganization").sort()]);
    }
    expect(declared("CustomerOrganization")).not.toContain("tax_settings");
    expect(undeclared("customer_portal:organizations:get", 200, lookup.body)).toEqual([]);
    expect(undeclared("customer_portal:benefit-grants:list", 200, grants.body)).toEqual([]);
  });
});
