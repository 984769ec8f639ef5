// Portal sign-in by email code where the Member model is on, as Polar's: the code signs in the
// member with that email (a customer without one gets its owner made on the way); an email of
// several customers' members answers 409 with the customers to choose from, then `customer_id`
// picks one. getAuthenticatedUser (0.49.0's client) tells member and customer sessions apart.
import { randomUUID } from "node:crypto";
import { Polar as Polar049 } from "polar-sdk-049";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCustomer, latestMail, mailsTo, orgWithToken, useTestApi } from "../harness/index.js";
import { sleep } from "../../server/kit/time.js";

const api = useTestApi();

describe("customer portal sign-in of members by email code", () => {
  let org: { id: string; slug: string; name: string };
  let orgToken = "";
  const orgs: string[] = [];
  const unique = (name: string) => `${name}-${randomUUID().slice(0, 8)}@example.com`;
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${api.url}/v1/customer-portal/customer-session/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as unknown };
  };
  const request = (organizationId: string, email: string, customerId?: string) =>
    post("request", Object.assign({ email, organization_id: organizationId }, customerId ? { customer_id: customerId } : {}));
  /** Asks for a code for `email`, reads it from Mailpit (in `mailedTo`'s inbox) and exchanges it for a session token. */
  const signIn = async (organizationId: string, email: string, customerId?: string, mailedTo = email) => {
    const before = new Date(Date.now() - 1000);
    expect(await request(organizationId, email, customerId)).toEqual({ status: 202, body: null });
    const mail = await latestMail(mailedTo, { subject: /sign-in code/, after: before });
    const code = /sign-in code: ([A-Z0-9]{6})$/.exec(mail.subject)![1];
    const answer = await post("authenticate", { code });
    expect(answer.status).toBe(200);
    return String((answer.body as { token: string }).token);
  };
  const user = (token: string) =>
    new Polar049({ serverURL: api.url }).customerPortal.customerSession.getAuthenticatedUser({ customerSession: token });
  const sessionMember = async (token: string) =>
    (
      await api
        .knex("customer_sessions")
        .orderBy("created_at", "desc")
        .where({ customer_id: (await user(token)).customerId })
        .first("member_id")
    )?.member_id ?? null;
  const addMember = async (customerId: string, email: string, values: { name?: string; role?: string } = {}) => {
    const [row] = await api
      .knex("customer_members")
      .insert({ organization_id: org.id, customer_id: customerId, email, name: values.name ?? null, role: values.role ?? "member" })
      .returning("*");
    return row as { id: string };
  };

  beforeAll(async () => {
    ({ org, token: orgToken } = await orgWithToken(api.knex));
    orgs.push(org.id);
    await api
      .knex("organizations")
      .where({ id: org.id })
      .update({ feature_settings: JSON.stringify({ member_model_enabled: true }) });
  });
  afterAll(async () => {
    await api.knex("customer_session_codes").whereIn("organization_id", orgs).delete();
  });

  it("signs a member in to its team's customer", async () => {
    const team = await createCustomer(api.knex, org.id, { type: "team", name: "Team Aurora" });
    await addMember(team.id, unique("owner"), { role: "owner" });
    const email = unique("pat");
    const pat = await addMember(team.id, email, { name: "Pat" });
    // Typed in another case: the same member.
    const token = await signIn(org.id, email.toUpperCase());
    expect(await user(token)).toEqual({ type: "member", name: "Pat", email, customerId: team.id, memberId: pat.id, role: "member" });
    expect(await sessionMember(token)).toBe(pat.id);
    // A member's email is not the customer's: the customer's stays unverified.
    expect((await api.knex("customers").where({ id: team.id }).first("email_verified")).email_verified).toBe(false);
  });

  it("makes a customer without members its owner on the way", async () => {
    const email = unique("solo");
    const solo = await createCustomer(api.knex, org.id, { email, name: "Solo Buyer" });
    const token = await signIn(org.id, email);
    const owner = await api.knex("customer_members").where({ customer_id: solo.id }).first();
    expect(owner).toMatchObject({ email, name: "Solo Buyer", role: "owner", deleted_at: null });
    expect(await user(token)).toEqual({
      type: "member",
      name: "Solo Buyer",
      email,
      customerId: solo.id,
      memberId: owner.id,
      role: "owner",
    });
    expect((await api.knex("customers").where({ id: solo.id }).first("email_verified")).email_verified).toBe(true);
    expect(
      await api
        .knex("outbox")
        .where({ organization_id: org.id, type: "member.created" })
        .whereRaw("payload->'data'->>'id' = ?", [owner.id]),
    ).toHaveLength(1);
  });

  it("sends the code to the customer's owner when the owner has another email, as Polar's", async () => {
    const email = unique("billing");
    const team = await createCustomer(api.knex, org.id, { type: "team", email, name: "Team Billing" });
    const ownerEmail = unique("boss");
    const owner = await addMember(team.id, ownerEmail, { name: "Boss", role: "owner" });
    const asked = new Date(Date.now() - 1000);
    const token = await signIn(org.id, email, undefined, ownerEmail);
    expect(await user(token)).toEqual({
      type: "member",
      name: "Boss",
      email: ownerEmail,
      customerId: team.id,
      memberId: owner.id,
      role: "owner",
    });
    expect((await mailsTo(email)).filter((m) => new Date(m.Created) >= asked)).toHaveLength(0);
    expect(await api.knex("customer_members").where({ customer_id: team.id })).toHaveLength(1);
  });

  it("asks which customer when the email is a member of several, then signs in to the one chosen", async () => {
    const email = unique("shared");
    const first = await createCustomer(api.knex, org.id, { type: "team", name: "Acme Ltd", created_at: new Date(Date.now() - 60_000) });
    const second = await createCustomer(api.knex, org.id, { type: "team", name: null });
    await addMember(first.id, email, { role: "billing_manager" });
    const chosen = await addMember(second.id, email, { name: "Sam" });
    const asked = new Date(Date.now() - 1000);
    expect(await request(org.id, email)).toEqual({
      status: 409,
      body: {
        error: "customer_selection_required",
        detail: "Multiple customers found for this email. Please select one.",
        customers: [
          { id: first.id, name: "Acme Ltd" },
          { id: second.id, name: null },
        ],
      },
    });
    // Another customer's id, or one that is not a uuid: no code, the same answers as for nobody.
    expect(await request(org.id, email, randomUUID())).toEqual({ status: 202, body: null });
    const bad = await request(org.id, email, "not-a-uuid");
    expect(bad.status).toBe(422);
    expect((bad.body as { detail: { loc: string[] }[] }).detail[0]!.loc).toEqual(["body", "customer_id"]);
    await sleep(300);
    expect((await mailsTo(email)).filter((m) => new Date(m.Created) >= asked)).toHaveLength(0);
    // Both count against the email's limit, the 409 too (it names customers).
    expect(await api.knex("customer_session_codes").where({ organization_id: org.id, email }).pluck("code_hash")).toEqual([null, null]);

    const token = await signIn(org.id, email, second.id);
    expect(await user(token)).toEqual({ type: "member", name: "Sam", email, customerId: second.id, memberId: chosen.id, role: "member" });
    expect(await sessionMember(token)).toBe(chosen.id);
  });

  it("answers the customer for a customer's own session", async () => {
    const customer = await createCustomer(api.knex, org.id, { email: unique("own"), name: "Own Session" });
    const merchant = new Polar049({ serverURL: api.url, accessToken: orgToken });
    const { token } = await merchant.customerSessions.create({ customerId: customer.id });
    expect(await user(token)).toEqual({
      type: "customer",
      name: "Own Session",
      email: customer.email,
      customerId: customer.id,
      memberId: null,
      role: null,
    });
  });

  it("signs the customer in, as before, where the Member model is off", async () => {
    const plain = (await orgWithToken(api.knex)).org;
    orgs.push(plain.id);
    const email = unique("plain");
    const customer = await createCustomer(api.knex, plain.id, { email, name: "Plain Buyer" });
    // Members of the email elsewhere change nothing here.
    await addMember((await createCustomer(api.knex, org.id, { type: "team" })).id, email);
    const token = await signIn(plain.id, email);
    expect(await user(token)).toEqual({
      type: "customer",
      name: "Plain Buyer",
      email,
      customerId: customer.id,
      memberId: null,
      role: null,
    });
    expect(await sessionMember(token)).toBeNull();
    expect(await api.knex("customer_members").where({ customer_id: customer.id })).toHaveLength(0);
  });
});
