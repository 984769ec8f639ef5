// Queries on customer_members, always scoped to the caller's organization and to live members (a
// removed member is gone for every read and write).
import type { Knex } from "knex";
import type { components } from "../../generated/types.js";
import { insertReturning, softDeleteRow, updateReturning } from "../kit/rows.js";

export type MemberRole = components["schemas"]["MemberRole"];

export interface MemberRow {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  organization_id: string;
  customer_id: string;
  email: string;
  name: string | null;
  external_id: string | null;
  role: MemberRole;
  deleted_at: Date | null;
}

/** The organization's live members. */
export function readableMembers(db: Knex, organizationId: string): Knex.QueryBuilder {
  return db("customer_members").where("customer_members.organization_id", organizationId).whereNull("customer_members.deleted_at");
}

/** The customer's live member with this id or external id, locked when `forUpdate`. */
export function findMember(
  db: Knex,
  organizationId: string,
  customerId: string,
  key: { id: string } | { externalId: string },
  opts: { forUpdate?: boolean } = {},
): Promise<MemberRow | undefined> {
  const q = readableMembers(db, organizationId).where("customer_members.customer_id", customerId).first("customer_members.*");
  if ("id" in key) q.where("customer_members.id", key.id);
  else q.where("customer_members.external_id", key.externalId);
  return (opts.forUpdate ? q.forUpdate() : q) as Promise<MemberRow | undefined>;
}

/** The customer's live member with this email (any case). */
export function memberByEmail(db: Knex, customerId: string, email: string): Promise<MemberRow | undefined> {
  return db("customer_members")
    .where({ customer_id: customerId })
    .whereNull("deleted_at")
    .whereRaw("lower(email) = lower(?)", [email])
    .first<MemberRow | undefined>("*");
}

/** The organization's live members with this email (any case), of live customers, with their customer's name; oldest customer first. */
export function membersByEmailInOrganization(
  db: Knex,
  organizationId: string,
  email: string,
): Promise<(MemberRow & { customer_name: string | null })[]> {
  return db("customer_members")
    .join("customers", "customers.id", "customer_members.customer_id")
    .where("customer_members.organization_id", organizationId)
    .whereNull("customer_members.deleted_at")
    .whereNull("customers.deleted_at")
    .whereRaw("lower(customer_members.email) = lower(?)", [email])
    .orderBy([
      { column: "customers.created_at", order: "asc" },
      { column: "customers.id", order: "asc" },
    ])
    .select("customer_members.*", "customers.name as customer_name");
}

/** The customer's live member with this external id. */
export function memberByExternalId(db: Knex, customerId: string, externalId: string): Promise<MemberRow | undefined> {
  return db("customer_members")
    .where({ customer_id: customerId, external_id: externalId })
    .whereNull("deleted_at")
    .first<MemberRow | undefined>("*");
}

/** The members with these ids (removed ones too: a seat still names its member). */
export function membersByIds(db: Knex, ids: string[]): Promise<MemberRow[]> {
  return ids.length ? db("customer_members").whereIn("id", ids).select<MemberRow[]>("*") : Promise.resolve([]);
}

/** The customer's live owner. */
export function ownerOf(db: Knex, customerId: string): Promise<MemberRow | undefined> {
  return db("customer_members").where({ customer_id: customerId, role: "owner" }).whereNull("deleted_at").first<MemberRow | undefined>("*");
}

/** How many live members the customer has. */
export async function memberCount(db: Knex, customerId: string): Promise<number> {
  const row = (await db("customer_members").where({ customer_id: customerId }).whereNull("deleted_at").count({ n: "*" }).first()) as
    { n: string | number } | undefined;
  return Number(row?.n ?? 0);
}

/** The customer's live members. */
export function membersOf(db: Knex, customerId: string): Knex.QueryBuilder {
  return db("customer_members").where({ customer_id: customerId }).whereNull("deleted_at");
}

export function insertMember(db: Knex, values: Omit<MemberRow, "id" | "created_at" | "modified_at" | "deleted_at">): Promise<MemberRow> {
  return insertReturning<MemberRow>(db, "customer_members", values);
}

export function updateMemberRow(db: Knex, id: string, patch: Partial<Pick<MemberRow, "name" | "email" | "role">>): Promise<MemberRow> {
  return updateReturning<MemberRow>(db, "customer_members", id, Object.assign({}, patch, { modified_at: new Date() }));
}

export async function softDeleteMember(db: Knex, id: string): Promise<MemberRow> {
  await softDeleteRow(db, "customer_members", id);
  return db("customer_members").where({ id }).first<MemberRow>("*");
}

/** Soft-deletes the customer's live members (the customer is deleted) and answers them. */
export function softDeleteMembersOf(db: Knex, customerId: string): Promise<MemberRow[]> {
  const now = new Date();
  return db("customer_members")
    .where({ customer_id: customerId })
    .whereNull("deleted_at")
    .update({ deleted_at: now, modified_at: now })
    .returning("*") as Promise<MemberRow[]>;
}
