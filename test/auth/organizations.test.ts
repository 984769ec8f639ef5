// Organizations, members, invitations and teams through better-auth's organization client, and what
// a member's session cookie may do on /v1: an organization made at /api/auth/organization/create is
// the Borealis organization; invitations go out by email; owners and admins may do everything,
// members all but settings, access tokens and webhooks; cookie calls that change data need a
// trusted Origin.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  type Browser,
  latestMail,
  linkIn,
  ownerWithOrganization,
  signedOutClient,
  signUpVerified,
  uniqueEmail,
  useTestApi,
} from "../harness/index.js";

describe("organizations, members and invitations", () => {
  const api = useTestApi();

  /** Invites `email` as `role`, signs them up, and accepts through the emailed link's invitation id. */
  async function invitedMember(owner: Browser, organizationId: string, role: "member" | "admin") {
    const email = uniqueEmail(role);
    const started = new Date(Date.now() - 1000);
    const invited = await owner.client.organization.inviteMember({ email, role, organizationId });
    expect(invited.error).toBeNull();
    expect(invited.data?.status).toBe("pending");
    const mail = await latestMail(email, { subject: /invited you to/, after: started });
    const link = linkIn(mail, "/accept-invitation/");
    const invitationId = decodeURIComponent(link.split("/accept-invitation/")[1]);
    expect(invitationId).toBe(invited.data?.id);

    const browser = signedOutClient(api.url);
    const { id } = await signUpVerified(browser, { email, name: `A ${role}` });
    const seen = await browser.client.organization.getInvitation({ query: { id: invitationId } });
    expect(seen.data).toMatchObject({ email, role, status: "pending", organizationId });
    const accepted = await browser.client.organization.acceptInvitation({ invitationId });
    expect(accepted.error).toBeNull();
    expect((await browser.client.organization.setActive({ organizationId })).error).toBeNull();
    return { browser, userId: id, email, invitationId };
  }

  const v1 = (browser: Browser, path: string, init: RequestInit = {}) => browser.fetch(`${api.url}/v1${path}`, init);
  const json = (body: unknown): RequestInit => ({ body: JSON.stringify(body), headers: { "content-type": "application/json" } });

  it("makes /api/auth/organization/create a Borealis organization with its defaults, validated like the API's", async () => {
    const { browser, organizationId, slug } = await ownerWithOrganization(api.url);
    const res = await v1(browser, `/organizations/${organizationId}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      id: organizationId,
      slug,
      status: "created",
      feature_settings: { issue_funding_enabled: false },
      subscription_settings: { allow_multiple_subscriptions: false, allow_customer_updates: true, proration_behavior: "prorate" },
      notification_settings: { new_order: true, new_subscription: true },
    });
    const reserved = await browser.client.organization.create({ name: "Reserved", slug: "dashboard" });
    expect(reserved.error).toMatchObject({ status: 400, message: "This slug is reserved." });
    const malformed = await browser.client.organization.create({ name: "Malformed", slug: "Not A Slug" });
    expect(malformed.error?.status).toBe(400);
    // Its logo is the organization's avatar_url: an http(s) URL, as PATCH /v1/organizations/{id} has it.
    const scripted = await browser.client.organization.create({
      name: "Scripted",
      slug: `scripted-${randomUUID().slice(0, 8)}`,
      logo: "javascript:alert(1)",
    });
    expect(scripted.error).toMatchObject({ status: 400, message: "URL scheme should be 'http' or 'https'" });
    expect(await api.knex("organizations").where({ name: "Scripted" }).first()).toBeUndefined();
    // Its settings change through PATCH /v1/organizations/{id} (validated, with its webhook event).
    const renamed = await v1(browser, `/organizations/${organizationId}`, { method: "PATCH", ...json({ name: "Renamed Co" }) });
    expect(renamed.status).toBe(200);
    expect((await browser.client.organization.getFullOrganization({ query: { organizationId } })).data?.name).toBe("Renamed Co");
    const viaAuth = await browser.client.organization.update({ organizationId, data: { slug: "taken-over" } });
    expect(viaAuth.error?.status).toBe(404);
    const deleted = await browser.client.organization.delete({ organizationId });
    expect(deleted.error?.status).toBeGreaterThanOrEqual(400);
    expect(await api.knex("organizations").where({ id: organizationId }).first()).toBeDefined();
  });

  it("invites by email; an accepted member uses /v1 with their cookie, within the member role", async () => {
    const owner = await ownerWithOrganization(api.url);
    const member = await invitedMember(owner.browser, owner.organizationId, "member");
    expect(await api.knex("members").where({ organization_id: owner.organizationId, user_id: member.userId }).first("role")).toEqual({
      role: "member",
    });
    expect((await api.knex("invitations").where({ id: member.invitationId }).first("status")).status).toBe("accepted");

    expect((await v1(member.browser, "/products/")).status).toBe(200);
    const product = await v1(member.browser, "/products/", {
      method: "POST",
      ...json({ name: "Made by a member", prices: [{ amount_type: "fixed", price_amount: 500, price_currency: "usd" }] }),
    });
    expect(product.status).toBe(201);
    // Not the organization's settings, webhook endpoints or access tokens.
    expect(
      (await v1(member.browser, `/organizations/${owner.organizationId}`, { method: "PATCH", ...json({ name: "Mine now" }) })).status,
    ).toBe(403);
    expect((await v1(member.browser, "/webhooks/endpoints")).status).toBe(403);
    expect((await v1(member.browser, `/organizations/${owner.organizationId}`)).status).toBe(200);
    // Nor members and invitations (better-auth's roles).
    const invite = await member.browser.client.organization.inviteMember({
      email: uniqueEmail("nope"),
      role: "member",
      organizationId: owner.organizationId,
    });
    expect(invite.error?.status).toBe(403);
    const promote = await member.browser.client.organization.updateMemberRole({
      memberId: member.userId,
      role: "owner",
      organizationId: owner.organizationId,
    });
    expect(promote.error?.status).toBeGreaterThanOrEqual(400);
    const can = await member.browser.client.organization.hasPermission({ permissions: { organization: ["update"] } });
    expect(can.data?.success).toBe(false);
    const canRead = await member.browser.client.organization.hasPermission({ permissions: { ac: ["read"] } });
    expect(canRead.data?.success).toBe(true);
  });

  it("gives an admin everything but deleting the organization", async () => {
    const owner = await ownerWithOrganization(api.url);
    const admin = await invitedMember(owner.browser, owner.organizationId, "admin");
    expect(
      (
        await v1(admin.browser, `/organizations/${owner.organizationId}`, {
          method: "PATCH",
          ...json({ website: "https://admin.example" }),
        })
      ).status,
    ).toBe(200);
    expect((await v1(admin.browser, "/webhooks/endpoints")).status).toBe(200);
    expect(
      (
        await admin.browser.client.organization.hasPermission({
          permissions: { member: ["create", "update", "delete"], invitation: ["create", "cancel"], team: ["create"] },
        })
      ).data?.success,
    ).toBe(true);
    expect((await admin.browser.client.organization.hasPermission({ permissions: { organization: ["delete"] } })).data?.success).toBe(
      false,
    );
    expect(
      (await owner.browser.client.organization.hasPermission({ permissions: { organization: ["update", "delete"] } })).data?.success,
    ).toBe(true);
    // An admin invites too.
    const invited = await admin.browser.client.organization.inviteMember({
      email: uniqueEmail("by-admin"),
      role: "member",
      organizationId: owner.organizationId,
    });
    expect(invited.error).toBeNull();
  });

  it("moves invitations from pending to rejected or canceled", async () => {
    const owner = await ownerWithOrganization(api.url);
    const email = uniqueEmail("declines");
    const invited = await owner.browser.client.organization.inviteMember({ email, role: "member", organizationId: owner.organizationId });
    const invitee = signedOutClient(api.url);
    await signUpVerified(invitee, { email, name: "Declines" });
    expect((await invitee.client.organization.rejectInvitation({ invitationId: invited.data!.id })).error).toBeNull();
    expect((await api.knex("invitations").where({ id: invited.data!.id }).first("status")).status).toBe("rejected");

    const other = await owner.browser.client.organization.inviteMember({
      email: uniqueEmail("canceled"),
      role: "member",
      organizationId: owner.organizationId,
    });
    expect((await owner.browser.client.organization.cancelInvitation({ invitationId: other.data!.id })).error).toBeNull();
    expect((await api.knex("invitations").where({ id: other.data!.id }).first("status")).status).toBe("canceled");
    // An invitation is for its addressee only.
    const third = await owner.browser.client.organization.inviteMember({
      email: uniqueEmail("addressee"),
      role: "member",
      organizationId: owner.organizationId,
    });
    const stranger = signedOutClient(api.url);
    await signUpVerified(stranger, { email: uniqueEmail("stranger"), name: "Stranger" });
    expect((await stranger.client.organization.acceptInvitation({ invitationId: third.data!.id })).error?.status).toBeGreaterThanOrEqual(
      400,
    );
  });

  it("keeps teams of members", async () => {
    const owner = await ownerWithOrganization(api.url);
    const member = await invitedMember(owner.browser, owner.organizationId, "member");
    const team = await owner.browser.client.organization.createTeam({ name: "Support", organizationId: owner.organizationId });
    expect(team.error).toBeNull();
    const empty = await owner.browser.client.organization.createTeam({ name: "", organizationId: owner.organizationId });
    expect(empty.error?.status).toBe(400);
    expect((await owner.browser.client.organization.addTeamMember({ teamId: team.data!.id, userId: member.userId })).error).toBeNull();
    const teams = await owner.browser.client.organization.listTeams({ query: { organizationId: owner.organizationId } });
    expect(teams.data?.map((t) => t.name)).toContain("Support");
    // A team's members see each other (better-auth lists a team's members to its members only).
    const members = await member.browser.client.organization.listTeamMembers({ query: { teamId: team.data!.id } });
    expect(members.data?.map((m) => m.userId)).toEqual([member.userId]);
    const byMember = await member.browser.client.organization.createTeam({ name: "Rogue", organizationId: owner.organizationId });
    expect(byMember.error?.status).toBe(403);
  });

  it("refuses state-changing cookie calls from an untrusted or missing Origin", async () => {
    const owner = await ownerWithOrganization(api.url);
    const evil = signedOutClient(api.url, { origin: "https://evil.example" });
    const cookie = owner.browser.cookie();
    const patch = (origin?: string) =>
      fetch(`${api.url}/v1/organizations/${owner.organizationId}`, {
        method: "PATCH",
        headers: { cookie, "content-type": "application/json", ...(origin ? { origin } : {}) },
        body: JSON.stringify({ name: "Hijacked" }),
      });
    const fromEvil = await patch("https://evil.example");
    expect(fromEvil.status).toBe(403);
    expect(await fromEvil.json()).toMatchObject({ error: "NotPermitted" });
    expect((await patch()).status).toBe(403);
    expect((await patch(new URL(api.url).origin)).status).toBe(200);
    // Reads are not refused (a browser keeps a cross-site answer from the page that asked).
    expect((await fetch(`${api.url}/v1/products/`, { headers: { cookie, origin: "https://evil.example" } })).status).toBe(200);
    // better-auth's own calls check the origin too.
    expect((await evil.client.signIn.email({ email: uniqueEmail(), password: "whatever 123" })).error?.status).toBe(403);
  });

  it("acts only for the session's active organization, and only for a member of it", async () => {
    const a = await ownerWithOrganization(api.url, "Alpha");
    const b = await ownerWithOrganization(api.url, "Beta");
    const made = await v1(b.browser, "/products/", {
      method: "POST",
      ...json({ name: "Beta's product", prices: [{ amount_type: "fixed", price_amount: 100, price_currency: "usd" }] }),
    });
    const productId = ((await made.json()) as { id: string }).id;
    expect((await v1(a.browser, `/products/${productId}`)).status).toBe(404);
    const listed = (await (await v1(a.browser, "/products/")).json()) as { items: { id: string }[] };
    expect(listed.items.map((p) => p.id)).not.toContain(productId);
    // Setting another organization active is refused by better-auth for a non-member.
    const sneaky = await a.browser.client.organization.setActive({ organizationId: b.organizationId });
    expect(sneaky.error?.status).toBe(403);
    // A signed-in user with no active organization reaches no organization's data.
    const loner = signedOutClient(api.url);
    await signUpVerified(loner, { email: uniqueEmail("loner"), name: "Loner" });
    expect((await v1(loner, "/products/")).status).toBe(403);
    expect((await v1(loner, `/organizations/${randomUUID()}`)).status).toBe(403);
  });
});
