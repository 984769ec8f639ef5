// Customer sessions through the official client: created by customer id or external id, the
// token hashed at rest and expiring, the portal URL, and how the token authenticates the portal
// (expired, revoked, deleted customer, wrong kind of token: 401).
import { describe, expect, it, beforeAll } from "vitest";
import { Polar } from "@polar-sh/sdk";
import { HTTPValidationError } from "@polar-sh/sdk/models/errors/httpvalidationerror.js";
import { SDKError } from "@polar-sh/sdk/models/errors/sdkerror.js";
import { Polar as Polar049 } from "polar-sdk-049";
import { HTTPValidationError as HTTPValidationError049 } from "polar-sdk-049/models/errors/httpvalidationerror.js";
import { SDKError as SDKError049 } from "polar-sdk-049/models/errors/sdkerror.js";
import { hashToken } from "../../server/kit/auth.js";
import { createCustomer, createCustomerSessionToken, orgWithToken, rejects, useTestApi } from "../harness/index.js";

const api = useTestApi();

describe("customer sessions", () => {
  let polar: Polar;
  let token: string;
  let org: { id: string; slug: string };
  let portal: Polar;

  beforeAll(async () => {
    const made = await orgWithToken(api.knex);
    org = made.org;
    token = made.token;
    polar = api.client(made.token);
    portal = new Polar({ serverURL: api.url });
  });

  it("creates a session by customer id: a polar_cst_ token, hashed at rest, valid for an hour", async () => {
    const customer = await polar.customers.create({ email: "session@example.com", name: "Sam" });
    const before = Date.now();
    const session = await polar.customerSessions.create({ customerId: customer.id });
    expect(session.token).toMatch(/^polar_cst_[0-9A-Za-z]{40}$/);
    expect(session.customerId).toBe(customer.id);
    expect(session.customer).toEqual(customer);
    expect(session.modifiedAt).toBeNull();
    const ttl = session.expiresAt.getTime() - before;
    expect(ttl).toBeGreaterThan(59 * 60_000);
    expect(ttl).toBeLessThanOrEqual(60 * 60_000 + 5_000);
    expect(session.customerPortalUrl).toBe(`http://127.0.0.1:8000/${org.slug}/portal?customer_session_token=${session.token}`);

    const row = await api.knex("customer_sessions").where({ id: session.id }).first();
    expect(row.token_hash).toBe(hashToken(session.token));
    expect(JSON.stringify(row)).not.toContain(session.token);

    const me = await portal.customerPortal.customers.get({ customerSession: session.token });
    expect(me).toMatchObject({ id: customer.id, email: "session@example.com" });
  });

  it("creates a session by external customer id", async () => {
    const customer = await polar.customers.create({ email: "ext-session@example.com", externalId: "ext-session" });
    const session = await polar.customerSessions.create({ externalCustomerId: "ext-session" });
    expect(session.customerId).toBe(customer.id);
    expect((await portal.customerPortal.customers.get({ customerSession: session.token })).id).toBe(customer.id);
  });

  it("keeps the return URL 0.49.0 gives, which the portal's session introspection tells", async () => {
    const customer = await createCustomer(api.knex, org.id);
    const newer = api.client049(token);
    const session = await newer.customerSessions.create({ customerId: customer.id, returnUrl: "https://app.example.com/account" });
    expect(session).toMatchObject({
      returnUrl: "https://app.example.com/account",
      customerId: customer.id,
      customer: { type: "individual" },
    });
    const seen = await new Polar049({ serverURL: api.url }).customerPortal.customerSession.introspect({ customerSession: session.token });
    expect(seen).toEqual({ expiresAt: session.expiresAt, returnUrl: "https://app.example.com/account" });

    // Without one (as 0.34.17 creates it), there is none; a URL that is not http(s) is refused.
    const plain = await polar.customerSessions.create({ customerId: customer.id });
    expect(
      (await new Polar049({ serverURL: api.url }).customerPortal.customerSession.introspect({ customerSession: plain.token })).returnUrl,
    ).toBeNull();
    const refused = await rejects(
      newer.customerSessions.create({ customerId: customer.id, returnUrl: "javascript:alert(1)" }),
      HTTPValidationError049,
    );
    expect(refused.detail?.[0]?.loc).toEqual(["body", "return_url"]);
    // Only a session's own token reads it.
    const err = await rejects(
      new Polar049({ serverURL: api.url }).customerPortal.customerSession.introspect({ customerSession: "polar_cst_nope" }),
      SDKError049,
    );
    expect(err.statusCode).toBe(401);
  });

  it("honours PUBLIC_PORTAL_URL", async () => {
    const customer = await createCustomer(api.knex, org.id);
    const saved = process.env.PUBLIC_PORTAL_URL;
    process.env.PUBLIC_PORTAL_URL = "https://billing.example.com/";
    try {
      const session = await polar.customerSessions.create({ customerId: customer.id });
      expect(session.customerPortalUrl).toBe(`https://billing.example.com/${org.slug}/portal?customer_session_token=${session.token}`);
    } finally {
      if (saved === undefined) delete process.env.PUBLIC_PORTAL_URL;
      else process.env.PUBLIC_PORTAL_URL = saved;
    }
  });

  it("answers 422 for unknown, foreign and deleted customers", async () => {
    const other = await orgWithToken(api.knex);
    const foreign = await createCustomer(api.knex, other.org.id, { external_id: "foreign-ext" });
    const deleted = await createCustomer(api.knex, org.id, { external_id: "deleted-ext", deleted_at: new Date() });
    for (const id of ["8a0f3b1e-0000-4000-8000-000000000000", "not-a-uuid", foreign.id, deleted.id]) {
      const err = await rejects(polar.customerSessions.create({ customerId: id }), HTTPValidationError);
      expect(err.data$.detail?.[0].loc).toEqual(["body", "customer_id"]);
    }
    for (const externalCustomerId of ["nope", "foreign-ext", "deleted-ext"]) {
      const err = await rejects(polar.customerSessions.create({ externalCustomerId }), HTTPValidationError);
      expect(err.data$.detail?.[0].loc).toEqual(["body", "external_customer_id"]);
    }
    const res = await fetch(`${api.url}/v1/customer-sessions/`, {
      method: "POST",
      headers: { authorization: `Bearer ${(await orgWithToken(api.knex)).token}`, "content-type": "application/json" },
      body: JSON.stringify({}),
    });
    expect(res.status).toBe(422);
  });

  it("needs the customer_sessions:write scope", async () => {
    const limited = await orgWithToken(api.knex, { scopes: ["customers:read", "customers:write"] });
    const customer = await createCustomer(api.knex, limited.org.id);
    const err = await rejects(api.client(limited.token).customerSessions.create({ customerId: customer.id }), SDKError);
    expect(err.statusCode).toBe(403);
    expect((await rejects(api.client("polar_oat_nope").customerSessions.create({ customerId: customer.id }), SDKError)).statusCode).toBe(
      401,
    );
  });

  it("rejects expired, revoked, unknown and deleted-customer sessions with 401", async () => {
    const customer = await createCustomer(api.knex, org.id);
    const expired = await createCustomerSessionToken(api.knex, customer.id, { expiresAt: new Date(Date.now() - 1000) });
    const revoked = await createCustomerSessionToken(api.knex, customer.id, { revokedAt: new Date() });
    const live = await createCustomerSessionToken(api.knex, customer.id);
    expect((await portal.customerPortal.customers.get({ customerSession: live })).id).toBe(customer.id);
    for (const token of [expired, revoked, "polar_cst_unknown", "garbage"]) {
      const err = await rejects(portal.customerPortal.customers.get({ customerSession: token }), SDKError);
      expect(err.statusCode, token).toBe(401);
    }
    expect((await fetch(`${api.url}/v1/customer-portal/customers/me`)).status).toBe(401);

    // Deleting the customer ends its sessions.
    await polar.customers.delete({ id: customer.id });
    expect((await rejects(portal.customerPortal.customers.get({ customerSession: live }), SDKError)).statusCode).toBe(401);
    const rows = await api.knex("customer_sessions").where({ customer_id: customer.id });
    expect(rows.every((r: { revoked_at: Date | null }) => r.revoked_at !== null)).toBe(true);
  });

  it("keeps the two kinds of token apart", async () => {
    const made = await orgWithToken(api.knex);
    const customer = await createCustomer(api.knex, made.org.id);
    const session = await createCustomerSessionToken(api.knex, customer.id);
    // An organization token is no customer session, and a customer session no organization token.
    expect((await rejects(portal.customerPortal.customers.get({ customerSession: made.token }), SDKError)).statusCode).toBe(401);
    expect((await rejects(api.client(session).customers.list({}), SDKError)).statusCode).toBe(401);
  });
});
