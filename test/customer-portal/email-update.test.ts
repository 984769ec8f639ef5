// The portal customer's email change through 0.49.0: the organization's setting, a code by email
// (Mailpit, the branded template) to the new address, checked and verified once before it expires, the new address no
// other customer's, customer.updated, a new session; and the error contract.
import { describe, expect, it, beforeAll } from "vitest";
import { Polar as Polar049 } from "polar-sdk-049";
import { HTTPValidationError } from "polar-sdk-049/models/errors/httpvalidationerror.js";
import { SDKError } from "polar-sdk-049/models/errors/sdkerror.js";
import { createCustomer, createCustomerSessionToken, latestMail, linkIn, orgWithToken, rejects, useTestApi } from "../harness/index.js";

const api = useTestApi();

/** The code in the verification email's link. */
function codeIn(mail: Awaited<ReturnType<typeof latestMail>>): string {
  const link = new URL(linkIn(mail, "/portal/verify-email"));
  return link.searchParams.get("token") ?? "";
}

const unique = (name: string) => `${name}-${Math.random().toString(36).slice(2, 10)}@example.com`;

describe("customer portal: email change", () => {
  let portal: Polar049;
  let orgId: string;
  let slug: string;
  let orgName: string;

  beforeAll(async () => {
    const { org, token } = await orgWithToken(api.knex);
    orgId = org.id;
    slug = org.slug;
    orgName = org.name;
    await api
      .knex("organizations")
      .where({ id: org.id })
      .update({ email_settings: { brand_color: "#aa3300", renewal_reminder_days: 7 } });
    portal = new Polar049({ serverURL: api.url });
    const merchant = api.client049(token);
    const updated = await merchant.organizations.update({
      id: org.id,
      organizationUpdate: {
        customerPortalSettings: {
          usage: { show: true },
          subscription: { updateSeats: true, updatePlan: true },
          customer: { allowEmailChange: true },
        },
      },
    });
    expect(updated.customerPortalSettings.customer).toEqual({ allowEmailChange: true });
  });

  async function customerWithSession(email = unique("old")) {
    const customer = await createCustomer(api.knex, orgId, { email });
    return { customer, security: { customerSession: await createCustomerSessionToken(api.knex, customer.id) } };
  }

  it("sends a code to the new address; verifying it changes the email once and opens a new session", async () => {
    const { customer, security } = await customerWithSession();
    const next = unique("new");
    expect(await portal.customerPortal.customers.requestEmailUpdate(security, { email: next })).toBeNull();
    const mail = await latestMail(next, { subject: /Verify your new email/ });
    expect(mail.text).toContain(`/${slug}/portal/verify-email?token=polar_cev_`);
    // The branded template: the organization's name and colour, who asked, how long the code works.
    expect(mail.subject).toBe(`Verify your new email address for ${orgName}`);
    expect(mail.html).toMatch(/^<!DOCTYPE html/);
    expect(mail.html.toLowerCase()).toContain("#aa3300");
    expect(mail.text).toContain("Verify my new email address");
    expect(mail.text).toContain(`Jane Buyer (${customer.email}) asked to use ${next} as their email address with ${orgName}.`);
    expect(mail.text).toMatch(/The link works once, for 30 minutes \(until \w+ \d+, \d{4} at \d+:\d\d [AP]M UTC\)/);
    expect(mail.text).toContain(`It was sent to ${next}.`);
    const token = codeIn(mail);
    await portal.customerPortal.customers.checkEmailUpdate({ token });
    // Nothing changes until the code is used.
    expect((await api.knex("customers").where({ id: customer.id }).first()).email).toBe(customer.email);

    const before = await api.knex("outbox").where({ organization_id: orgId }).max("id as id").first();
    const verified = await portal.customerPortal.customers.verifyEmailUpdate({ token });
    expect(verified.token).toMatch(/^polar_cst_/);
    const me = await portal.customerPortal.customers.get({ customerSession: verified.token });
    expect(me).toMatchObject({ id: customer.id, email: next, emailVerified: true });
    const events = await api
      .knex("outbox")
      .where({ organization_id: orgId })
      .where("id", ">", before?.id ?? 0);
    expect(events.map((e) => [e.type, e.payload.data.email])).toEqual([["customer.updated", next]]);

    // Single-use: the code is gone.
    expect((await rejects(portal.customerPortal.customers.checkEmailUpdate({ token }), SDKError)).statusCode).toBe(401);
    expect((await rejects(portal.customerPortal.customers.verifyEmailUpdate({ token }), SDKError)).statusCode).toBe(401);
  });

  it("refuses an expired code, a wrong one, and an earlier code once a new one is asked for", async () => {
    const { customer, security } = await customerWithSession();
    const first = unique("first");
    await portal.customerPortal.customers.requestEmailUpdate(security, { email: first });
    const firstCode = codeIn(await latestMail(first));
    const second = unique("second");
    await portal.customerPortal.customers.requestEmailUpdate(security, { email: second });
    const secondCode = codeIn(await latestMail(second));
    expect((await rejects(portal.customerPortal.customers.verifyEmailUpdate({ token: firstCode }), SDKError)).statusCode).toBe(401);
    for (const token of ["polar_cev_nope", ""]) {
      expect((await rejects(portal.customerPortal.customers.checkEmailUpdate({ token }), SDKError)).statusCode).toBe(401);
      expect((await rejects(portal.customerPortal.customers.verifyEmailUpdate({ token }), SDKError)).statusCode).toBe(401);
    }
    await api
      .knex("customer_email_verifications")
      .where({ customer_id: customer.id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expect((await rejects(portal.customerPortal.customers.checkEmailUpdate({ token: secondCode }), SDKError)).statusCode).toBe(401);
    expect((await rejects(portal.customerPortal.customers.verifyEmailUpdate({ token: secondCode }), SDKError)).statusCode).toBe(401);
    expect((await api.knex("customers").where({ id: customer.id }).first()).email).toBe(customer.email);
  });

  it("answers 422 when the new address is another customer's by the time the code is used", async () => {
    const { customer, security } = await customerWithSession();
    const wanted = unique("wanted");
    await portal.customerPortal.customers.requestEmailUpdate(security, { email: wanted });
    const token = codeIn(await latestMail(wanted));
    await createCustomer(api.knex, orgId, { email: wanted.toUpperCase() });
    const err = await rejects(portal.customerPortal.customers.verifyEmailUpdate({ token }), SDKError);
    expect(err.statusCode).toBe(422);
    expect(JSON.parse(err.body).detail[0]).toMatchObject({ loc: ["body", "token"], msg: "This email address is already in use." });
    expect((await api.knex("customers").where({ id: customer.id }).first()).email).toBe(customer.email);
  });

  it("answers 422 for a malformed address or the current one", async () => {
    const { customer, security } = await customerWithSession();
    let err = await rejects(portal.customerPortal.customers.requestEmailUpdate(security, { email: "not-an-email" }), HTTPValidationError);
    expect(err.detail?.[0]?.loc).toEqual(["body", "email"]);
    err = await rejects(
      portal.customerPortal.customers.requestEmailUpdate(security, { email: customer.email.toUpperCase() }),
      HTTPValidationError,
    );
    expect(err.detail?.[0]).toMatchObject({ loc: ["body", "email"], msg: "The new email is the same as your current email." });
  });

  it("answers 401 without a session and 403 where the organization does not allow email changes", async () => {
    expect(
      (
        await rejects(
          portal.customerPortal.customers.requestEmailUpdate({ customerSession: "polar_cst_nope" }, { email: unique("x") }),
          SDKError,
        )
      ).statusCode,
    ).toBe(401);
    const closed = await orgWithToken(api.knex);
    const customer = await createCustomer(api.knex, closed.org.id);
    const security = { customerSession: await createCustomerSessionToken(api.knex, customer.id) };
    const err = await rejects(portal.customerPortal.customers.requestEmailUpdate(security, { email: unique("y") }), SDKError);
    expect(err.statusCode).toBe(403);
    expect(JSON.parse(err.body)).toEqual({ error: "NotPermitted", detail: "Email changes are not enabled for this organization." });
  });
});
