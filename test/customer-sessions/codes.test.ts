// Sign-in to the customer portal by email code: the code arrives in Mailpit, is exchanged once for
// a customer session the official client's portal calls accept, expires, and both asking and
// guessing are rate limited, each 429 with Retry-After: the time until the oldest counted request
// leaves the 15 minutes' window. An email that is nobody's gets the same answer and no email.
import { Polar } from "@polar-sh/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCustomer, fetchFrom, latestMail, mailsTo, orgWithToken, useTestApi } from "../harness/index.js";
import { sleep } from "../../server/kit/time.js";

const api = useTestApi();

describe("customer portal sign-in by email code", () => {
  let org: { id: string; slug: string; name: string };
  const post = async (path: string, body: unknown) => (await postWithHeaders(path, body)).answer;
  const postWithHeaders = async (path: string, body: unknown) => {
    const res = await fetch(`${api.url}/v1/customer-portal/customer-session/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return {
      answer: { status: res.status, body: (await res.json()) as Record<string, unknown> | null },
      retryAfter: res.headers.get("retry-after"),
    };
  };
  /** Seconds from now until `minutesAgo` minutes ago leaves the 15 minutes' window. */
  const untilOut = (minutesAgo: number) => (15 - minutesAgo) * 60;
  const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);
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
    expect(again).toEqual({
      status: 401,
      body: { error: "Unauthorized", detail: "This code is wrong, was already used, or has expired. Ask for a new one." },
    });
  });

  it("does not tell whether an email is a customer's, and mails nobody then", async () => {
    expect(await requestFor("nobody-here@example.com")).toEqual({ status: 202, body: null });
    await sleep(500);
    expect(await mailsTo("nobody-here@example.com")).toHaveLength(0);
  });

  it("rejects an expired code, bad input, and another organization's customer", async () => {
    await createCustomer(api.knex, org.id, { email: "expiring@example.com" });
    const before = new Date(Date.now() - 1000);
    await requestFor("expiring@example.com");
    const code = codeIn((await latestMail("expiring@example.com", { subject: /sign-in code/, after: before })).subject);
    await api
      .knex("customer_session_codes")
      .where({ email: "expiring@example.com" })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expect((await post("authenticate", { code })).status).toBe(401);

    expect((await post("request", { email: "not-an-email", organization_id: org.id })).status).toBe(422);
    expect((await post("request", { email: "a@example.com", organization_id: "00000000-0000-0000-0000-000000000000" })).status).toBe(422);
    expect((await post("authenticate", { code: "ABC" })).status).toBe(422);
    // A customer of another organization with this email gets nothing from this one.
    const other = (await orgWithToken(api.knex)).org;
    await createCustomer(api.knex, other.id, { email: "elsewhere@example.com" });
    await requestFor("elsewhere@example.com");
    await sleep(500);
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

  it("limits codes per email (429 with Retry-After until the oldest counted code leaves the window)", async () => {
    await createCustomer(api.knex, org.id, { email: "eager@example.com" });
    for (let i = 0; i < 5; i++) expect((await requestFor("eager@example.com")).status).toBe(202);
    // The oldest of the five was asked 10 minutes ago: the limit holds 5 more minutes.
    const [oldest] = await api
      .knex("customer_session_codes")
      .where({ email: "eager@example.com" })
      .orderBy("created_at")
      .limit(1)
      .pluck("id");
    await api
      .knex("customer_session_codes")
      .where({ id: oldest })
      .update({ created_at: minutesAgo(10) });
    const refused = await postWithHeaders("request", { email: "eager@example.com", organization_id: org.id });
    expect(refused.answer).toEqual({
      status: 429,
      body: { error: "TooManyRequests", detail: "Too many codes asked for this email. Wait a few minutes, then try again." },
    });
    expect(Number(refused.retryAfter)).toBeGreaterThan(untilOut(10) - 5);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(untilOut(10));
    // Once it is out of the window, the email may ask again.
    await api
      .knex("customer_session_codes")
      .where({ id: oldest })
      .update({ created_at: minutesAgo(16) });
    expect((await requestFor("eager@example.com")).status).toBe(202);
  });

  it("limits codes per client (429 with Retry-After), not the next client", async () => {
    // 30 codes asked from 127.0.0.7 in the window, the oldest counted one 14 minutes ago.
    const rows = Array.from({ length: 30 }, (_, i) => ({
      organization_id: org.id,
      customer_id: null,
      code_hash: null,
      email: `asked-${i}@example.com`,
      client_ip: "127.0.0.7",
      created_at: minutesAgo(i === 0 ? 14 : 1),
      expires_at: new Date(Date.now() + 60_000),
    }));
    await api.knex("customer_session_codes").insert(rows);
    const ask = (local: string) =>
      fetchFrom(local, `${api.url}/v1/customer-portal/customer-session/request`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "from-afar@example.com", organization_id: org.id }),
      });
    const refused = await ask("127.0.0.7");
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toEqual({
      error: "TooManyRequests",
      detail: "Too many codes asked from here. Wait a few minutes, then try again.",
    });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(untilOut(14) - 5);
    expect(Number(refused.headers["retry-after"])).toBeLessThanOrEqual(untilOut(14));
    expect((await ask("127.0.0.8")).status).toBe(202);
  });

  it("locks a client out after 10 wrong codes: even the right code is refused, with Retry-After, until the oldest failure leaves the window", async () => {
    await api.knex("customer_session_code_failures").delete();
    await createCustomer(api.knex, org.id, { email: "unlucky@example.com" });
    const before = new Date(Date.now() - 1000);
    await requestFor("unlucky@example.com");
    const code = codeIn((await latestMail("unlucky@example.com", { subject: /sign-in code/, after: before })).subject);
    for (let i = 0; i < 10; i++) expect((await post("authenticate", { code: "ZZZZZZ" })).status).toBe(401);
    const locked = await postWithHeaders("authenticate", { code });
    expect(locked.answer).toEqual({
      status: 429,
      body: { error: "TooManyRequests", detail: "Too many wrong codes. Wait a few minutes, then ask for a new code." },
    });
    expect(Number(locked.retryAfter)).toBeGreaterThan(untilOut(0) - 5);
    expect(Number(locked.retryAfter)).toBeLessThanOrEqual(untilOut(0));
    // The first failure was 12 minutes ago: 3 minutes to wait.
    const [first] = await api.knex("customer_session_code_failures").orderBy("created_at").limit(1).pluck("id");
    await api
      .knex("customer_session_code_failures")
      .where({ id: first })
      .update({ created_at: minutesAgo(12) });
    const later = await postWithHeaders("authenticate", { code });
    expect(later.answer.status).toBe(429);
    expect(Number(later.retryAfter)).toBeGreaterThan(untilOut(12) - 5);
    expect(Number(later.retryAfter)).toBeLessThanOrEqual(untilOut(12));
    // Out of the window, the right code (refused, so never used) signs in.
    await api
      .knex("customer_session_code_failures")
      .where({ id: first })
      .update({ created_at: minutesAgo(16) });
    expect((await post("authenticate", { code })).status).toBe(200);
  });
});
