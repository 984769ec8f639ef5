// Custom field queries, always scoped to the caller's organization; deleted fields are gone.
import type { Knex } from "knex";
import type { OrganizationCaller } from "../kit/auth.js";
import { insertReturning, softDeleteRow, updateReturning } from "../kit/rows.js";
import { isUuid } from "../kit/ids.js";
import type { CustomFieldRow } from "./models.js";

export function readable(db: Knex, caller: OrganizationCaller): Knex.QueryBuilder {
  return db("custom_fields").where("custom_fields.organization_id", caller.organizationId).whereNull("custom_fields.deleted_at");
}

export async function findReadable(
  db: Knex,
  caller: OrganizationCaller,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<CustomFieldRow | undefined> {
  if (!isUuid(id)) return undefined;
  const q = readable(db, caller).where("custom_fields.id", id).first("custom_fields.*");
  return (opts.forUpdate ? q.forUpdate() : q) as Promise<CustomFieldRow | undefined>;
}

/** Another live field of the organization with this slug (slugs compare case-insensitively). */
export async function slugTaken(db: Knex, caller: OrganizationCaller, slug: string, exceptId?: string): Promise<boolean> {
  const q = readable(db, caller).whereRaw("lower(custom_fields.slug) = lower(?)", [slug]);
  if (exceptId) q.whereNot("custom_fields.id", exceptId);
  return Boolean(await q.first("custom_fields.id"));
}

/** The organization's live fields among `ids` (every id a uuid). */
export async function liveIds(db: Knex, caller: OrganizationCaller, ids: string[]): Promise<string[]> {
  return db("custom_fields").whereIn("id", ids).where({ organization_id: caller.organizationId }).whereNull("deleted_at").pluck("id");
}

export function insert(db: Knex, values: Record<string, unknown>): Promise<CustomFieldRow> {
  return insertReturning<CustomFieldRow>(db, "custom_fields", values);
}

export function update(db: Knex, id: string, patch: Record<string, unknown>): Promise<CustomFieldRow> {
  return updateReturning<CustomFieldRow>(db, "custom_fields", id, patch);
}

export function softDelete(db: Knex, id: string): Promise<void> {
  return softDeleteRow(db, "custom_fields", id);
}
