// Customers through the official client: create / get / list / update / delete by id and by
// external id, email and external id uniqueness, billing address and tax id rules, the state
// view, every filter and sort key, paging, events, the error contract and tenant isolation.
import type { TaxIDFormat } from "@polar-sh/sdk/models/components/taxidformat.js";
import type { CustomerSortProperty } from "@polar-sh/sdk/models/components/customersortproperty.js";
import { describe, expect, it, beforeAll } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import { HTTPValidationError } from "@polar-sh/sdk/models/errors/httpvalidationerror.js";
import { ResourceNotFound } from "@polar-sh/sdk/models/errors/resourcenotfound.js";
import { SDKError } from "@polar-sh/sdk/models/errors/sdkerror.js";
import type { Customer } from "@polar-sh/sdk/models/components/customer.js";
import { HTTPValidationError as HTTPValidationError049 } from "polar-sdk-049/models/errors/httpvalidationerror.js";
import {
  collectPages,
  createBenefit,
  createCustomer,
  createCustomerSessionToken,
  createSubscriptionFixture,
  locOf,
  orgWithToken,
  outboxTypes,
  rejects,
  useTestApi,
} from "../harness/index.js";

const api = useTestApi();

async function collect(polar: Polar, req: Parameters<Polar["customers"]["list"]>[0]): Promise<Customer[]> {
  return collectPages(await polar.customers.list(req));
}

describe("customers", () => {
  let polar: Polar;
  let orgId: string;

  beforeAll(async () => {
    const { org, token } = await orgWithToken(api.knex);
    orgId = org.id;
    polar = api.client(token);
  });

  it("creates a customer and reads it back by id and by external id", async () => {
    const created = await polar.customers.create({
      email: "ada@example.com",
      name: "Ada Lovelace",
      externalId: "user_1",
      billingAddress: { country: "de", line1: "Hauptstraße 1", postalCode: "10115", city: "Berlin" },
      taxId: ["de 136 695 976", "eu_vat"],
      metadata: { plan: "pro", seats: 3, beta: true },
    });
    expect(created).toMatchObject({
      email: "ada@example.com",
      name: "Ada Lovelace",
      externalId: "user_1",
      emailVerified: false,
      organizationId: orgId,
      deletedAt: null,
      modifiedAt: null,
      metadata: { plan: "pro", seats: 3, beta: true },
      taxId: ["DE136695976", "eu_vat"],
    });
    expect(created.billingAddress).toEqual({
      country: "DE",
      line1: "Hauptstraße 1",
      line2: null,
      postalCode: "10115",
      city: "Berlin",
      state: null,
    });
    expect(created.avatarUrl).toMatch(/^https:\/\/www\.gravatar\.com\/avatar\/[0-9a-f]{64}\?d=404$/);
    expect(created.createdAt).toBeInstanceOf(Date);

    expect(await polar.customers.get({ id: created.id })).toEqual(created);
    expect(await polar.customers.getExternal({ externalId: "user_1" })).toEqual(created);
    expect(await outboxTypes(api.knex, orgId)).toContain("customer.created");
    const event = await api.knex("outbox").where({ organization_id: orgId, type: "customer.created" }).orderBy("id", "desc").first();
    expect(event.payload).toMatchObject({ type: "customer.created", data: { id: created.id, email: "ada@example.com" } });

    const minimal = await polar.customers.create({ email: "min@example.com" });
    expect(minimal).toMatchObject({ name: null, externalId: null, billingAddress: null, taxId: null, metadata: {} });
  });

  it("shows the type and the billing name to both clients, the billing name falling back to the name", async () => {
    const { token } = await orgWithToken(api.knex);
    const [older, newer] = [api.client(token), api.client049(token)];
    const created = await newer.customers.create({ type: "individual", email: "kind@example.com", name: "Kim" });
    expect(created).toMatchObject({ type: "individual", name: "Kim", billingName: "Kim" });
    const session = await createCustomerSessionToken(api.knex, created.id);
    await newer.customerPortal.customers.update({ customerSession: session }, { billingName: "Kim GmbH" });
    expect(await newer.customers.get({ id: created.id })).toMatchObject({ type: "individual", name: "Kim", billingName: "Kim GmbH" });
    // 0.34.17 knows neither field and reads the customer as before.
    expect(await older.customers.get({ id: created.id })).toMatchObject({ id: created.id, name: "Kim", email: "kind@example.com" });
    const state = await newer.customers.getState({ id: created.id });
    expect(state).toMatchObject({ type: "individual", billingName: "Kim GmbH" });
    const row = await api.knex("customers").where({ id: created.id }).first();
    expect(row).toMatchObject({ type: "individual", billing_name: "Kim GmbH" });

    // 0.49.0 sends a tax id as its value alone: its type is found from the billing country.
    const taxed = await newer.customers.create({
      type: "individual",
      email: "gmbh@example.com",
      billingAddress: { country: "DE" },
      taxId: "136 695 976",
    });
    expect(taxed.taxId).toEqual(["DE136695976", "eu_vat"]);
    expect(
      (await newer.customers.update({ id: taxed.id, customerUpdate: { billingAddress: { country: "US" }, taxId: "04-2103594" } })).taxId,
    ).toEqual(["042103594", "us_ein"]);
    const noCountry = await rejects(
      newer.customers.create({ type: "individual", email: "nocountry@example.com", taxId: "123456789" }),
      HTTPValidationError049,
    );
    expect(noCountry.detail?.[0]?.loc).toEqual(["body", "billing_address"]);

    // A team customer (its members: test/members/), and an individual made a team, which stays one.
    const team = await newer.customers.create({ type: "team", email: "team@example.com" });
    expect(team).toMatchObject({ type: "team", email: "team@example.com" });
    expect(await newer.customers.getState({ id: team.id })).toMatchObject({ type: "team" });
    expect(await older.customers.get({ id: team.id })).toMatchObject({ id: team.id, email: "team@example.com" });
    expect(await newer.customers.update({ id: created.id, customerUpdate: { type: "team" } })).toMatchObject({ type: "team" });
    const downgrade = await rejects(
      newer.customers.update({ id: created.id, customerUpdate: { type: "individual" } }),
      HTTPValidationError049,
    );
    expect(downgrade.detail?.[0]?.loc).toEqual(["body", "type"]);
  });

  it("keeps emails unique per organization, case-insensitively, on create and update", async () => {
    const { token } = await orgWithToken(api.knex);
    const c = api.client(token);
    const a = await c.customers.create({ email: "Dup@Example.com" });
    expect(await locOf(c.customers.create({ email: "dup@example.COM" }))).toEqual(["body", "email"]);
    const b = await c.customers.create({ email: "other@example.com" });
    expect(await locOf(c.customers.update({ id: b.id, customerUpdate: { email: "DUP@example.com" } }))).toEqual(["body", "email"]);
    // Changing the case of one's own email is not a clash.
    const same = await c.customers.update({ id: a.id, customerUpdate: { email: "dup@example.com" } });
    expect(same.email).toBe("dup@example.com");
    // The same email in another organization is fine.
    expect((await polar.customers.create({ email: "dup@example.com" })).email).toBe("dup@example.com");

    await c.customers.create({ email: "ext1@example.com", externalId: "ext-1" });
    expect(await locOf(c.customers.create({ email: "ext2@example.com", externalId: "ext-1" }))).toEqual(["body", "external_id"]);
  });

  it("lets exactly one of concurrent creates with the same email win", async () => {
    const { token } = await orgWithToken(api.knex);
    const c = api.client(token);
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) => c.customers.create({ email: `Race@example.com`, name: `r${i}` })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results.filter((x) => x.status === "rejected")) {
      const err = (r as PromiseRejectedResult).reason;
      expect(err).toBeInstanceOf(HTTPValidationError);
      expect((err as HTTPValidationError).data$.detail?.[0].loc).toEqual(["body", "email"]);
    }
  });

  it("validates emails, billing addresses and tax ids", async () => {
    expect(await locOf(polar.customers.create({ email: "not-an-email" }))).toEqual(["body", "email"]);
    expect(await locOf(polar.customers.create({ email: "addr@example.com", billingAddress: { country: "XX" } }))).toEqual([
      "body",
      "billing_address",
      "country",
    ]);
    expect(await locOf(polar.customers.create({ email: "addr@example.com", billingAddress: { country: "" } }))).toEqual([
      "body",
      "billing_address",
      "country",
    ]);

    const valid: [string, TaxIDFormat][] = [
      ["FR40303265045", "eu_vat"],
      ["NL004495445B01", "eu_vat"],
      ["GB980780684", "gb_vat"],
      ["04-2103594", "us_ein"],
      ["754039725RT0001", "ca_gst_hst"],
      ["83 914 571 673", "au_abn"],
      ["27AAPFU0939F1ZV", "in_gst"],
      ["16.727.230/0001-97", "br_cnpj"],
      ["390.533.447-05", "br_cpf"],
      ["CHE-107.787.577 MWST", "ch_vat"],
      ["995525828MVA", "no_vat"],
      ["T1234567891234", "jp_trn"],
      ["M12345678X", "sg_gst"],
      ["4999999999", "za_vat"],
      ["EU123456789", "eu_oss_vat"],
      ["J99216582", "es_cif"],
      ["GODE561231GR8", "mx_rfc"],
      ["116-82-00276", "kr_brn"],
      // Stripe's examples of the types checked by their form
      ["123456789012", "kz_bin"],
      ["12345678-0001", "ng_tin"],
      ["123456789012", "ph_tin"],
      ["123456789012345", "sa_vat"],
    ];
    for (const [i, [value, type]] of valid.entries()) {
      const c = await polar.customers.create({ email: `tax-ok-${i}@example.com`, taxId: [value, type] });
      expect(c.taxId?.[1], type).toBe(type);
    }
    const invalid: [string, TaxIDFormat][] = [
      ["DE12345", "eu_vat"],
      ["XX123456789", "eu_vat"],
      ["123456789", "gb_vat"],
      ["1234567", "us_ein"],
      ["123456789", "ca_gst_hst"],
      ["1234567891", "au_abn"],
      ["22AAAAA0000A1Y5", "in_gst"],
      ["01.234.456/5432", "br_cnpj"],
      ["5123456789", "za_vat"],
      ["12345678901", "kz_bin"],
      ["1234567-0001", "ng_tin"],
      ["123-456-789", "ph_tin"],
      ["SA12345678901234", "sa_vat"],
      // the right shape, a wrong check digit
      ["DE136695977", "eu_vat"],
      ["GB980780685", "gb_vat"],
      ["00-3456789", "us_ein"],
    ];
    for (const [value, type] of invalid) {
      expect(await locOf(polar.customers.create({ email: "tax-bad@example.com", taxId: [value, type] })), `${type} ${value}`).toEqual([
        "body",
        "tax_id",
      ]);
    }
    // Unknown type, wrong arity.
    expect((await locOf(polar.customers.create({ email: "tax-bad@example.com", taxId: ["123", "xx_vat"] })))?.slice(0, 2)).toEqual([
      "body",
      "tax_id",
    ]);
    expect(await locOf(polar.customers.create({ email: "tax-bad@example.com", taxId: ["DE123456789"] }))).toEqual(["body", "tax_id"]);
    // An EU VAT number without its prefix takes it from the billing country.
    const prefixed = await polar.customers.create({
      email: "tax-prefix@example.com",
      billingAddress: { country: "AT" },
      taxId: ["U13585627", "eu_vat"],
    });
    expect(prefixed.taxId).toEqual(["ATU13585627", "eu_vat"]);
  });

  it("refuses an email longer than RFC 5321 allows: 254 characters, 64 before the @", async () => {
    // A domain of `n` characters in labels of at most 63.
    const domain = (n: number) => `${"d".repeat(n - 4 - 2 * 61)}.${"e".repeat(60)}.${"f".repeat(60)}.com`;
    const longest = `${"l".repeat(64)}@${domain(189)}`;
    expect(longest).toHaveLength(254);
    const created = await polar.customers.create({ email: longest });
    expect(created.email).toBe(longest);
    const refused = async (p: Promise<unknown>) => (await rejects(p, HTTPValidationError)).detail?.map((d) => [d.loc.join("."), d.msg]);
    expect(await refused(polar.customers.create({ email: `${"l".repeat(64)}@${domain(190)}` }))).toEqual([
      ["body.email", "value is not a valid email address: The email address is too long (1 character too many)."],
    ]);
    expect(await refused(polar.customers.create({ email: `${"l".repeat(66)}@example.com` }))).toEqual([
      ["body.email", "value is not a valid email address: The email address is too long before the @-sign (2 characters too many)."],
    ]);
    expect(await refused(polar.customers.update({ id: created.id, customerUpdate: { email: `${"l".repeat(65)}@example.com` } }))).toEqual([
      ["body.email", "value is not a valid email address: The email address is too long before the @-sign (1 character too many)."],
    ]);
    expect(await api.knex("customers").where("email", "like", "lll%@example.com")).toEqual([]);
  });

  it("refuses a postal code longer than 16 characters", async () => {
    const address = { country: "US", postalCode: "12345-6789" };
    const created = await polar.customers.create({ email: "postal@example.com", billingAddress: address });
    expect(created.billingAddress?.postalCode).toBe("12345-6789");
    const long = "1".repeat(17);
    expect(
      await locOf(polar.customers.create({ email: "postal-long@example.com", billingAddress: { country: "US", postalCode: long } })),
    ).toEqual(["body", "billing_address", "postal_code"]);
    expect(
      await locOf(
        polar.customers.update({ id: created.id, customerUpdate: { billingAddress: { country: "US", postalCode: `  ${long} ` } } }),
      ),
    ).toEqual(["body", "billing_address", "postal_code"]);
    expect(
      (
        await polar.customers.update({
          id: created.id,
          customerUpdate: { billingAddress: { country: "KY", postalCode: ` ${"K".repeat(16)} ` } },
        })
      ).billingAddress?.postalCode,
    ).toBe("K".repeat(16));
    expect(await api.knex("customers").where({ email: "postal-long@example.com" })).toEqual([]);
  });

  it("answers 422 for malformed bodies and query parameters (raw HTTP)", async () => {
    const { token } = await orgWithToken(api.knex);
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    let res = await fetch(`${api.url}/v1/customers/`, { method: "POST", headers, body: JSON.stringify({ name: "No email" }) });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { detail: { loc: unknown[]; type: string }[] };
    expect(body.detail).toContainEqual(expect.objectContaining({ loc: ["body", "email"], type: "missing" }));
    res = await fetch(`${api.url}/v1/customers/`, {
      method: "POST",
      headers,
      body: JSON.stringify({ email: "a@b.co", billing_address: { city: "Paris" } }),
    });
    expect(res.status).toBe(422);
    res = await fetch(`${api.url}/v1/customers/`, {
      method: "POST",
      headers,
      body: JSON.stringify({ email: "meta@b.co", metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) }),
    });
    expect(res.status).toBe(422);
    res = await fetch(`${api.url}/v1/customers/`, {
      method: "POST",
      headers,
      body: JSON.stringify({ email: "org@b.co", organization_id: "8a0f3b1e-0000-4000-8000-000000000000" }),
    });
    expect(res.status).toBe(422);
    for (const qs of ["limit=0", "limit=101", "page=0", "sorting=bogus", "sorting=-modified_at", "limit=abc"]) {
      res = await fetch(`${api.url}/v1/customers/?${qs}`, { headers });
      expect(res.status, qs).toBe(422);
      const b = (await res.json()) as { detail: { loc: unknown[] }[] };
      expect(b.detail[0].loc[0], qs).toBe("query");
    }
  });

  it("updates by id and by external id", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const c = api.client(token);
    const created = await c.customers.create({ email: "grace@example.com", name: "Grace", metadata: { a: 1 } });
    await api.knex("customers").where({ id: created.id }).update({ email_verified: true });

    const u1 = await c.customers.update({
      id: created.id,
      customerUpdate: {
        name: "Grace Hopper",
        email: "grace.hopper@example.com",
        billingAddress: { country: "US", state: "NY", line1: "1 Main St" },
        taxId: ["04-2103594", "us_ein"],
        metadata: { b: "two" },
        externalId: "gh-1",
      },
    });
    expect(u1).toMatchObject({
      name: "Grace Hopper",
      email: "grace.hopper@example.com",
      emailVerified: false,
      taxId: ["042103594", "us_ein"],
      metadata: { b: "two" },
      externalId: "gh-1",
    });
    expect(u1.billingAddress).toMatchObject({ country: "US", state: "NY", line1: "1 Main St" });
    expect(u1.modifiedAt).toBeInstanceOf(Date);

    // An external id, once set, can't change; setting the same value is a no-op.
    expect(await locOf(c.customers.update({ id: created.id, customerUpdate: { externalId: "gh-2" } }))).toEqual(["body", "external_id"]);
    expect((await c.customers.update({ id: created.id, customerUpdate: { externalId: "gh-1" } })).externalId).toBe("gh-1");
    const other = await c.customers.create({ email: "taken@example.com" });
    expect(await locOf(c.customers.update({ id: other.id, customerUpdate: { externalId: "gh-1" } }))).toEqual(["body", "external_id"]);

    const u2 = await c.customers.updateExternal({
      externalId: "gh-1",
      customerUpdateExternalID: { name: "G. Hopper", billingAddress: null, taxId: null },
    });
    expect(u2).toMatchObject({ id: created.id, name: "G. Hopper", billingAddress: null, taxId: null, email: "grace.hopper@example.com" });
    expect(await locOf(c.customers.update({ id: created.id, customerUpdate: { taxId: ["nope", "us_ein"] } }))).toEqual(["body", "tax_id"]);
    expect(await locOf(c.customers.update({ id: created.id, customerUpdate: { email: "broken" } }))).toEqual(["body", "email"]);

    const types = await outboxTypes(api.knex, org.id);
    expect(types.filter((t) => t === "customer.updated")).toHaveLength(3);
  });

  it("soft-deletes by id and by external id, freeing the email and the external id", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const c = api.client(token);
    const a = await c.customers.create({ email: "gone@example.com", externalId: "gone-1" });
    await c.customers.delete({ id: a.id });
    await rejects(c.customers.get({ id: a.id }), ResourceNotFound);
    await rejects(c.customers.getExternal({ externalId: "gone-1" }), ResourceNotFound);
    await rejects(c.customers.getState({ id: a.id }), ResourceNotFound);
    await rejects(c.customers.update({ id: a.id, customerUpdate: { name: "Zombie" } }), ResourceNotFound);
    await rejects(c.customers.delete({ id: a.id }), ResourceNotFound);
    expect((await collect(c, {})).map((x) => x.id)).not.toContain(a.id);
    const row = await api.knex("customers").where({ id: a.id }).first();
    expect(row.deleted_at).not.toBeNull();

    const b = await c.customers.create({ email: "GONE@example.com", externalId: "gone-1" });
    expect(b.id).not.toBe(a.id);
    await c.customers.deleteExternal({ externalId: "gone-1" });
    await rejects(c.customers.get({ id: b.id }), ResourceNotFound);
    await rejects(c.customers.deleteExternal({ externalId: "gone-1" }), ResourceNotFound);

    const types = await outboxTypes(api.knex, org.id);
    expect(types.filter((t) => t === "customer.deleted")).toHaveLength(2);
    const event = await api.knex("outbox").where({ organization_id: org.id, type: "customer.deleted" }).orderBy("id").first();
    expect(event.payload.data).toMatchObject({ id: a.id });
    expect(event.payload.data.deleted_at).not.toBeNull();
  });

  it("anonymizes a deleted customer's personal data when 0.49.0 asks, and only then", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const c = api.client049(token);
    const person = await c.customers.create({
      type: "individual",
      email: "ann@example.com",
      name: "Ann",
      externalId: "ann-1",
      billingAddress: { country: "FR", city: "Lyon" },
    });
    const session = await createCustomerSessionToken(api.knex, person.id);
    await c.customerPortal.customers.update({ customerSession: session }, { billingName: "Ann Dupont" });
    const business = await c.customers.create({
      type: "individual",
      email: "bo@example.com",
      name: "Bo SARL",
      externalId: "bo-1",
      billingAddress: { country: "DE" },
      taxId: "136 695 976",
    });
    const kept = await c.customers.create({ type: "individual", email: "kept@example.com", name: "Kept" });

    await c.customers.delete({ id: person.id, anonymize: true });
    await c.customers.deleteExternal({ externalId: "bo-1", anonymize: true });
    // 0.49.0 sends anonymize=false otherwise: a soft delete that scrubs nothing.
    await c.customers.delete({ id: kept.id });

    const hash = /^[0-9a-f]{64}$/;
    const rowOf = (id: string) => api.knex("customers").where({ id }).first();
    const ann = await rowOf(person.id);
    expect(ann).toMatchObject({ email_verified: false, billing_address: null, external_id: "ann-1", tax_id: null });
    expect(ann.email).toMatch(/^[0-9a-f]{64}@anonymized\.invalid$/);
    expect(ann.name).toMatch(hash);
    expect(ann.billing_name).toMatch(hash);
    expect(ann.deleted_at).not.toBeNull();
    // A business keeps its name and its tax ID, for legal reasons.
    const bo = await rowOf(business.id);
    expect(bo).toMatchObject({ name: "Bo SARL", external_id: "bo-1", tax_id: ["DE136695976", "eu_vat"], billing_address: null });
    expect(bo.email).toMatch(/@anonymized\.invalid$/);
    expect(await rowOf(kept.id)).toMatchObject({ email: "kept@example.com", name: "Kept" });
    // The deletion's event carries the scrubbed customer.
    const events = await api.knex("outbox").where({ organization_id: org.id, type: "customer.deleted" });
    const deletedAnn = events.find((e) => e.payload.data.id === person.id);
    expect(deletedAnn.payload.data).toMatchObject({ email: ann.email, name: ann.name, billing_address: null });
    // Its email is free for a new customer.
    expect((await c.customers.create({ type: "individual", email: "ann@example.com" })).email).toBe("ann@example.com");
  });

  it("returns the state with granted benefits, by id and by external id", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const c = api.client(token);
    const cust = await c.customers.create({ email: "state@example.com", externalId: "st-1", metadata: { k: "v" } });
    const empty = await c.customers.getState({ id: cust.id });
    expect(empty).toMatchObject({
      id: cust.id,
      email: "state@example.com",
      activeSubscriptions: [],
      grantedBenefits: [],
      activeMeters: [],
    });
    expect(empty.avatarUrl).toBe(cust.avatarUrl);

    const benefit = await createBenefit(api.knex, org.id, { metadata: JSON.stringify({ tier: "gold" }) });
    const revokedBenefit = await createBenefit(api.knex, org.id);
    const [grant] = await api
      .knex("benefit_grants")
      .insert({ benefit_id: benefit.id, customer_id: cust.id, granted_at: new Date(), properties: JSON.stringify({}) })
      .returning("*");
    await api
      .knex("benefit_grants")
      .insert({ benefit_id: revokedBenefit.id, customer_id: cust.id, granted_at: new Date(), revoked_at: new Date() });

    const state = await c.customers.getStateExternal({ externalId: "st-1" });
    expect(state.grantedBenefits).toHaveLength(1);
    expect(state.grantedBenefits[0]).toMatchObject({
      id: grant.id,
      benefitId: benefit.id,
      benefitType: "custom",
      benefitMetadata: { tier: "gold" },
    });
    await rejects(c.customers.getStateExternal({ externalId: "nope" }), ResourceNotFound);
  });

  it("lists with every filter", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const c = api.client(token);
    await c.customers.create({ email: "alice@acme.test", name: "Alice Smith", externalId: "acme-1", metadata: { tier: "pro", seats: 5 } });
    await c.customers.create({ email: "bob@beta.test", name: "Bob Jones", externalId: "beta-1", metadata: { tier: "basic" } });
    await c.customers.create({ email: "carol@acme.test", name: null, metadata: { tier: "pro" } });
    const emails = (cs: Customer[]) => cs.map((x) => x.email).sort();
    expect(emails(await collect(c, {}))).toEqual(["alice@acme.test", "bob@beta.test", "carol@acme.test"]);
    expect(emails(await collect(c, { email: "ALICE@acme.test" }))).toEqual(["alice@acme.test"]);
    expect(emails(await collect(c, { email: "alice" }))).toEqual([]);
    expect(emails(await collect(c, { query: "acme" }))).toEqual(["alice@acme.test", "carol@acme.test"]);
    expect(emails(await collect(c, { query: "JONES" }))).toEqual(["bob@beta.test"]);
    expect(emails(await collect(c, { query: "beta-" }))).toEqual(["bob@beta.test"]);
    expect(emails(await collect(c, { query: "%" }))).toEqual([]);
    expect(emails(await collect(c, { organizationId: org.id }))).toHaveLength(3);
    expect(emails(await collect(c, { organizationId: [orgId] }))).toEqual([]);
    expect(emails(await collect(c, { metadata: { tier: "pro" } }))).toEqual(["alice@acme.test", "carol@acme.test"]);
    expect(emails(await collect(c, { metadata: { tier: ["pro", "basic"], seats: 5 } }))).toEqual(["alice@acme.test"]);
  });

  it("filters 0.49.0's active customers: a trialing, active or past_due subscription", async () => {
    const k = api.knex;
    const { org, token } = await orgWithToken(k);
    const live = [];
    for (const status of ["active", "trialing", "past_due"]) {
      const f = await createSubscriptionFixture(k, { startedAt: new Date(), organizationId: org.id, overrides: { status } });
      live.push(f.customerId);
    }
    const ended = await createSubscriptionFixture(k, { startedAt: new Date(), organizationId: org.id, overrides: { status: "canceled" } });
    const none = await createCustomer(k, org.id);
    const newer = api.client049(token);
    const of = async (active?: boolean) => (await newer.customers.list({ active, limit: 100 })).result.items.map((x) => x.id).sort();
    expect(await of()).toEqual([...live, ended.customerId, none.id].sort());
    expect(await of(true)).toEqual([...live].sort());
    expect(await of(false)).toEqual([ended.customerId, none.id].sort());
  });

  it("sorts by every key, ascending and descending", async () => {
    const { token } = await orgWithToken(api.knex);
    const c = api.client(token);
    await c.customers.create({ email: "c@x.test", name: "Bravo" });
    await c.customers.create({ email: "a@x.test", name: "Charlie" });
    await c.customers.create({ email: "b@x.test", name: "Alpha" });
    const order = async (sorting: CustomerSortProperty[]) => (await collect(c, { sorting })).map((x) => x.email);
    expect(await order(["created_at"])).toEqual(["c@x.test", "a@x.test", "b@x.test"]);
    expect(await order(["-created_at"])).toEqual(["b@x.test", "a@x.test", "c@x.test"]);
    expect(await order([])).toEqual(["b@x.test", "a@x.test", "c@x.test"]);
    expect(await order(["email"])).toEqual(["a@x.test", "b@x.test", "c@x.test"]);
    expect(await order(["-email"])).toEqual(["c@x.test", "b@x.test", "a@x.test"]);
    expect(await order(["name"])).toEqual(["b@x.test", "c@x.test", "a@x.test"]);
    expect(await order(["-name"])).toEqual(["a@x.test", "c@x.test", "b@x.test"]);
  });

  it("pages across several pages", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const c = api.client(token);
    for (let i = 0; i < 23; i++) await createCustomer(api.knex, org.id, { email: `p${String(i).padStart(2, "0")}@page.test` });
    const pages = [];
    for await (const page of await c.customers.list({ limit: 10, sorting: ["email"] })) pages.push(page.result);
    expect(pages.map((p) => p.items.length)).toEqual([10, 10, 3]);
    expect(pages[0].pagination).toEqual({ totalCount: 23, maxPage: 3 });
    expect(pages.flatMap((p) => p.items.map((i) => i.email))).toEqual(
      Array.from({ length: 23 }, (_, i) => `p${String(i).padStart(2, "0")}@page.test`),
    );
    const beyond = await c.customers.list({ page: 9, limit: 10 });
    expect(beyond.result.items).toEqual([]);
    expect(beyond.result.pagination.totalCount).toBe(23);
  });

  it("isolates organizations: another organization's customer is 404 everywhere", async () => {
    const other = await orgWithToken(api.knex);
    const oc = api.client(other.token);
    const foreign = await oc.customers.create({ email: "secret@example.com", externalId: "shared-ext" });
    await rejects(polar.customers.get({ id: foreign.id }), ResourceNotFound);
    await rejects(polar.customers.getExternal({ externalId: "shared-ext" }), ResourceNotFound);
    await rejects(polar.customers.getState({ id: foreign.id }), ResourceNotFound);
    await rejects(polar.customers.update({ id: foreign.id, customerUpdate: { name: "Hijacked" } }), ResourceNotFound);
    await rejects(
      polar.customers.updateExternal({ externalId: "shared-ext", customerUpdateExternalID: { name: "Hijacked" } }),
      ResourceNotFound,
    );
    await rejects(polar.customers.delete({ id: foreign.id }), ResourceNotFound);
    await rejects(polar.customers.deleteExternal({ externalId: "shared-ext" }), ResourceNotFound);
    expect(await collect(polar, { email: "secret@example.com" })).toEqual([]);
    // The same external id and email are free in this organization.
    const mine = await polar.customers.create({ email: "secret@example.com", externalId: "shared-ext" });
    expect((await polar.customers.getExternal({ externalId: "shared-ext" })).id).toBe(mine.id);
    expect((await oc.customers.get({ id: foreign.id })).name).toBeNull();
    await rejects(polar.customers.get({ id: "8a0f3b1e-0000-4000-8000-000000000000" }), ResourceNotFound);
    await rejects(polar.customers.get({ id: "not-a-uuid" }), ResourceNotFound);
  });

  it("answers 401 for bad tokens and 403 for missing scopes", async () => {
    expect((await rejects(api.client("polar_oat_nope").customers.list({}), SDKError)).statusCode).toBe(401);
    expect((await fetch(`${api.url}/v1/customers/`)).status).toBe(401);
    const readOnly = await orgWithToken(api.knex, { scopes: ["customers:read"] });
    const ro = api.client(readOnly.token);
    expect((await ro.customers.list({})).result.items).toEqual([]);
    expect((await rejects(ro.customers.create({ email: "ro@example.com" }), SDKError)).statusCode).toBe(403);
    const cust = await createCustomer(api.knex, readOnly.org.id);
    expect((await ro.customers.getState({ id: cust.id })).id).toBe(cust.id);
    expect((await rejects(ro.customers.update({ id: cust.id, customerUpdate: { name: "x" } }), SDKError)).statusCode).toBe(403);
    expect((await rejects(ro.customers.delete({ id: cust.id }), SDKError)).statusCode).toBe(403);
    const noScope = await orgWithToken(api.knex, { scopes: ["orders:read"] });
    expect((await rejects(api.client(noScope.token).customers.list({}), SDKError)).statusCode).toBe(403);
  });
});
