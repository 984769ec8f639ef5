// Seat rules, as Polar's (server/polar/customer_seat/): where the organization enabled seat-based
// pricing, a subscription's (or order's) buyer assigns up to `seats` seats to customers; a pending
// seat's holder claims it with the emailed token and gets the product's benefits, scoped to the
// subscription (grants follow the seat, not the buyer); revoking takes them back and frees the seat.
// Each change locks the purchase or the seat and writes customer_seat.* in the same transaction.
import { randomBytes } from "node:crypto";
import type { Knex } from "knex";
import type { OpBody } from "../../generated/handlers.js";
import { scheduleBenefitGrants, scheduleBenefitRevocations } from "../benefit-grants/schedule.js";
import { toCustomer } from "../customers/models.js";
import {
  byIds as customersByIds,
  findCustomer,
  insertUnlessEmailTaken,
  liveInOrganization,
  type CustomerRow,
} from "../customers/repository.js";
import { findReadable as findOrder } from "../orders/repository.js";
import { insertSession } from "../customer-sessions/repository.js";
import { CUSTOMER_SESSION_TTL_MS } from "../customer-sessions/service.js";
import { hashToken, randomToken, type CustomerCaller, type OrganizationCaller } from "../kit/auth.js";
import { checkEmail } from "../kit/email.js";
import { invalid, NotPermitted, ResourceNotFound } from "../kit/errors.js";
import { isUuid } from "../kit/ids.js";
import { emit, emitInternal } from "../kit/outbox.js";
import { listPage, type Page } from "../kit/pagination.js";
import { findMember, membersByIds, ownerOf } from "../members/repository.js";
import { createOwnerMember, memberForSeat } from "../members/service.js";
import { findById } from "../organizations/repository.js";
import { findProduct } from "../products/repository.js";
import { toCustomerSubscription, type CustomerSubscriptionOut } from "../subscriptions/models.js";
import {
  customerSubscriptionIdsOfCheckout,
  findReadable as findSubscription,
  LIVE_STATUSES,
  loadSubscriptionRelations,
  readable,
  type SubscriptionRow,
} from "../subscriptions/repository.js";
import {
  FeatureNotEnabled,
  InvalidInvitationToken,
  InvalidSeatAssignmentRequest,
  MemberEmailMismatch,
  SeatAlreadyAssigned,
  SeatNotAvailable,
  SeatNotPending,
} from "./errors.js";
import { toSeat, type SeatClaimInfoOut, type SeatOut, type SeatsListOut } from "./models.js";
import {
  assignedCount,
  claimedSubscriptionIds,
  findSeat,
  insertSeat,
  liveSeatOf,
  liveSeatsOf,
  revokedSeatOf,
  seatByToken,
  seatsOf,
  updateSeat,
  type SeatContainer,
  type SeatRow,
} from "./repository.js";

type AssignInput = OpBody<"customer-seats:assign_seat">;
type PortalAssignInput = OpBody<"customer_portal:seats:assign_seat">;
type Scope = { organizationId: string; customerId?: string };

/** How long an invitation can be claimed (Polar's: a day); resending starts it again. */
const INVITATION_TTL_MS = 24 * 60 * 60 * 1000;
const SEAT_NOT_FOUND = "Seat not found.";
const MAX_METADATA_KEYS = 10;
const MAX_METADATA_BYTES = 1024;

/** The organization's subscription or order (of `customerId` alone when given; never a draft), locked when `forUpdate`. */
async function findContainer(
  db: Knex,
  scope: Scope,
  key: { column: SeatContainer["column"]; id: string },
  opts: { forUpdate?: boolean } = {},
): Promise<SeatContainer | undefined> {
  const row = key.column === "subscription_id" ? await findSubscription(db, scope, key.id, opts) : await findOrder(db, scope, key.id, opts);
  if (!row || row.status === "draft") return undefined;
  return {
    column: key.column,
    id: row.id,
    organization_id: row.organization_id,
    customer_id: row.customer_id,
    product_id: row.product_id,
    status: row.status,
    seats: row.seats ?? null,
  };
}

async function requireSeats(db: Knex, organizationId: string): Promise<void> {
  const org = await findById(db, organizationId);
  if (org?.feature_settings?.seat_based_pricing_enabled !== true) throw new FeatureNotEnabled();
}

/** The subscription or order the query or body names (exactly one), locked when `forUpdate`. */
async function container(
  db: Knex,
  scope: Scope,
  ids: { subscription_id?: string | null; order_id?: string | null },
  loc: "query" | "body",
  forUpdate = false,
): Promise<SeatContainer> {
  if (ids.subscription_id) {
    const found = isUuid(ids.subscription_id)
      ? await findContainer(db, scope, { column: "subscription_id", id: ids.subscription_id }, { forUpdate })
      : undefined;
    if (!found) throw new ResourceNotFound("Subscription not found.");
    return found;
  }
  if (ids.order_id) {
    const found = isUuid(ids.order_id)
      ? await findContainer(db, scope, { column: "order_id", id: ids.order_id }, { forUpdate })
      : undefined;
    if (!found) throw new ResourceNotFound("Order not found.");
    return found;
  }
  throw invalid([loc, "subscription_id"], "Either subscription_id or order_id must be provided.", "value_error", null);
}

/** The seats as the API shows them: each with its member and its holder's email. */
async function seatsOut(db: Knex, rows: SeatRow[]): Promise<SeatOut[]> {
  const memberIds = rows.map((r) => r.member_id).filter((id): id is string => id !== null);
  const customerIds = rows.map((r) => r.customer_id).filter((id): id is string => id !== null);
  const [memberRows, customerRows] = await Promise.all([membersByIds(db, memberIds), customersByIds(db, customerIds)]);
  const members = new Map(memberRows.map((m) => [m.id, m]));
  const emails = new Map(customerRows.map((c) => [c.id, c.email]));
  return rows.map((r) =>
    toSeat(r, r.member_id ? members.get(r.member_id) : undefined, r.customer_id ? (emails.get(r.customer_id) ?? null) : null),
  );
}

const seatOut = async (db: Knex, row: SeatRow): Promise<SeatOut> => (await seatsOut(db, [row]))[0];

async function listOf(db: Knex, scope: Scope, query: { subscription_id?: string | null; order_id?: string | null }): Promise<SeatsListOut> {
  const c = await container(db, scope, query, "query");
  await requireSeats(db, c.organization_id);
  const [rows, assigned] = await Promise.all([seatsOf(db, c), assignedCount(db, c)]);
  const total = c.seats ?? 0;
  return { seats: await seatsOut(db, rows), available_seats: Math.max(0, total - assigned), total_seats: total };
}

export function listSeats(db: Knex, caller: OrganizationCaller, query: { subscription_id?: string | null; order_id?: string | null }) {
  return listOf(db, { organizationId: caller.organizationId }, query);
}

function checkMetadata(metadata: Record<string, unknown> | null | undefined): Record<string, unknown> {
  const value = metadata ?? {};
  if (Object.keys(value).length > MAX_METADATA_KEYS || Buffer.byteLength(JSON.stringify(value)) > MAX_METADATA_BYTES) {
    throw invalid(["body", "metadata"], "Metadata can have at most 10 keys and 1KB in total.", "value_error", metadata);
  }
  return value;
}

/** A live customer of the organization with this email, made (with customer.created) when there is none. */
async function customerByEmail(trx: Knex.Transaction, organizationId: string, email: string): Promise<CustomerRow> {
  const existing = (await liveInOrganization(trx, organizationId).whereRaw("lower(email) = lower(?)", [email]).first()) as
    CustomerRow | undefined;
  if (existing) return existing;
  const created = await insertUnlessEmailTaken(trx, {
    organization_id: organizationId,
    email,
    name: null,
    billing_name: null,
    billing_address: null,
    tax_id: null,
    external_id: null,
    metadata: null,
  });
  if (!created) return (await liveInOrganization(trx, organizationId).whereRaw("lower(email) = lower(?)", [email]).first()) as CustomerRow;
  await emit(trx, organizationId, "customer.created", toCustomer(created));
  await createOwnerMember(trx, created, null);
  return created;
}

/** Who the seat goes to: exactly one of a member of the buyer, an email, a customer id or external id. */
async function holderOf(trx: Knex.Transaction, c: SeatContainer, input: AssignInput): Promise<CustomerRow> {
  if (input.member_id || input.external_member_id) {
    const key = input.member_id ? { id: input.member_id } : { externalId: input.external_member_id ?? "" };
    const member = "id" in key && !isUuid(key.id) ? undefined : await findMember(trx, c.organization_id, c.customer_id, key);
    if (!member) throw new ResourceNotFound(`Member not found: ${input.member_id ?? input.external_member_id}`);
    if (input.email && input.external_member_id && member.email.toLowerCase() !== input.email.toLowerCase()) {
      throw new MemberEmailMismatch(input.external_member_id, input.email);
    }
    return customerByEmail(trx, c.organization_id, member.email);
  }
  const given = [input.email, input.customer_id, input.external_customer_id].filter((v) => v !== undefined && v !== null);
  if (given.length !== 1) throw new InvalidSeatAssignmentRequest();
  if (input.email) return customerByEmail(trx, c.organization_id, checkEmail(input.email));
  const live = liveInOrganization(trx, c.organization_id);
  const found = input.customer_id
    ? isUuid(input.customer_id)
      ? await live.where({ id: input.customer_id }).first()
      : undefined
    : await live.where({ external_id: input.external_customer_id }).first();
  if (!found) throw new ResourceNotFound(`Customer not found: ${input.customer_id ?? input.external_customer_id}`);
  return found as CustomerRow;
}

/** Claims the seat for its holder: the buyer's member, the product's benefits, customer_seat.claimed. */
async function claim(trx: Knex.Transaction, c: SeatContainer, seat: SeatRow, holder: CustomerRow): Promise<SeatRow> {
  const buyer = await findCustomer(trx, c.customer_id);
  const member = buyer ? await memberForSeat(trx, buyer, holder.email) : null;
  const claimed = await updateSeat(trx, seat.id, {
    status: "claimed",
    claimed_at: new Date(),
    invitation_token: null,
    invitation_token_expires_at: null,
    member_id: member?.id ?? null,
    email: holder.email,
  });
  await scheduleBenefitGrants(trx, {
    organizationId: c.organization_id,
    customerId: holder.id,
    productId: c.product_id,
    subscriptionId: c.column === "subscription_id" ? c.id : null,
    orderId: c.column === "order_id" ? c.id : null,
  });
  await emit(trx, c.organization_id, "customer_seat.claimed", await seatOut(trx, claimed));
  return claimed;
}

async function assign(db: Knex, scope: Scope, input: AssignInput): Promise<SeatOut> {
  return db.transaction(async (trx) => {
    // The purchase's row lock serializes assignments (and a seat count change) of one purchase.
    const c = await container(trx, scope, input, "body", true);
    await requireSeats(trx, c.organization_id);
    const metadata = checkMetadata(input.metadata);
    if (c.column === "subscription_id" && !LIVE_STATUSES.includes(c.status as SubscriptionRow["status"])) {
      throw new SeatNotAvailable("The subscription is not active.");
    }
    if (c.column === "order_id" && c.status !== "paid") throw new SeatNotAvailable("Order must be paid before assigning seats.");
    if ((c.seats ?? 0) - (await assignedCount(trx, c)) <= 0) throw new SeatNotAvailable();
    const holder = await holderOf(trx, c, input);
    if (await liveSeatOf(trx, c, holder.id)) throw new SeatAlreadyAssigned(holder.email);
    const immediate = input.immediate_claim === true;
    const values: Partial<SeatRow> = {
      status: "pending",
      customer_id: holder.id,
      member_id: null,
      email: holder.email,
      invitation_token: immediate ? null : randomBytes(32).toString("base64url"),
      invitation_token_expires_at: immediate ? null : new Date(Date.now() + INVITATION_TTL_MS),
      claimed_at: null,
      revoked_at: null,
      seat_metadata: metadata,
    };
    const reused = await revokedSeatOf(trx, c);
    const seat = reused
      ? await updateSeat(trx, reused.id, values)
      : await insertSeat(trx, Object.assign({ organization_id: c.organization_id, [c.column]: c.id }, values));
    if (immediate) return seatOut(trx, await claim(trx, c, seat, holder));
    await emit(trx, c.organization_id, "customer_seat.assigned", await seatOut(trx, seat));
    await emitInternal(trx, c.organization_id, "email.seat_invitation", { seat_id: seat.id });
    return seatOut(trx, seat);
  });
}

export function assignSeat(db: Knex, caller: OrganizationCaller, input: AssignInput): Promise<SeatOut> {
  return assign(db, { organizationId: caller.organizationId }, input);
}

/** The purchase a seat belongs to (a seat always has one; its rows cascade). */
async function containerOfSeat(db: Knex, seat: SeatRow, forUpdate = false): Promise<SeatContainer> {
  const key = seat.subscription_id
    ? { column: "subscription_id" as const, id: seat.subscription_id }
    : { column: "order_id" as const, id: seat.order_id ?? "" };
  const c = await findContainer(db, { organizationId: seat.organization_id }, key, { forUpdate });
  if (!c) throw new ResourceNotFound(SEAT_NOT_FOUND);
  return c;
}

/** Takes the seat back: its holder's benefits of the purchase are revoked (unless the holder bought it). */
async function revokeLocked(trx: Knex.Transaction, c: SeatContainer, seat: SeatRow): Promise<SeatRow> {
  if (seat.status === "revoked") return seat;
  if (seat.status === "claimed" && seat.customer_id && seat.customer_id !== c.customer_id) {
    await scheduleBenefitRevocations(trx, {
      customerId: seat.customer_id,
      subscriptionId: c.column === "subscription_id" ? c.id : null,
      orderId: c.column === "order_id" ? c.id : null,
    });
  }
  const revoked = await updateSeat(trx, seat.id, {
    status: "revoked",
    revoked_at: new Date(),
    invitation_token: null,
    invitation_token_expires_at: null,
    customer_id: null,
    member_id: null,
    email: null,
  });
  await emit(trx, c.organization_id, "customer_seat.revoked", await seatOut(trx, revoked));
  return revoked;
}

/** The scope's seat and its purchase, both locked (purchase first, as assign locks it). */
async function lockedSeat(trx: Knex.Transaction, scope: Scope, seatId: string): Promise<{ c: SeatContainer; seat: SeatRow }> {
  const found = isUuid(seatId) ? await findSeat(trx, scope.organizationId, seatId) : undefined;
  if (!found) throw new ResourceNotFound(SEAT_NOT_FOUND);
  const c = await containerOfSeat(trx, found, true);
  if (scope.customerId && c.customer_id !== scope.customerId) throw new ResourceNotFound(SEAT_NOT_FOUND);
  const seat = await findSeat(trx, scope.organizationId, seatId, { forUpdate: true });
  if (!seat) throw new ResourceNotFound(SEAT_NOT_FOUND);
  return { c, seat };
}

async function revoke(db: Knex, scope: Scope, seatId: string): Promise<SeatOut> {
  return db.transaction(async (trx) => {
    const { c, seat } = await lockedSeat(trx, scope, seatId);
    await requireSeats(trx, c.organization_id);
    return seatOut(trx, await revokeLocked(trx, c, seat));
  });
}

export function revokeSeat(db: Knex, caller: OrganizationCaller, seatId: string): Promise<SeatOut> {
  return revoke(db, { organizationId: caller.organizationId }, seatId);
}

async function resend(db: Knex, scope: Scope, seatId: string): Promise<SeatOut> {
  return db.transaction(async (trx) => {
    const { c, seat } = await lockedSeat(trx, scope, seatId);
    await requireSeats(trx, c.organization_id);
    if (seat.status !== "pending" || !seat.invitation_token) throw new SeatNotPending();
    // A resent invitation can be claimed for another day.
    const renewed = await updateSeat(trx, seat.id, { invitation_token_expires_at: new Date(Date.now() + INVITATION_TTL_MS) });
    await emitInternal(trx, c.organization_id, "email.seat_invitation", { seat_id: seat.id });
    return seatOut(trx, renewed);
  });
}

export function resendInvitation(db: Knex, caller: OrganizationCaller, seatId: string): Promise<SeatOut> {
  return resend(db, { organizationId: caller.organizationId }, seatId);
}

/** The pending seat a live token names; undefined when none (unknown, used, revoked or expired). */
async function pendingByToken(db: Knex, token: string, forUpdate = false): Promise<SeatRow | undefined> {
  const seat = await seatByToken(db, token, { forUpdate });
  if (!seat || seat.status !== "pending") return undefined;
  if (seat.invitation_token_expires_at && seat.invitation_token_expires_at.getTime() < Date.now()) return undefined;
  return seat;
}

export async function getClaimInfo(db: Knex, token: string): Promise<SeatClaimInfoOut> {
  const seat = await pendingByToken(db, token);
  if (!seat) throw new ResourceNotFound("Invalid or expired invitation token.");
  const c = await containerOfSeat(db, seat);
  await requireSeats(db, c.organization_id);
  const [product, org] = await Promise.all([findProduct(db, c.product_id), findById(db, c.organization_id)]);
  if (!product || !org) throw new ResourceNotFound("Invalid or expired invitation token.");
  return {
    product_name: product.name,
    product_id: product.id,
    organization_name: org.name,
    organization_slug: org.slug,
    customer_email: seat.email ?? "",
    can_claim: true,
  };
}

/** Claims with the emailed token; answers the seat and a portal session of its holder. */
export async function claimSeat(db: Knex, token: string): Promise<{ seat: SeatOut; customer_session_token: string }> {
  return db.transaction(async (trx) => {
    const found = await pendingByToken(trx, token);
    if (!found) throw new InvalidInvitationToken();
    const c = await containerOfSeat(trx, found, true);
    await requireSeats(trx, c.organization_id);
    // Re-read under the lock: a second claim of the token waits here and then finds it used.
    const seat = await pendingByToken(trx, token, true);
    if (!seat || !seat.customer_id) throw new InvalidInvitationToken();
    const holder = await findCustomer(trx, seat.customer_id);
    if (!holder || holder.deleted_at) throw new InvalidInvitationToken();
    const claimed = await claim(trx, c, seat, holder);
    const sessionToken = randomToken("polar_cst_");
    await insertSession(trx, {
      customer_id: holder.id,
      member_id: null,
      token_hash: hashToken(sessionToken),
      expires_at: new Date(Date.now() + CUSTOMER_SESSION_TTL_MS),
      return_url: null,
    });
    return { seat: await seatOut(trx, claimed), customer_session_token: sessionToken };
  });
}

/**
 * The portal acts for the purchase's buyer: the customer's own session, or a session of its owner
 * or a billing manager (a plain member's is refused).
 */
async function portalScope(db: Knex, caller: CustomerCaller): Promise<Scope> {
  if (caller.memberId) {
    const member = await findMember(db, caller.organizationId, caller.customerId, { id: caller.memberId });
    if (!member || (member.role !== "owner" && member.role !== "billing_manager")) {
      throw new NotPermitted("Only the team's owner and billing managers manage its seats.");
    }
  }
  return { organizationId: caller.organizationId, customerId: caller.customerId };
}

export async function portalListSeats(
  db: Knex,
  caller: CustomerCaller,
  query: { subscription_id?: string | null; order_id?: string | null },
) {
  return listOf(db, await portalScope(db, caller), query);
}

export async function portalAssignSeat(db: Knex, caller: CustomerCaller, input: PortalAssignInput): Promise<SeatOut> {
  const scope = await portalScope(db, caller);
  if (input.immediate_claim) {
    throw invalid(["body", "immediate_claim"], "Seats assigned in the portal are claimed by their holder.", "value_error", true);
  }
  const ids = { subscription_id: input.subscription_id, order_id: input.order_id };
  if (!ids.subscription_id && !ids.order_id && input.checkout_id) {
    const [subscriptionId] = isUuid(input.checkout_id)
      ? await customerSubscriptionIdsOfCheckout(db, caller.customerId, input.checkout_id)
      : [];
    if (!subscriptionId) throw new ResourceNotFound("Subscription not found.");
    ids.subscription_id = subscriptionId;
  }
  const body: AssignInput = {
    subscription_id: ids.subscription_id,
    order_id: ids.order_id,
    email: input.email,
    external_customer_id: input.external_customer_id,
    customer_id: input.customer_id,
    external_member_id: input.external_member_id,
    member_id: input.member_id,
    metadata: input.metadata,
    immediate_claim: false,
  };
  return assign(db, scope, body);
}

export async function portalRevokeSeat(db: Knex, caller: CustomerCaller, seatId: string): Promise<SeatOut> {
  return revoke(db, await portalScope(db, caller), seatId);
}

export async function portalResendInvitation(db: Knex, caller: CustomerCaller, seatId: string): Promise<SeatOut> {
  return resend(db, await portalScope(db, caller), seatId);
}

/** The subscriptions whose seat the caller holds, newest first. */
export async function portalClaimedSubscriptions(
  db: Knex,
  caller: CustomerCaller,
  query: { page?: number; limit?: number },
): Promise<Page<CustomerSubscriptionOut>> {
  const q = readable(db, { organizationId: caller.organizationId })
    .whereIn("subscriptions.id", claimedSubscriptionIds(db, caller.customerId))
    .select("subscriptions.*")
    .orderBy([{ column: "subscriptions.created_at", order: "desc" }, { column: "subscriptions.id" }]);
  return listPage(q, query, async (rows: SubscriptionRow[]) => {
    const rel = await loadSubscriptionRelations(db, rows);
    return rows.map((r) => toCustomerSubscription(r, rel));
  });
}

/**
 * The purchase ended (a subscription revoked, an order's benefits taken back by a refund or a lost
 * dispute): every live seat goes, and with a claimed one its holder's benefits. The purchase's row
 * is locked first, as an assignment locks it.
 */
export async function revokeSeatsOf(trx: Knex.Transaction, key: { column: SeatContainer["column"]; id: string }): Promise<number> {
  const seats = await liveSeatsOf(trx, key);
  if (!seats.length) return 0;
  const c = await findContainer(trx, { organizationId: seats[0].organization_id }, key, { forUpdate: true });
  if (!c) return 0;
  for (const seat of seats) {
    const locked = await findSeat(trx, seat.organization_id, seat.id, { forUpdate: true });
    if (locked) await revokeLocked(trx, c, locked);
  }
  return seats.length;
}

/** The buyer's owner, as the invitation names who invited (the buyer's name or email otherwise). */
export async function inviterOf(db: Knex, seat: SeatRow): Promise<{ name: string; product: string; slug: string } | null> {
  const c = await containerOfSeat(db, seat).catch(() => undefined);
  if (!c) return null;
  const [buyer, product, org] = await Promise.all([
    findCustomer(db, c.customer_id),
    findProduct(db, c.product_id),
    findById(db, c.organization_id),
  ]);
  if (!buyer || !product || !org) return null;
  const owner = buyer.type === "team" ? await ownerOf(db, buyer.id) : undefined;
  return { name: buyer.name ?? owner?.email ?? buyer.email, product: product.name, slug: org.slug };
}
