// Sessions through better-auth's client: get-session (with and without the cookie cache),
// revoke-session / revoke-sessions / revoke-other-sessions, sign-out, delete-user, the fresh-session
// check and expiry, and the cookie cache's size.
import { describe, expect, it } from "vitest";
import { SESSION_COOKIE_CACHE_MAX_AGE } from "../../server/auth/instance.js";
import {
  type Browser,
  ownerWithOrganization,
  PASSWORD,
  signedOutClient,
  signUpVerified,
  uniqueEmail,
  useTestApi,
} from "../harness/index.js";

describe("sessions", () => {
  const api = useTestApi();

  async function twoBrowsers(): Promise<{ email: string; first: Browser; second: Browser; userId: string }> {
    const first = signedOutClient(api.url);
    const email = uniqueEmail("sessions");
    const { id } = await signUpVerified(first, { email, name: "Sessions" });
    const second = signedOutClient(api.url);
    expect((await second.client.signIn.email({ email, password: PASSWORD })).error).toBeNull();
    return { email, first, second, userId: id };
  }

  it("answers get-session with the session and user, or null; the cookie cache stays under 4,093 characters", async () => {
    const { first } = await twoBrowsers();
    const session = await first.client.getSession();
    expect(session.data?.session.token).toBeTruthy();
    expect(session.data?.user.emailVerified).toBe(true);
    const fromDb = await first.client.getSession({ query: { disableCookieCache: true, disableRefresh: true } });
    expect(fromDb.data?.session.id).toBe(session.data?.session.id);
    expect((await signedOutClient(api.url).client.getSession()).data).toBeNull();

    const cache = first
      .cookie()
      .split("; ")
      .find((c) => c.startsWith("borealis.session_data="));
    expect(cache).toBeTruthy();
    expect(cache!.length).toBeLessThan(4093);
    expect(SESSION_COOKIE_CACHE_MAX_AGE).toBeLessThanOrEqual(400 * 24 * 3600);
  });

  it("revokes one session, all others, or all of them", async () => {
    const { first, second, email } = await twoBrowsers();
    const third = signedOutClient(api.url);
    expect((await third.client.signIn.email({ email, password: PASSWORD })).error).toBeNull();
    const sessions = await first.client.listSessions();
    expect(sessions.data).toHaveLength(3);

    const secondToken = (await second.client.getSession()).data!.session.token;
    expect((await first.client.revokeSession({ token: secondToken })).data).toEqual({ status: true });
    expect((await second.client.getSession({ query: { disableCookieCache: true } })).data).toBeNull();

    expect((await first.client.revokeOtherSessions()).data).toEqual({ status: true });
    expect((await third.client.getSession({ query: { disableCookieCache: true } })).data).toBeNull();
    expect((await first.client.getSession({ query: { disableCookieCache: true } })).data).not.toBeNull();

    expect((await first.client.revokeSessions()).data).toEqual({ status: true });
    expect((await first.client.getSession({ query: { disableCookieCache: true } })).data).toBeNull();
  });

  it("does not let a user revoke another user's session", async () => {
    const a = await twoBrowsers();
    const b = await twoBrowsers();
    const bToken = (await b.first.client.getSession()).data!.session.token;
    await a.first.client.revokeSession({ token: bToken });
    expect((await b.first.client.getSession({ query: { disableCookieCache: true } })).data?.session.token).toBe(bToken);
    expect((await signedOutClient(api.url).client.revokeSession({ token: bToken })).error?.status).toBe(401);
  });

  it("signs out: the cookie no longer works on /api/auth or /v1", async () => {
    const { browser } = await ownerWithOrganization(api.url);
    const before = await browser.fetch(`${api.url}/v1/products/`);
    expect(before.status).toBe(200);
    const stale = browser.cookie();
    expect((await browser.client.signOut()).data).toEqual({ success: true });
    const after = await fetch(`${api.url}/v1/products/`, { headers: { cookie: stale } });
    expect(after.status).toBe(401);
  });

  it("refuses a session older than the fresh age with 403 'Session is not fresh', and an expired one with 401", async () => {
    const { first, userId } = await twoBrowsers();
    expect((await first.client.listSessions()).error).toBeNull();
    const sessionId = (await first.client.getSession()).data!.session.id;
    await api
      .knex("sessions")
      .where({ id: sessionId })
      .update({ created_at: new Date(Date.now() - 2 * 24 * 3600 * 1000) });
    first.forget("borealis.session_data"); // the cookie cache still holds the old creation time
    const stale = await first.client.listSessions();
    expect(stale.error).toMatchObject({ status: 403, message: "Session is not fresh" });

    // Deleting the account needs the password once the session is not fresh.
    const notFresh = await first.client.deleteUser({});
    expect(notFresh.error).toMatchObject({ status: 400, message: "Session expired. Re-authenticate to perform this action." });

    await api
      .knex("sessions")
      .where({ user_id: userId })
      .update({ expires_at: new Date(Date.now() - 1000) });
    // The cookie cache may vouch for it a few minutes more; the database does not, nor does /v1.
    expect((await first.client.getSession({ query: { disableCookieCache: true } })).data).toBeNull();
    expect((await first.fetch(`${api.url}/v1/products/`)).status).toBe(401);
  });

  it("deletes a user with their password, and refuses the only owner of an organization", async () => {
    const { first, userId } = await twoBrowsers();
    const wrong = await first.client.deleteUser({ password: "not it" });
    expect(wrong.error).toMatchObject({ status: 400, message: "Invalid password" });
    expect((await first.client.deleteUser({ password: PASSWORD })).data).toMatchObject({ success: true });
    expect(await api.knex("users").where({ id: userId }).first()).toBeUndefined();
    expect(await api.knex("sessions").where({ user_id: userId }).first()).toBeUndefined();

    const owner = await ownerWithOrganization(api.url);
    const refused = await owner.browser.client.deleteUser({ password: PASSWORD });
    expect(refused.error).toMatchObject({ status: 400 });
    expect(await api.knex("users").where({ id: owner.userId }).first()).toBeDefined();
  });
});
