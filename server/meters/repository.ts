// Meter queries, always scoped to the caller's organization.
import type { Knex } from "knex";
import type { OrganizationCaller } from "../kit/auth.js";
import { insertReturning, updateReturning } from "../kit/rows.js";
import { isUuid } from "../kit/ids.js";
import type { MeterRow } from "./models.js";

export function readable(db: Knex, caller: OrganizationCaller): Knex.QueryBuilder {
  return db("meters").where("meters.organization_id", caller.organizationId);
}

export async function findReadable(
  db: Knex,
  caller: OrganizationCaller,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<MeterRow | undefined> {
  if (!isUuid(id)) return undefined;
  const q = readable(db, caller).where("meters.id", id).first("meters.*");
  return (opts.forUpdate ? q.forUpdate() : q) as Promise<MeterRow | undefined>;
}

/** The id of the organization's live (unarchived) meter `id`, for prices billing on it. */
export async function findLiveId(db: Knex, caller: OrganizationCaller, id: string): Promise<{ id: string } | undefined> {
  return db("meters").where({ id, organization_id: caller.organizationId }).whereNull("archived_at").first("id");
}

/** Meters by id, whatever their organization (callers scope the ids first). */
export function byIds(db: Knex, ids: string[]): Promise<MeterRow[]> {
  return db<MeterRow>("meters").whereIn("id", ids) as Promise<MeterRow[]>;
}

export function insert(db: Knex, values: Record<string, unknown>): Promise<MeterRow> {
  return insertReturning<MeterRow>(db, "meters", values);
}

export function update(db: Knex, id: string, patch: Record<string, unknown>): Promise<MeterRow> {
  return updateReturning<MeterRow>(db, "meters", id, patch);
}

/** The organization's meter `id` (archived or not), for references from benefits. */
export function findInOrganization(
  db: Knex,
  caller: OrganizationCaller,
  id: string,
): Promise<{ id: string; archived_at: Date | null } | undefined> {
  return db("meters").where({ id, organization_id: caller.organizationId }).first("id", "archived_at");
}

/** Every meter of the organization, archived ones included, in no order. */
export async function ofOrganization(db: Knex, organizationId: string): Promise<MeterRow[]> {
  return (await db("meters").where({ organization_id: organizationId })) as MeterRow[];
}

/** Every meter of the organization, archived ones included, by id (the order usage locks and folds in). */
export async function ofOrganizationById(db: Knex, organizationId: string): Promise<MeterRow[]> {
  return (await db("meters").where({ organization_id: organizationId }).orderBy("id")) as MeterRow[];
}
