// File queries, always scoped to the caller's organization; deleted files are gone.
import type { Knex } from "knex";
import type { OrganizationCaller } from "../kit/auth.js";
import { insertReturning, softDeleteRow, updateReturning } from "../kit/rows.js";
import { isUuid } from "../kit/ids.js";

export type FileService = "downloadable" | "product_media" | "organization_avatar";

export interface DeclaredPart {
  number: number;
  chunk_start: number;
  chunk_end: number;
  checksum_sha256_base64: string | null;
}

export interface FileRow {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  organization_id: string;
  name: string;
  path: string;
  mime_type: string;
  size: number;
  storage_version: string | null;
  checksum_etag: string | null;
  checksum_sha256_base64: string | null;
  checksum_sha256_hex: string | null;
  last_modified_at: Date | null;
  version: string | null;
  service: FileService;
  is_uploaded: boolean;
  deleted_at: Date | null;
  upload_id?: string | null;
  upload_parts?: DeclaredPart[] | null;
}

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
  const found: string[] = await readable(db, caller)
    .whereIn("files.id", valid)
    .where({ "files.service": service, "files.is_uploaded": true })
    .pluck("files.id");
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

/** The MIME type of the uploaded, live public file (product media, avatars) stored at `path`. */
export function findPublicMimeType(db: Knex, path: string, services: readonly string[]): Promise<{ mime_type: string } | undefined> {
  return db("files")
    .where({ path, is_uploaded: true })
    .whereIn("service", [...services])
    .whereNull("deleted_at")
    .first("mime_type");
}
