// The customer portal through the official client: the authenticated customer reads and
// updates their billing details (the type of a bare tax id found from the billing country), and
// the unauthenticated storefront lookup by organization slug.
import { describe, expect, it, beforeAll } from "vitest";
import { Polar } from "@polar-sh/sdk";
import { HTTPValidationError } from "@polar-sh/sdk/models/errors/httpvalidationerror.js";
import { ResourceNotFound } from "@polar-sh/sdk/models/errors/resourcenotfound.js";
import { SDKError } from "@polar-sh/sdk/models/errors/sdkerror.js";
import {
  createBenefit,
  createCustomer,
  createCustomerSessionToken,
  createFile,
  orgWithToken,
  outboxTypes,
  rejects,
  useTestApi,
} from "../harness/index.js";

const api = useTestApi();

describe("customer portal: customers/me", () => {
  let merchant: Polar;
  let orgId: string;
  let portal: Polar;

  beforeAll(async () => {
    const { org, token } = await orgWithToken(api.knex);
    orgId = org.id;
    merchant = api.client(token);
    portal = new Polar({ serverURL: api.url });
  });

  async function sessionFor(customerId: string) {
    return { customerSession: (await merchant.customerSessions.create({ customerId })).token };
  }

  it("reads the authenticated customer", async () => {
    const customer = await merchant.customers.create({
      email: "me@example.com",
      name: "Maya",
      billingAddress: { country: "FR", city: "Paris" },
      taxId: ["FR40303265045", "eu_vat"],
    });
    const me = await portal.customerPortal.customers.get(await sessionFor(customer.id));
    expect(me).toMatchObject({
      id: customer.id,
      email: "me@example.com",
      emailVerified: false,
      name: "Maya",
      billingName: "Maya",
      taxId: ["FR40303265045", "eu_vat"],
      oauthAccounts: {},
      defaultPaymentMethodId: null,
    });
    expect(me.billingAddress).toMatchObject({ country: "FR", city: "Paris" });
  });

  it("updates billing name, address and tax id, finding the tax id type from the country", async () => {
    const customer = await merchant.customers.create({ email: "billing@example.com", name: "Bea" });
    const security = await sessionFor(customer.id);

    const u1 = await portal.customerPortal.customers.update(security, {
      billingName: "Bea GmbH",
      billingAddress: { country: "DE", line1: "Unter den Linden 1", postalCode: "10117", city: "Berlin" },
      taxId: "136 695 976",
    });
    expect(u1).toMatchObject({ billingName: "Bea GmbH", name: "Bea", taxId: ["DE136695976", "eu_vat"] });
    expect(u1.billingAddress).toMatchObject({ country: "DE", city: "Berlin" });

    const u2 = await portal.customerPortal.customers.update(security, {
      billingAddress: { country: "US", state: "CA" },
      taxId: "04-2103594",
    });
    expect(u2.taxId).toEqual(["042103594", "us_ein"]);
    expect(u2.billingName).toBe("Bea GmbH");
    const u3 = await portal.customerPortal.customers.update(security, { billingAddress: { country: "GB" }, taxId: "GB980780684" });
    expect(u3.taxId).toEqual(["GB980780684", "gb_vat"]);
    const u4 = await portal.customerPortal.customers.update(security, { billingAddress: { country: "CA" }, taxId: "754039725RT0001" });
    expect(u4.taxId).toEqual(["754039725RT0001", "ca_gst_hst"]);

    // The tax id type must exist in the billing country.
    let err = await rejects(portal.customerPortal.customers.update(security, { taxId: "DE123456789" }), HTTPValidationError);
    expect(err.data$.detail?.[0].loc).toEqual(["body", "tax_id"]);
    err = await rejects(portal.customerPortal.customers.update(security, { billingAddress: { country: "ZZ" } }), HTTPValidationError);
    expect(err.data$.detail?.[0].loc).toEqual(["body", "billing_address", "country"]);

    const cleared = await portal.customerPortal.customers.update(security, { billingName: null, taxId: null });
    expect(cleared).toMatchObject({ billingName: "Bea", taxId: null });

    // The merchant sees what the customer changed; every change is a customer.updated event.
    const seen = await merchant.customers.get({ id: customer.id });
    expect(seen.billingAddress).toMatchObject({ country: "CA" });
    expect(seen.taxId).toBeNull();
    expect((await outboxTypes(api.knex, orgId)).filter((t) => t === "customer.updated").length).toBeGreaterThanOrEqual(5);
  });

  it("needs a billing country to validate a tax id", async () => {
    const customer = await merchant.customers.create({ email: "nocountry@example.com" });
    const security = await sessionFor(customer.id);
    const err = await rejects(portal.customerPortal.customers.update(security, { taxId: "04-2103594" }), HTTPValidationError);
    expect(err.data$.detail?.[0].loc).toEqual(["body", "billing_address"]);
    const ok = await portal.customerPortal.customers.update(security, { billingAddress: { country: "US" }, taxId: "04-2103594" });
    expect(ok.taxId).toEqual(["042103594", "us_ein"]);
  });

  it("only ever shows the session's own customer", async () => {
    const a = await createCustomer(api.knex, orgId, { email: "a@iso.test" });
    const b = await createCustomer(api.knex, orgId, { email: "b@iso.test" });
    const tokenA = await createCustomerSessionToken(api.knex, a.id);
    expect((await portal.customerPortal.customers.get({ customerSession: tokenA })).email).toBe("a@iso.test");
    await portal.customerPortal.customers.update({ customerSession: tokenA }, { billingName: "A only" });
    const rowB = await api.knex("customers").where({ id: b.id }).first();
    expect(rowB.billing_name).toBeNull();
    const expired = await createCustomerSessionToken(api.knex, a.id, { expiresAt: new Date(Date.now() - 1) });
    const err = await rejects(portal.customerPortal.customers.update({ customerSession: expired }, { billingName: "x" }), SDKError);
    expect(err.statusCode).toBe(401);
  });
});

describe("customer portal: organization storefront", () => {
  it("returns the organization and its live public products, without authentication", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const merchant = api.client(token);
    const benefit = await createBenefit(api.knex, org.id, { description: "Community access" });
    const media = await createFile(api.knex, org.id);
    const monthly = await merchant.products.create({
      name: "Monthly",
      recurringInterval: "month",
      prices: [{ amountType: "fixed", priceAmount: 900 }],
      medias: [media.id],
      metadata: { internal: "secret" },
    });
    await merchant.products.updateBenefits({ id: monthly.id, productBenefitsUpdate: { benefits: [benefit.id] } });
    const once = await merchant.products.create({
      name: "Lifetime",
      recurringInterval: null,
      prices: [{ amountType: "custom", minimumAmount: 500 }],
    });
    const archived = await merchant.products.create({ name: "Old", recurringInterval: null, prices: [{ amountType: "free" }] });
    await merchant.products.update({ id: archived.id, productUpdate: { isArchived: true } });
    // Private products are sold through checkouts and links only; drafts nowhere.
    await api
      .client049(token)
      .products.create({ name: "Partner deal", visibility: "private", prices: [{ amountType: "fixed", priceAmount: 100 }] });
    await api
      .client049(token)
      .products.create({ name: "Coming soon", visibility: "draft", prices: [{ amountType: "fixed", priceAmount: 100 }] });

    const anonymous = new Polar({ serverURL: api.url });
    const store = await anonymous.customerPortal.organizations.get({ slug: org.slug });
    expect(store.organization).toMatchObject({ id: org.id, slug: org.slug, name: org.name });
    expect(store.products.map((p) => p.id)).toEqual([monthly.id, once.id]);
    const [m, o] = store.products;
    expect(m).toMatchObject({ name: "Monthly", isRecurring: true, recurringInterval: "month", isArchived: false, organizationId: org.id });
    expect(m.prices[0]).toMatchObject({ amountType: "fixed", priceAmount: 900 });
    expect(m.benefits).toEqual([expect.objectContaining({ id: benefit.id, type: "custom", description: "Community access" })]);
    expect(m.benefits[0]).not.toHaveProperty("properties");
    expect(m.medias.map((x) => x.id)).toEqual([media.id]);
    expect(m).not.toHaveProperty("metadata");
    expect(o.prices[0]).toMatchObject({ amountType: "custom", minimumAmount: 500 });

    // Raw: no metadata leaks to the public.
    const raw = (await (await fetch(`${api.url}/v1/customer-portal/organizations/${org.slug}`)).json()) as {
      products: Record<string, unknown>[];
    };
    expect(raw.products[0]).not.toHaveProperty("metadata");
    expect(JSON.stringify(raw)).not.toContain("secret");
  });

  it("answers 404 for an unknown slug", async () => {
    const anonymous = new Polar({ serverURL: api.url });
    await rejects(anonymous.customerPortal.organizations.get({ slug: "no-such-org-here" }), ResourceNotFound);
  });

  it("shows an organization without products", async () => {
    const { org } = await orgWithToken(api.knex);
    const store = await new Polar({ serverURL: api.url }).customerPortal.organizations.get({ slug: org.slug });
    expect(store.products).toEqual([]);
  });
});
