// Member rules, as Polar's: members are managed where the Member model is on (a new customer gets
// its owner there or where seat-based pricing is on); a customer has exactly one owner (handed over
// by promoting another member, never removed); an individual customer has only its owner; a live
// member's email and external id are unique in its customer (adding an email already there answers
// that member). Each change locks the customer row and writes member.created / updated / deleted.
import type { Knex } from "knex";
import type { OpBody, OpQuery } from "../../generated/handlers.js";
import type { CustomerCaller, OrganizationCaller } from "../kit/auth.js";
import { checkEmail } from "../kit/email.js";
import { invalid, NotPermitted, ResourceNotFound } from "../kit/errors.js";
import { isUuid } from "../kit/ids.js";
import { emit } from "../kit/outbox.js";
import { applySorting, listPage, type Page } from "../kit/pagination.js";
import { customerWithExternalId, findReadable, type CustomerKey, type CustomerRow } from "../customers/repository.js";
import { findById } from "../organizations/repository.js";
import { toMember, toPortalMember, type MemberOut, type PortalMemberOut } from "./models.js";
import {
  findMember,
  insertMember,
  memberByEmail,
  memberByExternalId,
  memberCount,
  membersOf,
  ownerOf,
  readableMembers,
  softDeleteMember,
  softDeleteMembersOf,
  updateMemberRow,
  type MemberRole,
  type MemberRow,
} from "./repository.js";

export type MemberKey = { id: string } | { externalId: string };
type OwnerInput = NonNullable<OpBody<"customers:create">["owner"]>;
type CreateInput = OpBody<"customers:members:create">;
type UpdateInput = OpBody<"customers:members:update">;
type PortalCreateInput = OpBody<"customer_portal:members:add_member">;
type PortalUpdateInput = OpBody<"customer_portal:members:update_member">;

const MEMBER_NOT_FOUND = "Member not found.";
const ONLY_OWNER = "Cannot delete the only owner. Transfer ownership first.";

/** Whether the organization enabled the Member model (its feature settings' `member_model_enabled`). */
export async function memberModelEnabled(db: Knex, organizationId: string): Promise<boolean> {
  const org = await findById(db, organizationId);
  return org?.feature_settings?.member_model_enabled === true;
}

function checkName(name: string | null | undefined): string | null {
  return name === undefined || name === null ? null : name;
}

async function insertAndEmit(trx: Knex.Transaction, values: Parameters<typeof insertMember>[1]): Promise<MemberRow> {
  const row = await insertMember(trx, values);
  await emit(trx, row.organization_id, "member.created", toMember(row));
  return row;
}

/** Whether a new customer comes with its owner member: as Polar, the Member model or seat-based pricing is on. */
async function ownerMembersOn(db: Knex, organizationId: string): Promise<boolean> {
  const settings = (await findById(db, organizationId))?.feature_settings;
  return settings?.member_model_enabled === true || settings?.seat_based_pricing_enabled === true;
}

/**
 * The owner member a new customer comes with (see ownerMembersOn): each of the `owner`'s email,
 * name and external id given, else the customer's own. Runs in the customer's creating
 * transaction (the customer service, a checkout's confirm, a seat's holder).
 */
export async function createOwnerMember(trx: Knex.Transaction, customer: CustomerRow, owner: OwnerInput | null | undefined): Promise<void> {
  if (!(await ownerMembersOn(trx, customer.organization_id))) return;
  const email = owner ? checkEmail(owner.email, ["body", "owner", "email"]) : customer.email;
  await insertAndEmit(trx, {
    organization_id: customer.organization_id,
    customer_id: customer.id,
    email,
    name: checkName(owner?.name) ?? customer.name,
    external_id: owner?.external_id ?? customer.external_id,
    role: "owner",
  });
}

/** An individual customer's owner follows the customer's email (a team's members have emails of their own). */
export async function syncOwnerEmail(trx: Knex.Transaction, customer: CustomerRow): Promise<void> {
  if (customer.type !== "individual") return;
  const owner = await ownerOf(trx, customer.id);
  if (!owner || owner.email.toLowerCase() === customer.email.toLowerCase()) return;
  const updated = await updateMemberRow(trx, owner.id, { email: customer.email });
  await emit(trx, customer.organization_id, "member.updated", toMember(updated));
}

/** Soft-deletes a deleted customer's members (no owner guard: the whole customer goes). */
export async function deleteMembersOfCustomer(trx: Knex.Transaction, organizationId: string, customerId: string): Promise<void> {
  for (const row of await softDeleteMembersOf(trx, customerId)) {
    await emit(trx, organizationId, "member.deleted", toMember(row));
  }
}

/** The caller's live customer, locked: member changes of one customer run one at a time. */
async function lockedCustomer(trx: Knex.Transaction, caller: OrganizationCaller, key: CustomerKey): Promise<CustomerRow> {
  const customer = await findReadable(trx, caller, key, { forUpdate: true });
  if (!customer) throw new ResourceNotFound("Customer not found.");
  return customer;
}

async function requireMemberModel(db: Knex, organizationId: string): Promise<void> {
  if (!(await memberModelEnabled(db, organizationId))) throw new NotPermitted("Member management is not enabled for this organization.");
}

async function addMember(
  trx: Knex.Transaction,
  customer: CustomerRow,
  input: { email: string; name: string | null; external_id: string | null; role: MemberRole },
): Promise<MemberRow> {
  const existing = await memberByEmail(trx, customer.id, input.email);
  if (existing) return existing;
  if (input.external_id !== null && (await memberByExternalId(trx, customer.id, input.external_id))) {
    throw invalid(
      ["body", "external_id"],
      "A member with this external ID already exists for this customer.",
      "value_error",
      input.external_id,
    );
  }
  return insertAndEmit(trx, { organization_id: customer.organization_id, customer_id: customer.id, ...input });
}

export async function createMember(db: Knex, caller: OrganizationCaller, customerKey: CustomerKey, input: CreateInput): Promise<MemberOut> {
  return db.transaction(async (trx) => {
    // Another organization's customer is not found, whatever the body says.
    const customer = await lockedCustomer(trx, caller, customerKey);
    const email = checkEmail(input.email);
    await requireMemberModel(trx, caller.organizationId);
    if (customer.type === "individual" && (await memberCount(trx, customer.id)) >= 1) {
      throw new NotPermitted("Individual customers can only have one member (the owner). Upgrade to a team customer to add more members.");
    }
    const row = await addMember(trx, customer, {
      email,
      name: checkName(input.name),
      external_id: input.external_id ?? null,
      role: input.role ?? "member",
    });
    return toMember(row);
  });
}

async function memberOf(db: Knex, customer: CustomerRow, key: MemberKey, forUpdate = false): Promise<MemberRow> {
  if ("id" in key && !isUuid(key.id)) throw new ResourceNotFound(MEMBER_NOT_FOUND);
  const row = await findMember(db, customer.organization_id, customer.id, key, { forUpdate });
  if (!row) throw new ResourceNotFound(MEMBER_NOT_FOUND);
  return row;
}

export async function getMember(db: Knex, caller: OrganizationCaller, customerKey: CustomerKey, key: MemberKey): Promise<MemberOut> {
  const customer = await findReadable(db, caller, customerKey);
  if (!customer) throw new ResourceNotFound(MEMBER_NOT_FOUND);
  return toMember(await memberOf(db, customer, key));
}

/**
 * Changes a member's name, email or role. Promoting a member to owner demotes the owner to billing
 * manager when `transfer` allows it (the merchant, or the portal's owner); the owner can't lose the
 * role otherwise. An individual customer's owner keeps the customer's email.
 */
async function changeMember(
  trx: Knex.Transaction,
  customer: CustomerRow,
  member: MemberRow,
  input: { name?: string | null; email?: string | null; role?: MemberRole | null },
  transfer: boolean,
): Promise<MemberRow> {
  const patch: { name?: string; email?: string; role?: MemberRole } = {};
  let demoted: MemberRow | null = null;
  if (input.role && input.role !== member.role) {
    if (member.role === "owner") {
      throw invalid(["body", "role"], "Cannot change role. Customer must have exactly one owner.", "value_error", input.role);
    }
    if (input.role === "owner") {
      if (!transfer) throw invalid(["body", "role"], "Only the owner can transfer ownership.", "value_error", input.role);
      const owner = await ownerOf(trx, customer.id);
      if (owner) demoted = await updateMemberRow(trx, owner.id, { role: "billing_manager" });
    }
    patch.role = input.role;
  }
  if (input.name !== undefined && input.name !== null && input.name !== member.name) patch.name = input.name;
  if (input.email !== undefined && input.email !== null) {
    const email = checkEmail(input.email);
    if (email !== member.email) {
      if (customer.type === "individual") {
        throw invalid(
          ["body", "email"],
          "Cannot change the email of an individual customer's owner. Update the customer's email instead.",
          "value_error",
          email,
        );
      }
      const taken = await memberByEmail(trx, customer.id, email);
      if (taken && taken.id !== member.id) {
        throw invalid(["body", "email"], "A member with this email already exists for this customer.", "value_error", email);
      }
      patch.email = email;
    }
  }
  if (demoted) await emit(trx, customer.organization_id, "member.updated", toMember(demoted));
  if (Object.keys(patch).length === 0) return member;
  const updated = await updateMemberRow(trx, member.id, patch);
  await emit(trx, customer.organization_id, "member.updated", toMember(updated));
  return updated;
}

export async function updateMember(
  db: Knex,
  caller: OrganizationCaller,
  customerKey: CustomerKey,
  key: MemberKey,
  input: UpdateInput,
): Promise<MemberOut> {
  return db.transaction(async (trx) => {
    const customer = await lockedCustomer(trx, caller, customerKey);
    const member = await memberOf(trx, customer, key, true);
    return toMember(await changeMember(trx, customer, member, input, true));
  });
}

async function removeMember(trx: Knex.Transaction, member: MemberRow): Promise<void> {
  if (member.role === "owner") throw invalid(["body"], ONLY_OWNER, "value_error", member.id);
  const deleted = await softDeleteMember(trx, member.id);
  await emit(trx, member.organization_id, "member.deleted", toMember(deleted));
}

export async function deleteMember(db: Knex, caller: OrganizationCaller, customerKey: CustomerKey, key: MemberKey): Promise<void> {
  await db.transaction(async (trx) => {
    const customer = await lockedCustomer(trx, caller, customerKey);
    await removeMember(trx, await memberOf(trx, customer, key, true));
  });
}

const SORTS = { created_at: "customer_members.created_at" };

export async function listMembers(db: Knex, caller: OrganizationCaller, query: OpQuery<"members:list_members">): Promise<Page<MemberOut>> {
  const q = readableMembers(db, caller.organizationId).select("customer_members.*");
  if (query.customer_id) q.where("customer_members.customer_id", query.customer_id);
  if (query.external_customer_id) {
    q.whereExists(customerWithExternalId(db, "customer_members.customer_id", [query.external_customer_id], { live: true }));
  }
  if (query.role) q.where("customer_members.role", query.role);
  applySorting(q, query.sorting, SORTS, ["-created_at"], "customer_members.id");
  return listPage(q, query, (rows: MemberRow[]) => rows.map(toMember));
}

// The customer portal: a team's owner and billing managers manage its members. A session opened
// for a member acts as that member; the customer's own session acts as the team's owner.

/** The session's team customer and the member it acts as, the customer locked. */
async function portalTeam(trx: Knex.Transaction, caller: CustomerCaller): Promise<{ customer: CustomerRow; actor: MemberRow }> {
  const customer = await findReadable(trx, caller, { id: caller.customerId }, { forUpdate: true });
  if (!customer) throw new ResourceNotFound("Customer not found.");
  if (customer.type !== "team") {
    throw new NotPermitted("Member management is only available for team customers.");
  }
  await requireMemberModel(trx, caller.organizationId);
  const actor = caller.memberId
    ? await findMember(trx, caller.organizationId, customer.id, { id: caller.memberId })
    : await ownerOf(trx, customer.id);
  if (!actor || (actor.role !== "owner" && actor.role !== "billing_manager")) {
    throw new NotPermitted("Only the team's owner and billing managers manage its members.");
  }
  return { customer, actor };
}

export async function portalListMembers(
  db: Knex,
  caller: CustomerCaller,
  query: OpQuery<"customer_portal:members:list_members">,
): Promise<Page<PortalMemberOut>> {
  return db.transaction(async (trx) => {
    const { customer } = await portalTeam(trx, caller);
    const q = membersOf(trx, customer.id)
      .select("*")
      .orderBy([{ column: "created_at" }, { column: "id" }]);
    return listPage(q, query, (rows: MemberRow[]) => rows.map(toPortalMember));
  });
}

export async function portalAddMember(db: Knex, caller: CustomerCaller, input: PortalCreateInput): Promise<PortalMemberOut> {
  const email = checkEmail(input.email);
  if (input.role === "owner") {
    throw invalid(["body", "role"], "Cannot add a member as owner. There must be exactly one owner.", "value_error", input.role);
  }
  return db.transaction(async (trx) => {
    const { customer } = await portalTeam(trx, caller);
    const row = await addMember(trx, customer, { email, name: checkName(input.name), external_id: null, role: input.role ?? "member" });
    return toPortalMember(row);
  });
}

async function portalMember(trx: Knex.Transaction, customer: CustomerRow, id: string): Promise<MemberRow> {
  return memberOf(trx, customer, { id }, true);
}

export async function portalUpdateMember(db: Knex, caller: CustomerCaller, id: string, input: PortalUpdateInput): Promise<PortalMemberOut> {
  return db.transaction(async (trx) => {
    const { customer, actor } = await portalTeam(trx, caller);
    const member = await portalMember(trx, customer, id);
    if (input.role && input.role !== member.role && member.id === actor.id) {
      throw invalid(["path", "id"], "You cannot modify your own role.", "value_error", id);
    }
    const changed = await changeMember(trx, customer, member, { name: input.name, role: input.role }, actor.role === "owner");
    return toPortalMember(changed);
  });
}

export async function portalRemoveMember(db: Knex, caller: CustomerCaller, id: string): Promise<void> {
  await db.transaction(async (trx) => {
    const { customer, actor } = await portalTeam(trx, caller);
    const member = await portalMember(trx, customer, id);
    if (member.id === actor.id) throw invalid(["path", "id"], "You cannot remove yourself from the team.", "value_error", id);
    await removeMember(trx, member);
  });
}

/**
 * The buying customer's member for a claimed seat's holder (server/seats/): the live member with
 * that email, else a new `member`; none where the Member model is off or the buyer is an
 * individual (whose one member is its owner).
 */
export async function memberForSeat(trx: Knex.Transaction, buyer: CustomerRow, email: string): Promise<MemberRow | null> {
  if (!(await memberModelEnabled(trx, buyer.organization_id))) return null;
  const existing = await memberByEmail(trx, buyer.id, email);
  if (existing) return existing;
  if (buyer.type !== "team") return null;
  return insertAndEmit(trx, {
    organization_id: buyer.organization_id,
    customer_id: buyer.id,
    email,
    name: null,
    external_id: null,
    role: "member",
  });
}
