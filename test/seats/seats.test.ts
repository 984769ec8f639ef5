// Seats through the 0.49.0 client: a team's seat-based subscription, assigning by email, customer
// and member (the invitation in the outbox), claim info and claim with the token (the team's new
// member, the product's benefits granted to the holder, a portal session), resend, revoke (the
// grants revoked, the seat reused), the portal's operations for the buyer, the rules and errors,
// customer_seat.* events, the feature switch and tenant isolation.
import { describe, expect, it } from "vitest";
import type { Polar as Polar049 } from "polar-sdk-049";
import { HTTPValidationError } from "polar-sdk-049/models/errors/httpvalidationerror.js";
import { SDKError } from "polar-sdk-049/models/errors/sdkerror.js";
import {
  createBenefit,
  createCustomerSessionToken,
  createOrder,
  createPayment,
  orgWithToken,
  rejects,
  useTestApi,
} from "../harness/index.js";
import { createSubscriptionFixture } from "../harness/subscription-fixture.js";

const api = useTestApi();

interface SeatShop {
  orgId: string;
  polar: Polar049;
  teamId: string;
  subscriptionId: string;
  benefitId: string;
  productId: string;
}

/** An organization with seats (and members) on, a team with its owner subscribed to a product of one benefit with `seats` seats. */
async function seatShop(seats = 2, enabled = true): Promise<SeatShop> {
  const { org, token } = await orgWithToken(api.knex);
  const polar = api.client049(token);
  await polar.organizations.update({
    id: org.id,
    organizationUpdate: { featureSettings: { memberModelEnabled: true, seatBasedPricingEnabled: enabled } },
  });
  const team = await polar.customers.create({ type: "team", email: `team-${org.id.slice(0, 8)}@example.com`, name: "Initech" });
  const f = await createSubscriptionFixture(api.knex, { startedAt: new Date(), organizationId: org.id, overrides: { seats } });
  await api.knex("subscriptions").where({ id: f.subscription.id }).update({ customer_id: team.id });
  const benefit = await createBenefit(api.knex, org.id);
  await api.knex("product_benefits").insert({ product_id: f.productId, benefit_id: benefit.id, order: 0 });
  return { orgId: org.id, polar, teamId: team.id, subscriptionId: f.subscription.id, benefitId: benefit.id, productId: f.productId };
}

async function failure(p: Promise<unknown>, status: number): Promise<{ error: string; detail: string }> {
  const err = await rejects(p, SDKError);
  expect(err.statusCode).toBe(status);
  return JSON.parse(err.body) as { error: string; detail: string };
}

async function outbox(orgId: string, type: string): Promise<Record<string, unknown>[]> {
  const rows: { payload: { data: Record<string, unknown> } }[] = await api
    .knex("outbox")
    .where({ organization_id: orgId, type })
    .orderBy("id");
  return rows.map((r) => r.payload.data);
}

async function tokenOf(seatId: string): Promise<string> {
  const row: { invitation_token: string } = await api.knex("customer_seats").where({ id: seatId }).first("invitation_token");
  return row.invitation_token;
}

async function grantsOf(customerId: string, subscriptionId: string) {
  return api.knex("benefit_grants").where({ customer_id: customerId, subscription_id: subscriptionId }).select("id", "benefit_id");
}

async function jobsOf(grantId: string): Promise<string[]> {
  return (await api.knex("benefit_grant_jobs").where({ grant_id: grantId }).orderBy("seq").select("action")).map(
    (r: { action: string }) => r.action,
  );
}

describe("customer seats", () => {
  it("assigns by email, claims with the token, and takes the benefits back on revoke", async () => {
    const s = await seatShop(2);
    const empty = await s.polar.customerSeats.listSeats({ subscriptionId: s.subscriptionId });
    expect(empty).toEqual({ seats: [], availableSeats: 2, totalSeats: 2 });

    const seat = await s.polar.customerSeats.assignSeat({
      subscriptionId: s.subscriptionId,
      email: "ann@example.com",
      metadata: { team: "a" },
    });
    expect(seat).toMatchObject({ status: "pending", subscriptionId: s.subscriptionId, orderId: null, email: "ann@example.com" });
    expect(seat).toMatchObject({ customerEmail: "ann@example.com", memberId: null, member: null, seatMetadata: { team: "a" } });
    expect(seat.invitationTokenExpiresAt!.getTime()).toBeGreaterThan(Date.now());
    // The holder is a customer of the organization, made for the email.
    const holder = await s.polar.customers.get({ id: seat.customerId! });
    expect(holder.email).toBe("ann@example.com");
    expect(await outbox(s.orgId, "customer_seat.assigned")).toMatchObject([{ id: seat.id, status: "pending" }]);
    expect(await outbox(s.orgId, "email.seat_invitation")).toEqual([{ seat_id: seat.id }]);

    const again = await failure(s.polar.customerSeats.assignSeat({ subscriptionId: s.subscriptionId, email: "ANN@example.com" }), 400);
    expect(again.error).toBe("SeatAlreadyAssigned");
    const listed = await s.polar.customerSeats.listSeats({ subscriptionId: s.subscriptionId });
    expect(listed).toMatchObject({ availableSeats: 1, totalSeats: 2 });
    expect(listed.seats.map((x) => x.id)).toEqual([seat.id]);

    const token = await tokenOf(seat.id);
    expect(await s.polar.customerSeats.getClaimInfo({ invitationToken: token })).toEqual({
      productName: "Pro monthly",
      productId: s.productId,
      organizationName: expect.any(String),
      organizationSlug: expect.any(String),
      customerEmail: "ann@example.com",
      canClaim: true,
    });
    const claimed = await s.polar.customerSeats.claimSeat({ invitationToken: token });
    expect(claimed.seat).toMatchObject({ id: seat.id, status: "claimed", customerId: holder.id });
    expect(claimed.seat.claimedAt).toBeInstanceOf(Date);
    // The team has a member for the holder now.
    expect(claimed.seat.member).toMatchObject({ customerId: s.teamId, email: "ann@example.com", role: "member" });
    expect(await outbox(s.orgId, "customer_seat.claimed")).toMatchObject([{ id: seat.id, status: "claimed" }]);
    // The product's benefits go to the holder, scoped to the subscription: granted by a job.
    const [grant] = await grantsOf(holder.id, s.subscriptionId);
    expect(grant.benefit_id).toBe(s.benefitId);
    expect(await jobsOf(grant.id)).toEqual(["grant"]);
    // The session is the holder's portal session.
    const portal = api.client049("");
    const me = await portal.customerPortal.customers.get({ customerSession: claimed.customerSessionToken });
    expect(me.id).toBe(holder.id);
    const mine = await portal.customerPortal.seats.listClaimedSubscriptions({ customerSession: claimed.customerSessionToken }, {});
    expect(mine.result.items.map((x) => x.id)).toEqual([s.subscriptionId]);

    // A used token is refused, and no longer tells anything.
    expect((await failure(s.polar.customerSeats.claimSeat({ invitationToken: token }), 400)).error).toBe("InvalidInvitationToken");
    await failure(s.polar.customerSeats.getClaimInfo({ invitationToken: token }), 404);
    expect((await failure(s.polar.customerSeats.resendInvitation({ seatId: seat.id }), 400)).error).toBe("SeatNotPending");

    const revoked = await s.polar.customerSeats.revokeSeat({ seatId: seat.id });
    expect(revoked).toMatchObject({ id: seat.id, status: "revoked", customerId: null, memberId: null, email: null });
    expect(await jobsOf(grant.id)).toEqual(["grant", "revoke"]);
    expect(await outbox(s.orgId, "customer_seat.revoked")).toMatchObject([{ id: seat.id, status: "revoked" }]);
    // Revoking again answers the seat as it is.
    expect((await s.polar.customerSeats.revokeSeat({ seatId: seat.id })).revokedAt).toEqual(revoked.revokedAt);
    // The freed seat is handed out again.
    const reused = await s.polar.customerSeats.assignSeat({ subscriptionId: s.subscriptionId, email: "bob@example.com" });
    expect(reused).toMatchObject({ id: seat.id, status: "pending", email: "bob@example.com", revokedAt: null });
  });

  it("assigns by customer, external id and member; claims at once; counts the seats left", async () => {
    const s = await seatShop(3);
    const cust = await s.polar.customers.create({ email: "carl@example.com", externalId: "carl" });
    const member = await s.polar.customers.members.create({ id: s.teamId, memberCreateFromCustomer: { email: "dina@example.com" } });
    const byId = await s.polar.customerSeats.assignSeat({ subscriptionId: s.subscriptionId, customerId: cust.id, immediateClaim: true });
    expect(byId).toMatchObject({ status: "claimed", customerId: cust.id, invitationTokenExpiresAt: null });
    expect(await outbox(s.orgId, "email.seat_invitation")).toEqual([]);
    expect(await grantsOf(cust.id, s.subscriptionId)).toHaveLength(1);
    const byMember = await s.polar.customerSeats.assignSeat({ subscriptionId: s.subscriptionId, memberId: member.id });
    expect(byMember).toMatchObject({ status: "pending", email: "dina@example.com" });
    const third = await s.polar.customerSeats
      .assignSeat({ subscriptionId: s.subscriptionId, externalCustomerId: "nobody" })
      .catch((e) => e);
    expect(third).toBeInstanceOf(SDKError);
    expect((third as SDKError).statusCode).toBe(404);
    await s.polar.customerSeats.assignSeat({ subscriptionId: s.subscriptionId, email: "eve@example.com" });
    const full = await failure(s.polar.customerSeats.assignSeat({ subscriptionId: s.subscriptionId, email: "fay@example.com" }), 400);
    expect(full.error).toBe("SeatNotAvailable");
    expect((await s.polar.customerSeats.listSeats({ subscriptionId: s.subscriptionId })).availableSeats).toBe(0);

    const resent = await s.polar.customerSeats.resendInvitation({ seatId: byMember.id });
    expect(resent.invitationTokenExpiresAt!.getTime()).toBeGreaterThanOrEqual(byMember.invitationTokenExpiresAt!.getTime());
    expect(await outbox(s.orgId, "email.seat_invitation")).toHaveLength(3);
  });

  it("answers the rules' errors", async () => {
    const s = await seatShop(1);
    const none = await failure(s.polar.customerSeats.assignSeat({ subscriptionId: s.subscriptionId }), 400);
    expect(none.error).toBe("InvalidSeatAssignmentRequest");
    const two = await failure(
      s.polar.customerSeats.assignSeat({ subscriptionId: s.subscriptionId, email: "a@example.com", customerId: s.teamId }),
      400,
    );
    expect(two.error).toBe("InvalidSeatAssignmentRequest");
    const noTarget = await rejects(s.polar.customerSeats.assignSeat({ email: "a@example.com" }), HTTPValidationError);
    expect(noTarget.detail?.[0]?.loc).toEqual(["body", "subscription_id"]);
    const badMeta = await rejects(
      s.polar.customerSeats.assignSeat({
        subscriptionId: s.subscriptionId,
        email: "a@example.com",
        metadata: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, i])),
      }),
      HTTPValidationError,
    );
    expect(badMeta.detail?.[0]?.loc).toEqual(["body", "metadata"]);
    await failure(s.polar.customerSeats.assignSeat({ subscriptionId: crypto.randomUUID(), email: "a@example.com" }), 404);
    await failure(s.polar.customerSeats.revokeSeat({ seatId: crypto.randomUUID() }), 404);
    await failure(s.polar.customerSeats.resendInvitation({ seatId: crypto.randomUUID() }), 404);
    expect((await failure(s.polar.customerSeats.claimSeat({ invitationToken: "nope" }), 400)).error).toBe("InvalidInvitationToken");
    await failure(s.polar.customerSeats.getClaimInfo({ invitationToken: "nope" }), 404);
    // An expired invitation can't be claimed.
    const seat = await s.polar.customerSeats.assignSeat({ subscriptionId: s.subscriptionId, email: "late@example.com" });
    await api
      .knex("customer_seats")
      .where({ id: seat.id })
      .update({ invitation_token_expires_at: new Date(Date.now() - 1000) });
    expect((await failure(s.polar.customerSeats.claimSeat({ invitationToken: await tokenOf(seat.id) }), 400)).error).toBe(
      "InvalidInvitationToken",
    );
    // A canceled subscription has no seats to give.
    await s.polar.customerSeats.revokeSeat({ seatId: seat.id });
    await api.knex("subscriptions").where({ id: s.subscriptionId }).update({ status: "canceled" });
    expect((await failure(s.polar.customerSeats.assignSeat({ subscriptionId: s.subscriptionId, email: "x@example.com" }), 400)).error).toBe(
      "SeatNotAvailable",
    );
  });

  it("is refused where seat-based pricing is off, and across organizations", async () => {
    const off = await seatShop(1, false);
    const denied = await failure(off.polar.customerSeats.listSeats({ subscriptionId: off.subscriptionId }), 403);
    expect(denied.error).toBe("FeatureNotEnabled");
    await failure(off.polar.customerSeats.assignSeat({ subscriptionId: off.subscriptionId, email: "a@example.com" }), 403);

    const a = await seatShop(1);
    const b = await seatShop(1);
    const seat = await a.polar.customerSeats.assignSeat({ subscriptionId: a.subscriptionId, email: "a@example.com" });
    await failure(b.polar.customerSeats.listSeats({ subscriptionId: a.subscriptionId }), 404);
    await failure(b.polar.customerSeats.assignSeat({ subscriptionId: a.subscriptionId, email: "b@example.com" }), 404);
    await failure(b.polar.customerSeats.revokeSeat({ seatId: seat.id }), 404);
    await failure(b.polar.customerSeats.resendInvitation({ seatId: seat.id }), 404);
    expect((await a.polar.customerSeats.listSeats({ subscriptionId: a.subscriptionId })).seats[0].status).toBe("pending");
    // A token without the seat scopes is refused.
    const { token } = await orgWithToken(api.knex, { scopes: ["customers:read"] });
    await failure(api.client049(token).customerSeats.listSeats({ subscriptionId: a.subscriptionId }), 403);
  });

  it("lets the buyer's portal session manage the seats, not a plain member's nor another customer's", async () => {
    const s = await seatShop(2);
    const owner = await createCustomerSessionToken(api.knex, s.teamId);
    const portal = api.client049("").customerPortal.seats;
    const seat = await portal.assignSeat({ customerSession: owner }, { subscriptionId: s.subscriptionId, email: "gus@example.com" });
    expect(seat).toMatchObject({ status: "pending", email: "gus@example.com" });
    const list = await portal.listSeats({ customerSession: owner }, { subscriptionId: s.subscriptionId });
    expect(list).toMatchObject({ availableSeats: 1, totalSeats: 2 });
    expect((await portal.resendInvitation({ customerSession: owner }, { seatId: seat.id })).id).toBe(seat.id);
    const immediate = await rejects(
      portal.assignSeat({ customerSession: owner }, { subscriptionId: s.subscriptionId, email: "h@example.com", immediateClaim: true }),
      HTTPValidationError,
    );
    expect(immediate.detail?.[0]?.loc).toEqual(["body", "immediate_claim"]);

    // Another customer's session doesn't see the subscription nor its seats.
    const other = await s.polar.customers.create({ email: "other@example.com" });
    const otherSession = await createCustomerSessionToken(api.knex, other.id);
    await failure(portal.listSeats({ customerSession: otherSession }, { subscriptionId: s.subscriptionId }), 404);
    await failure(portal.revokeSeat({ customerSession: otherSession }, { seatId: seat.id }), 404);
    // A plain member's session is refused.
    const member = await s.polar.customers.members.create({ id: s.teamId, memberCreateFromCustomer: { email: "plain@example.com" } });
    const memberSession = await s.polar.customerSessions.create({ customerId: s.teamId, memberId: member.id });
    await failure(portal.listSeats({ customerSession: memberSession.token }, { subscriptionId: s.subscriptionId }), 403);

    expect((await portal.revokeSeat({ customerSession: owner }, { seatId: seat.id })).status).toBe("revoked");
    const none = await portal.listClaimedSubscriptions({ customerSession: owner }, {});
    expect(none.result.items).toEqual([]);
  });

  it("revokes every live seat when the subscription ends, with the holders' grants", async () => {
    const s = await seatShop(3);
    const holder = await s.polar.customers.create({ email: "ivy@example.com" });
    const claimed = await s.polar.customerSeats.assignSeat({
      subscriptionId: s.subscriptionId,
      customerId: holder.id,
      immediateClaim: true,
    });
    const pending = await s.polar.customerSeats.assignSeat({ subscriptionId: s.subscriptionId, email: "jon@example.com" });
    const [grant] = await grantsOf(holder.id, s.subscriptionId);

    // Canceling at period end keeps the seats until the period is over.
    await s.polar.subscriptions.update({ id: s.subscriptionId, subscriptionUpdate: { cancelAtPeriodEnd: true } });
    expect((await s.polar.customerSeats.listSeats({ subscriptionId: s.subscriptionId })).availableSeats).toBe(1);
    expect(await outbox(s.orgId, "customer_seat.revoked")).toEqual([]);

    await s.polar.subscriptions.revoke({ id: s.subscriptionId });
    const rows = await api.knex("customer_seats").where({ subscription_id: s.subscriptionId }).orderBy("created_at");
    expect(rows.map((r: { id: string; status: string }) => [r.id, r.status])).toEqual([
      [claimed.id, "revoked"],
      [pending.id, "revoked"],
    ]);
    expect((await outbox(s.orgId, "customer_seat.revoked")).map((x) => x.id)).toEqual([claimed.id, pending.id]);
    expect(await jobsOf(grant.id)).toEqual(["grant", "revoke"]);
    // The invitation can't be claimed any more.
    expect(rows[1].invitation_token).toBeNull();
  });

  it("revokes an order's seats when a refund takes its benefits back, not otherwise", async () => {
    const s = await seatShop(1);
    const order = await createOrder(
      api.knex,
      s.orgId,
      { customerId: s.teamId, productId: s.productId },
      { subtotal_amount: 3000, seats: 2 },
    );
    await createPayment(api.knex, s.orgId, { order_id: order.id, amount: 3000 });
    const seat = await s.polar.customerSeats.assignSeat({ orderId: order.id, email: "kim@example.com", immediateClaim: true });
    await s.polar.refunds.create({ orderId: order.id, reason: "customer_request", amount: 1000 });
    expect((await s.polar.customerSeats.listSeats({ orderId: order.id })).seats[0].status).toBe("claimed");
    await s.polar.refunds.create({ orderId: order.id, reason: "customer_request", amount: 1000, revokeBenefits: true });
    const listed = await s.polar.customerSeats.listSeats({ orderId: order.id });
    expect(listed.seats.map((x) => [x.id, x.status])).toEqual([[seat.id, "revoked"]]);
    expect((await outbox(s.orgId, "customer_seat.revoked")).map((x) => x.id)).toEqual([seat.id]);
    const [grant] = await api.knex("benefit_grants").where({ customer_id: seat.customerId, order_id: order.id }).select("id");
    expect(await jobsOf(grant.id)).toEqual(["grant", "revoke"]);
  });
});
