// Team customers and their members through the 0.49.0 client: the owner made with the customer,
// the merchant's operations by id and by external id, the organization-wide list with its filters,
// the portal's for a team's owner, the rules (one owner, unique emails, an individual's one member),
// member.* events, scopes, the Member model switch and tenant isolation.
import { describe, expect, it } from "vitest";
import type { Polar as Polar049 } from "polar-sdk-049";
import { HTTPValidationError } from "polar-sdk-049/models/errors/httpvalidationerror.js";
import { NotPermitted } from "polar-sdk-049/models/errors/notpermitted.js";
import { ResourceNotFound } from "polar-sdk-049/models/errors/resourcenotfound.js";
import { SDKError } from "polar-sdk-049/models/errors/sdkerror.js";
import { mintOrganizationToken } from "../../server/organization-access-tokens/service.js";
import { collectPages, createCustomerSessionToken, orgWithToken, rejects, useTestApi } from "../harness/index.js";

const api = useTestApi();

/** An organization with the Member model on (unless `enabled` is false), and its 0.49 client. */
async function memberOrg(enabled = true): Promise<{ orgId: string; polar: Polar049; token: string }> {
  const { org, token } = await orgWithToken(api.knex);
  const polar = api.client049(token);
  if (enabled) await polar.organizations.update({ id: org.id, organizationUpdate: { featureSettings: { memberModelEnabled: true } } });
  return { orgId: org.id, polar, token };
}

async function membersOf(polar: Polar049, customerId: string) {
  return collectPages(await polar.members.listMembers({ customerId }));
}

async function outbox(orgId: string, type: string): Promise<{ data: { id: string; role: string } }[]> {
  const rows = await api.knex("outbox").where({ organization_id: orgId, type }).orderBy("id");
  return rows.map((r: { payload: { data: { id: string; role: string } } }) => r.payload);
}

describe("members", () => {
  it("makes a team customer's owner with it, and manages its members by id", async () => {
    const { orgId, polar } = await memberOrg();
    const team = await polar.customers.create({
      type: "team",
      email: "acme@example.com",
      name: "Acme",
      owner: { email: "boss@example.com", name: "Boss", externalId: "boss" },
    });
    expect(team).toMatchObject({ type: "team", email: "acme@example.com" });
    const [owner] = await membersOf(polar, team.id);
    expect(owner).toMatchObject({ customerId: team.id, email: "boss@example.com", name: "Boss", externalId: "boss", role: "owner" });

    const added = await polar.customers.members.create({
      id: team.id,
      memberCreateFromCustomer: { email: "ann@example.com", name: "Ann", externalId: "ann", role: "billing_manager" },
    });
    expect(added).toMatchObject({ customerId: team.id, email: "ann@example.com", role: "billing_manager", modifiedAt: null });
    // The same email again (any case) is the member already there.
    const again = await polar.customers.members.create({ id: team.id, memberCreateFromCustomer: { email: "ANN@example.com" } });
    expect(again.id).toBe(added.id);
    expect(await polar.customers.members.get({ id: team.id, memberId: added.id })).toEqual(added);

    const renamed = await polar.customers.members.update({
      id: team.id,
      memberId: added.id,
      memberUpdate: { name: "Ann B.", email: "ann.b@example.com", role: "member" },
    });
    expect(renamed).toMatchObject({ name: "Ann B.", email: "ann.b@example.com", role: "member" });
    expect(renamed.modifiedAt).toBeInstanceOf(Date);
    const taken = await rejects(
      polar.customers.members.update({ id: team.id, memberId: added.id, memberUpdate: { email: "Boss@example.com" } }),
      HTTPValidationError,
    );
    expect(taken.detail?.[0]).toMatchObject({ loc: ["body", "email"], msg: "A member with this email already exists for this customer." });
    const dupExternal = await rejects(
      polar.customers.members.create({ id: team.id, memberCreateFromCustomer: { email: "other@example.com", externalId: "ann" } }),
      HTTPValidationError,
    );
    expect(dupExternal.detail?.[0]?.loc).toEqual(["body", "external_id"]);

    // The owner can't be demoted nor removed; promoting another hands ownership over.
    const demote = await rejects(
      polar.customers.members.update({ id: team.id, memberId: owner.id, memberUpdate: { role: "member" } }),
      HTTPValidationError,
    );
    expect(demote.detail?.[0]?.loc).toEqual(["body", "role"]);
    const removeOwner = await rejects(polar.customers.members.delete({ id: team.id, memberId: owner.id }), HTTPValidationError);
    expect(removeOwner.detail?.[0]?.msg).toBe("Cannot delete the only owner. Transfer ownership first.");
    const promoted = await polar.customers.members.update({ id: team.id, memberId: added.id, memberUpdate: { role: "owner" } });
    expect(promoted.role).toBe("owner");
    expect(await polar.customers.members.get({ id: team.id, memberId: owner.id })).toMatchObject({ role: "billing_manager" });

    await polar.customers.members.delete({ id: team.id, memberId: owner.id });
    await rejects(polar.customers.members.get({ id: team.id, memberId: owner.id }), ResourceNotFound);
    expect((await membersOf(polar, team.id)).map((m) => m.id)).toEqual([added.id]);

    expect((await outbox(orgId, "member.created")).map((e) => e.data.id)).toEqual([owner.id, added.id]);
    expect((await outbox(orgId, "member.updated")).map((e) => [e.data.id, e.data.role])).toEqual([
      [added.id, "member"],
      [owner.id, "billing_manager"],
      [added.id, "owner"],
    ]);
    expect((await outbox(orgId, "member.deleted")).map((e) => e.data.id)).toEqual([owner.id]);

    // Deleting the customer removes its members.
    await polar.customers.delete({ id: team.id });
    expect(await collectPages(await polar.members.listMembers({}))).toEqual([]);
    expect((await outbox(orgId, "member.deleted")).map((e) => e.data.id)).toEqual([owner.id, added.id]);
  });

  it("shows the organization to buyers after 0.49.0 switched the Member model on with Polar's other feature settings", async () => {
    const { orgId } = await memberOrg();
    const { slug } = await api.knex("organizations").where({ id: orgId }).first("slug");
    const res = await fetch(`${api.url}/v1/customer-portal/organizations/${slug}`);
    expect(res.status).toBe(200);
    expect((await res.json()).organization.feature_settings).toEqual({
      issue_funding_enabled: false,
      member_model_enabled: true,
      seat_based_pricing_enabled: false,
      reset_proration_behavior_enabled: false,
    });
  });

  it("manages members by the customer's and the member's external ids", async () => {
    const { polar } = await memberOrg();
    const team = await polar.customers.create({ type: "team", email: "ext@example.com", externalId: "team_1" });
    const [owner] = await membersOf(polar, team.id);
    // The owner defaults to the customer's email, name and external id.
    expect(owner).toMatchObject({ email: "ext@example.com", externalId: "team_1", role: "owner" });
    const m = await polar.customers.members.createExternal({
      externalId: "team_1",
      memberCreateFromCustomer: { email: "x@example.com", externalId: "m_1" },
    });
    expect(m).toMatchObject({ role: "member", externalId: "m_1" });
    expect(await polar.customers.members.getExternal({ externalId: "team_1", memberExternalId: "m_1" })).toEqual(m);
    const updated = await polar.customers.members.updateExternal({
      externalId: "team_1",
      memberExternalId: "m_1",
      memberUpdate: { role: "billing_manager" },
    });
    expect(updated.role).toBe("billing_manager");
    await polar.customers.members.deleteExternal({ externalId: "team_1", memberExternalId: "m_1" });
    await rejects(polar.customers.members.getExternal({ externalId: "team_1", memberExternalId: "m_1" }), ResourceNotFound);
    await rejects(polar.customers.members.getExternal({ externalId: "nobody", memberExternalId: "m_1" }), ResourceNotFound);
  });

  it("lists the organization's members with filters and sorting", async () => {
    const { polar } = await memberOrg();
    const a = await polar.customers.create({ type: "team", email: "a@example.com", externalId: "a" });
    const b = await polar.customers.create({ type: "team", email: "b@example.com" });
    const am = await polar.customers.members.create({ id: a.id, memberCreateFromCustomer: { email: "am@example.com" } });
    const all = await collectPages(await polar.members.listMembers({ sorting: ["created_at"] }));
    expect(all.map((m) => m.email)).toEqual(["a@example.com", "b@example.com", "am@example.com"]);
    const newest = await polar.members.listMembers({ sorting: ["-created_at"], limit: 1 });
    expect(newest.result.items.map((m) => m.id)).toEqual([am.id]);
    expect(newest.result.pagination).toEqual({ totalCount: 3, maxPage: 3 });
    expect((await collectPages(await polar.members.listMembers({ externalCustomerId: "a" }))).map((m) => m.id).sort()).toEqual(
      [am.id, all[0].id].sort(),
    );
    expect((await collectPages(await polar.members.listMembers({ customerId: b.id }))).map((m) => m.email)).toEqual(["b@example.com"]);
    expect((await collectPages(await polar.members.listMembers({ role: "member" }))).map((m) => m.id)).toEqual([am.id]);
    const bad = await rejects(polar.members.listMembers({ customerId: "not-a-uuid" }), HTTPValidationError);
    expect(bad.detail?.[0]?.loc).toEqual(["query", "customer_id"]);
  });

  it("refuses a role the operation does not offer, and what the Member model or an individual customer does not allow", async () => {
    const { polar, token } = await memberOrg();
    const team = await polar.customers.create({ type: "team", email: "roles@example.com" });
    // The client offers member and billing_manager only: a raw call asks for owner.
    const res = await fetch(`${api.url}/v1/customers/${team.id}/members`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ email: "o@example.com", role: "owner" }),
    });
    expect(res.status).toBe(422);
    expect((await res.json()).detail[0].loc).toEqual(["body", "role"]);

    // An individual customer has its owner only.
    const solo = await polar.customers.create({ email: "solo@example.com" });
    expect((await membersOf(polar, solo.id)).map((m) => m.role)).toEqual(["owner"]);
    await rejects(polar.customers.members.create({ id: solo.id, memberCreateFromCustomer: { email: "x@example.com" } }), NotPermitted);
    const [soloOwner] = await membersOf(polar, solo.id);
    const email = await rejects(
      polar.customers.members.update({ id: solo.id, memberId: soloOwner.id, memberUpdate: { email: "new@example.com" } }),
      HTTPValidationError,
    );
    expect(email.detail?.[0]?.loc).toEqual(["body", "email"]);
    // The owner follows the individual customer's email.
    await polar.customers.update({ id: solo.id, customerUpdate: { email: "solo.new@example.com" } });
    expect((await membersOf(polar, solo.id)).map((m) => m.email)).toEqual(["solo.new@example.com"]);
    // A team is never made an individual again.
    const down = await rejects(polar.customers.update({ id: team.id, customerUpdate: { type: "individual" } }), HTTPValidationError);
    expect(down.detail?.[0]?.loc).toEqual(["body", "type"]);

    // Without the Member model: no owner is made, and no member can be added.
    const off = await memberOrg(false);
    const plain = await off.polar.customers.create({ type: "team", email: "plain@example.com" });
    expect(await membersOf(off.polar, plain.id)).toEqual([]);
    const refused = await rejects(
      off.polar.customers.members.create({ id: plain.id, memberCreateFromCustomer: { email: "x@example.com" } }),
      NotPermitted,
    );
    expect(refused.detail).toBe("Member management is not enabled for this organization.");
  });

  it("makes the owner with a customer of the API or of a checkout where seat-based pricing or the Member model is on, as Polar", async () => {
    /** The customer a confirmed checkout (sandbox card) makes for `email`. */
    const bought = async (polar: Polar049, email: string) => {
      const product = await polar.products.create({
        name: "Kit",
        prices: [{ amountType: "fixed", priceCurrency: "usd", priceAmount: 1000 }],
      });
      const checkout = await polar.checkouts.create({ products: [product.id], customerEmail: email, customerName: "Buyer" });
      await api.client049("").checkouts.clientConfirm({
        clientSecret: checkout.clientSecret,
        checkoutConfirmStripe: { customerBillingAddress: { country: "FR" }, confirmationTokenId: "tok_sandbox_success" },
      });
      return (await api.knex("customers").where({ organization_id: checkout.organizationId, email }).first("id")).id as string;
    };
    const { orgId, polar } = await memberOrg(false);
    await polar.organizations.update({ id: orgId, organizationUpdate: { featureSettings: { seatBasedPricingEnabled: true } } });
    const solo = await polar.customers.create({ email: "solo@example.com", name: "Solo", externalId: "solo" });
    expect(await membersOf(polar, solo.id)).toEqual([
      expect.objectContaining({ email: "solo@example.com", name: "Solo", externalId: "solo", role: "owner" }),
    ]);
    // What the `owner` leaves out is the customer's.
    const team = await polar.customers.create({
      type: "team",
      email: "t@example.com",
      name: "T Inc",
      externalId: "t",
      owner: { email: "boss@example.com" },
    });
    expect(await membersOf(polar, team.id)).toEqual([
      expect.objectContaining({ email: "boss@example.com", name: "T Inc", externalId: "t", role: "owner" }),
    ]);
    const buyer = await bought(polar, "buyer@example.com");
    const [owner] = await membersOf(polar, buyer);
    expect(owner).toMatchObject({ customerId: buyer, email: "buyer@example.com", name: "Buyer", role: "owner" });
    expect((await outbox(orgId, "member.created")).map((e) => e.data.id)).toContain(owner.id);

    const members = await memberOrg();
    const member = await bought(members.polar, "m@example.com");
    expect((await membersOf(members.polar, member)).map((m) => [m.email, m.role])).toEqual([["m@example.com", "owner"]]);
    // Neither on: no owner.
    const off = await memberOrg(false);
    expect(await membersOf(off.polar, await bought(off.polar, "off@example.com"))).toEqual([]);
  });

  it("keeps each organization's members its own, and asks for the members scopes", async () => {
    const one = await memberOrg();
    const two = await memberOrg();
    const team = await one.polar.customers.create({ type: "team", email: "mine@example.com" });
    const [owner] = await membersOf(one.polar, team.id);
    await rejects(two.polar.customers.members.get({ id: team.id, memberId: owner.id }), ResourceNotFound);
    await rejects(
      two.polar.customers.members.create({ id: team.id, memberCreateFromCustomer: { email: "x@example.com" } }),
      ResourceNotFound,
    );
    await rejects(two.polar.customers.members.delete({ id: team.id, memberId: owner.id }), ResourceNotFound);
    expect(await collectPages(await two.polar.members.listMembers({ customerId: team.id }))).toEqual([]);
    // Another customer's member is not found under this customer.
    const other = await one.polar.customers.create({ type: "team", email: "other@example.com" });
    await rejects(one.polar.customers.members.get({ id: other.id, memberId: owner.id }), ResourceNotFound);

    const read = api.client049(await mintOrganizationToken(api.knex, one.orgId, { scopes: ["members:read"] }));
    expect((await membersOf(read, team.id)).map((m) => m.id)).toEqual([owner.id]);
    await rejects(read.customers.members.create({ id: team.id, memberCreateFromCustomer: { email: "x@example.com" } }), NotPermitted);
    const cust = api.client049(await mintOrganizationToken(api.knex, one.orgId, { scopes: ["customers:read", "customers:write"] }));
    const denied = await rejects(cust.members.listMembers({}), SDKError);
    expect(denied.statusCode).toBe(403);
  });

  it("lets a team's owner manage its members in the portal", async () => {
    const { polar } = await memberOrg();
    const team = await polar.customers.create({ type: "team", email: "portal@example.com", name: "Portal Team" });
    const [owner] = await membersOf(polar, team.id);
    const portal = api.client049(await createCustomerSessionToken(api.knex, team.id));

    const added = await portal.customerPortal.members.addMember({ email: "pat@example.com", name: "Pat" });
    expect(added).toMatchObject({ email: "pat@example.com", name: "Pat", role: "member" });
    const listed = await collectPages(await portal.customerPortal.members.listMembers({}));
    expect(listed.map((m) => [m.email, m.role])).toEqual([
      ["portal@example.com", "owner"],
      ["pat@example.com", "member"],
    ]);
    const made = await portal.customerPortal.members.updateMember({
      id: added.id,
      customerPortalMemberUpdate: { role: "billing_manager" },
    });
    expect(made.role).toBe("billing_manager");

    const asOwner = await rejects(portal.customerPortal.members.addMember({ email: "o@example.com", role: "owner" }), HTTPValidationError);
    expect(asOwner.detail?.[0]?.loc).toEqual(["body", "role"]);
    const ownRole = await rejects(
      portal.customerPortal.members.updateMember({ id: owner.id, customerPortalMemberUpdate: { role: "member" } }),
      HTTPValidationError,
    );
    expect(ownRole.detail?.[0]).toMatchObject({ loc: ["path", "id"], msg: "You cannot modify your own role." });
    const self = await rejects(portal.customerPortal.members.removeMember({ id: owner.id }), HTTPValidationError);
    expect(self.detail?.[0]?.msg).toBe("You cannot remove yourself from the team.");

    // The owner hands ownership over, then is a billing manager.
    const handed = await portal.customerPortal.members.updateMember({ id: added.id, customerPortalMemberUpdate: { role: "owner" } });
    expect(handed.role).toBe("owner");
    expect(await polar.customers.members.get({ id: team.id, memberId: owner.id })).toMatchObject({ role: "billing_manager" });

    // Another team's member is not found here.
    const other = await polar.customers.create({ type: "team", email: "elsewhere@example.com" });
    const [otherOwner] = await membersOf(polar, other.id);
    const missing = await rejects(portal.customerPortal.members.removeMember({ id: otherOwner.id }), SDKError);
    expect(missing.statusCode).toBe(404);
  });

  it("lets a billing manager's session manage the team, and not a member's", async () => {
    const { polar } = await memberOrg();
    const team = await polar.customers.create({ type: "team", email: "roles-team@example.com", externalId: "roles-team" });
    const [owner] = await membersOf(polar, team.id);
    const manager = await polar.customers.members.create({
      id: team.id,
      memberCreateFromCustomer: { email: "manager@example.com", role: "billing_manager", externalId: "manager" },
    });
    const plain = await polar.customers.members.create({ id: team.id, memberCreateFromCustomer: { email: "plain@example.com" } });
    const sessionOf = async (member: { memberId?: string; externalMemberId?: string }) =>
      api.client049((await polar.customerSessions.create({ customerId: team.id, ...member })).token);

    const asManager = await sessionOf({ externalMemberId: "manager" });
    expect((await collectPages(await asManager.customerPortal.members.listMembers({}))).map((m) => m.id)).toEqual([
      owner.id,
      manager.id,
      plain.id,
    ]);
    const added = await asManager.customerPortal.members.addMember({ email: "new@example.com", role: "billing_manager" });
    expect(added.role).toBe("billing_manager");
    // Only the owner hands ownership over.
    const transfer = await rejects(
      asManager.customerPortal.members.updateMember({ id: plain.id, customerPortalMemberUpdate: { role: "owner" } }),
      HTTPValidationError,
    );
    expect(transfer.detail?.[0]).toMatchObject({ loc: ["body", "role"], msg: "Only the owner can transfer ownership." });
    const removeOwner = await rejects(asManager.customerPortal.members.removeMember({ id: owner.id }), HTTPValidationError);
    expect(removeOwner.detail?.[0]?.msg).toBe("Cannot delete the only owner. Transfer ownership first.");
    await asManager.customerPortal.members.removeMember({ id: added.id });

    const asMember = await sessionOf({ memberId: plain.id });
    const refused = await rejects(asMember.customerPortal.members.listMembers({}), SDKError);
    expect(refused.statusCode).toBe(403);
    const refusedAdd = await rejects(asMember.customerPortal.members.addMember({ email: "x@example.com" }), SDKError);
    expect(refusedAdd.statusCode).toBe(403);

    // A session for another customer's member, or for none, is refused when it is opened.
    const other = await polar.customers.create({ type: "team", email: "roles-other@example.com" });
    const [otherOwner] = await membersOf(polar, other.id);
    const wrong = await rejects(polar.customerSessions.create({ customerId: team.id, memberId: otherOwner.id }), HTTPValidationError);
    expect(wrong.detail?.[0]?.loc).toEqual(["body", "member_id"]);
    const unknown = await rejects(polar.customerSessions.create({ customerId: team.id, externalMemberId: "nobody" }), HTTPValidationError);
    expect(unknown.detail?.[0]?.loc).toEqual(["body", "external_member_id"]);
  });

  it("keeps the portal's members to teams of organizations with the Member model", async () => {
    const { polar } = await memberOrg();
    const solo = await polar.customers.create({ email: "single@example.com" });
    const soloPortal = api.client049(await createCustomerSessionToken(api.knex, solo.id));
    const individual = await rejects(soloPortal.customerPortal.members.listMembers({}), SDKError);
    expect(individual.statusCode).toBe(403);

    const off = await memberOrg(false);
    const team = await off.polar.customers.create({ type: "team", email: "offteam@example.com" });
    const offPortal = api.client049(await createCustomerSessionToken(api.knex, team.id));
    const disabled = await rejects(offPortal.customerPortal.members.addMember({ email: "x@example.com" }), SDKError);
    expect(disabled.statusCode).toBe(403);
  });
});
