// Platform administration through better-auth's admin client: what the admin role may do to users
// and sessions (the specification's admin permission set), that everyone else may do none of it,
// and what a banned user sees.
import { describe, expect, it } from "vitest";
import { adminRoles, adminStatements } from "../../server/auth/access.js";
import { SOLE_OWNER_MESSAGE } from "../../server/auth/instance.js";
import { ownerWithOrganization, PASSWORD, signedOutClient, signUpVerified, uniqueEmail, useTestApi } from "../harness/index.js";

describe("platform admins", () => {
  const api = useTestApi();

  async function signedIn(name: string) {
    const browser = signedOutClient(api.url);
    const email = uniqueEmail(name);
    const { id } = await signUpVerified(browser, { email, name });
    return { browser, id, email };
  }

  async function anAdmin() {
    const admin = await signedIn("admin");
    await api.knex("users").where({ id: admin.id }).update({ role: "admin" });
    admin.browser.forget("borealis.session_data"); // the cached session still says "user"
    return admin;
  }

  it("holds exactly the specification's admin permission set; the user role holds none", () => {
    expect(adminStatements).toEqual({
      user: ["create", "list", "set-role", "ban", "impersonate", "delete", "set-password", "get", "update"],
      session: ["list", "revoke", "delete"],
    });
    expect(adminRoles.admin.statements).toEqual(adminStatements);
    expect(adminRoles.user.statements).toEqual({ user: [], session: [] });
  });

  it("lets an admin list, create, update and remove users and manage their sessions; nobody else", async () => {
    const admin = await anAdmin();
    const someone = await signedIn("someone");

    const listed = await admin.browser.client.admin.listUsers({ query: { searchValue: someone.email, searchField: "email" } });
    expect(listed.data?.users.map((u) => u.id)).toEqual([someone.id]);
    const denied = await someone.browser.client.admin.listUsers({ query: {} });
    expect(denied.error).toMatchObject({ status: 403, message: "You are not allowed to list users" });
    expect((await someone.browser.client.admin.setRole({ userId: someone.id, role: "admin" })).error?.message).toBe(
      "You are not allowed to change users role",
    );

    const created = await admin.browser.client.admin.createUser({
      email: uniqueEmail("made"),
      password: PASSWORD,
      name: "Made by admin",
      role: "user",
    });
    expect(created.error).toBeNull();
    const updated = await admin.browser.client.admin.updateUser({ userId: created.data!.user.id, data: { name: "Renamed by admin" } });
    expect(updated.data?.name).toBe("Renamed by admin");
    expect(
      (await admin.browser.client.admin.setUserPassword({ userId: created.data!.user.id, newPassword: "another password 1" })).error,
    ).toBeNull();

    const sessions = await admin.browser.client.admin.listUserSessions({ userId: someone.id });
    expect(sessions.data?.sessions.length).toBeGreaterThan(0);
    expect((await admin.browser.client.admin.revokeUserSessions({ userId: someone.id })).data).toEqual({ success: true });
    expect((await someone.browser.client.getSession({ query: { disableCookieCache: true } })).data).toBeNull();

    expect((await admin.browser.client.admin.removeUser({ userId: created.data!.user.id })).data).toEqual({ success: true });
    expect((await admin.browser.client.admin.removeUser({ userId: admin.id })).error?.message).toBe("You cannot remove yourself");
    // An organization keeps its only owner.
    const owner = await ownerWithOrganization(api.url);
    const kept = await admin.browser.client.admin.removeUser({ userId: owner.userId });
    expect(kept.error?.message).toBe(SOLE_OWNER_MESSAGE);
  });

  it("bans a user: their sessions end and signing in says so; an admin cannot ban themself", async () => {
    const admin = await anAdmin();
    const someone = await signedIn("banned");
    expect((await admin.browser.client.admin.banUser({ userId: someone.id, banReason: "Spam" })).error).toBeNull();
    expect((await someone.browser.client.getSession({ query: { disableCookieCache: true } })).data).toBeNull();
    const signIn = await signedOutClient(api.url).client.signIn.email({ email: someone.email, password: PASSWORD });
    expect(signIn.error?.status).toBe(403);
    expect(signIn.error?.message).toMatch(/^You have been banned from this application/);
    expect((await admin.browser.client.admin.banUser({ userId: admin.id })).error?.message).toBe("You cannot ban yourself");
    expect((await admin.browser.client.admin.unbanUser({ userId: someone.id })).error).toBeNull();
    expect((await signedOutClient(api.url).client.signIn.email({ email: someone.email, password: PASSWORD })).error).toBeNull();
  });

  it("impersonates a user and stops", async () => {
    const admin = await anAdmin();
    const someone = await signedIn("impersonated");
    const started = await admin.browser.client.admin.impersonateUser({ userId: someone.id });
    expect(started.error).toBeNull();
    const as = await admin.browser.client.getSession({ query: { disableCookieCache: true } });
    expect(as.data?.user.id).toBe(someone.id);
    expect(as.data?.session.impersonatedBy).toBe(admin.id);
    expect((await admin.browser.client.admin.stopImpersonating()).error).toBeNull();
    expect((await admin.browser.client.getSession({ query: { disableCookieCache: true } })).data?.user.id).toBe(admin.id);
  });
});
