// File queries, always scoped to the caller's organization; deleted files are gone.
import type { Knex } from "knex";
import type { OrganizationCaller } from "../kit/auth.js";
import { insertReturning, softDeleteRow, updateReturning } from "../kit/rows.js";
import { isUuid } from "../kit/ids.js";
import type { FileRow } from "./models.js";

export function readable(db: Knex, caller: OrganizationCaller): Knex.QueryBuilder {
  return db("files").where("files.organization_id", caller.organizationId).whereNull("files.deleted_at");
}

export async function findReadable(
  db: Knex,
  caller: OrganizationCaller,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<FileRow | undefined> {
  if (!isUuid(id)) return undefined;
  const q = readable(db, caller).where("files.id", id).first("files.*");
  return (opts.forUpdate ? q.forUpdate() : q) as Promise<FileRow | undefined>;
}

/** The organization's uploaded, live files of a service among `ids` (for references from benefits, products…). */
export async function uploadedIds(db: Knex, caller: OrganizationCaller, ids: string[], service: FileRow["service"]): Promise<Set<string>> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return new Set();
  const found: string[] = await readable(db, caller).whereIn("files.id", valid).where({ "files.service": service, "files.is_uploaded": true }).pluck("files.id");
  return new Set(found);
}

/** The organization's uploaded, live product media files among `ids` (every id a uuid). */
export async function uploadedProductMediaIds(db: Knex, caller: OrganizationCaller, ids: string[]): Promise<string[]> {
  return db("files")
    .whereIn("id", ids)
    .where({ organization_id: caller.organizationId, service: "product_media", is_uploaded: true })
    .whereNull("deleted_at")
    .pluck("id");
}

export function insert(db: Knex, values: Record<string, unknown>): Promise<FileRow> {
  return insertReturning<FileRow>(db, "files", values);
}

export function update(db: Knex, id: string, patch: Record<string, unknown>): Promise<FileRow> {
  return updateReturning<FileRow>(db, "files", id, patch);
}

export function softDelete(db: Knex, id: string): Promise<void> {
  return softDeleteRow(db, "files", id);
}
