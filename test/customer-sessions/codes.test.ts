// Sign-in to the customer portal by email code: the code arrives in Mailpit, is exchanged once for
// a customer session the official client's portal calls accept, expires, and both asking and
// guessing are rate limited. An email that is nobody's gets the same answer and no email.
import { Polar } from "@polar-sh/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCustomer, latestMail, mailsTo, orgWithToken, useTestApi } from "../harness/index.js";

const api = useTestApi();

describe("customer portal sign-in by email code", () => {
  let org: { id: string; slug: string; name: string };
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${api.url}/v1/customer-portal/customer-session/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> | null };
  };
  const codeIn = (subject: string) => /sign-in code: ([A-Z0-9]{6})$/.exec(subject)?.[1] ?? "";
  const requestFor = (email: string) => post("request", { email, organization_id: org.id });

  beforeAll(async () => {
    org = (await orgWithToken(api.knex)).org;
  });
  // The limits count per client address, and every test file calls from 127.0.0.1.
  afterAll(async () => {
    await api.knex("customer_session_code_failures").delete();
    await api.knex("customer_session_codes").where({ organization_id: org.id }).delete();
  });

  it("mails a code that signs the customer in once", async () => {
    const customer = await createCustomer(api.knex, org.id, { email: "Code.Buyer@example.com" });
    const before = new Date(Date.now() - 1000);
    expect(await requestFor("code.buyer@example.com")).toEqual({ status: 202, body: null });
    const mail = await latestMail("Code.Buyer@example.com", { subject: /sign-in code/, after: before });
    const code = codeIn(mail.subject);
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{6}$/);
    expect(mail.text).toContain(`/${org.slug}/portal`);
    expect(mail.text).toContain("15 minutes");

    // Typed in lower case with a space: still the code.
    const signedIn = await post("authenticate", { code: `${code.slice(0, 3).toLowerCase()} ${code.slice(3)}` });
    expect(signedIn.status).toBe(200);
    const token = String(signedIn.body!.token);
    expect(token).toMatch(/^polar_cst_/);
    const me = await new Polar({ serverURL: api.url }).customerPortal.customers.get({ customerSession: token });
    expect(me).toMatchObject({ id: customer.id, emailVerified: true });

    const again = await post("authenticate", { code });
    expect(again).toEqual({ status: 401, body: { error: "Unauthorized", detail: "This code is wrong, was already used, or has expired. Ask for a new one." } });
  });

  it("does not tell whether an email is a customer's, and mails nobody then", async () => {
    expect(await requestFor("nobody-here@example.com")).toEqual({ status: 202, body: null });
    await new Promise((r) => setTimeout(r, 500));
    expect(await mailsTo("nobody-here@example.com")).toHaveLength(0);
  });

  it("rejects an expired code, bad input, and another organization's customer", async () => {
    await createCustomer(api.knex, org.id, { email: "expiring@example.com" });
    const before = new Date(Date.now() - 1000);
    await requestFor("expiring@example.com");
    const code = codeIn((await latestMail("expiring@example.com", { subject: /sign-in code/, after: before })).subject);
    await api.knex("customer_session_codes").where({ email: "expiring@example.com" }).update({ expires_at: new Date(Date.now() - 1000) });
    expect((await post("authenticate", { code })).status).toBe(401);

    expect((await post("request", { email: "not-an-email", organization_id: org.id })).status).toBe(422);
    expect((await post("request", { email: "a@example.com", organization_id: "00000000-0000-0000-0000-000000000000" })).status).toBe(422);
    expect((await post("authenticate", { code: "ABC" })).status).toBe(422);
    // A customer of another organization with this email gets nothing from this one.
    const other = (await orgWithToken(api.knex)).org;
    await createCustomer(api.knex, other.id, { email: "elsewhere@example.com" });
    await requestFor("elsewhere@example.com");
    await new Promise((r) => setTimeout(r, 500));
    expect(await mailsTo("elsewhere@example.com")).toHaveLength(0);
  });

  it("answers 503 MailNotConfigured when the server has nowhere to send email, and keeps no code", async () => {
    await createCustomer(api.knex, org.id, { email: "no-smtp@example.com" });
    const saved = process.env.SMTP_URL;
    delete process.env.SMTP_URL;
    try {
      expect(await requestFor("no-smtp@example.com")).toEqual({
        status: 503,
        body: { error: "MailNotConfigured", detail: "This server has no email set up (SMTP_URL), so it can't send sign-in codes." },
      });
    } finally {
      process.env.SMTP_URL = saved;
    }
    expect(await api.knex("customer_session_codes").where({ email: "no-smtp@example.com" })).toHaveLength(0);
  });

  it("limits codes per email (429) and wrong guesses per client (429)", async () => {
    await createCustomer(api.knex, org.id, { email: "eager@example.com" });
    for (let i = 0; i < 5; i++) expect((await requestFor("eager@example.com")).status).toBe(202);
    expect(await requestFor("eager@example.com")).toEqual({
      status: 429,
      body: { error: "TooManyRequests", detail: "Too many codes asked for this email. Wait a few minutes, then try again." },
    });
    await api.knex("customer_session_code_failures").delete();
    for (let i = 0; i < 10; i++) expect((await post("authenticate", { code: "ZZZZZZ" })).status).toBe(401);
    expect((await post("authenticate", { code: "ZZZZZZ" })).status).toBe(429);
  });
});
