// File rules: what each service accepts (images of at most 1 MB for avatars and 10 MB for
// product media), the multipart upload plan and its presigned part URLs, completion checked
// part by part against what was declared, name/version patches, soft deletion, and expiring
// download URLs for downloadables.
import { randomUUID } from "node:crypto";
import type { Knex } from "knex";
import type { components } from "../../generated/types.js";
import type { OrganizationCaller } from "../kit/auth.js";
import { invalid, NotPermitted, RequestValidationError, ResourceNotFound } from "../kit/errors.js";
import { asList, isUuid } from "../kit/ids.js";
import { listPage, type Page } from "../kit/pagination.js";
import { toFileRead, toFileUpload, type DeclaredPart, type FileReadOut, type FileRow, type FileUploadOut } from "./models.js";
import * as files from "./repository.js";
import { findReadable, readable } from "./repository.js";
import { UploadRejected } from "./object-store.js";
import { getStorage, PRESIGN_TTL_SECONDS, PUBLIC_SERVICES } from "./storage.js";

type Schemas = components["schemas"];
export type FileCreateInput = Schemas["FileCreate"];
export type FilePatchInput = Schemas["FilePatch"];
export type FileUploadCompletedInput = Schemas["FileUploadCompleted"];

export interface FileListQuery {
  organization_id?: string[] | string | null;
  ids?: string[] | string | null;
  page?: number;
  limit?: number;
}

const MAX_PARTS = 10_000;
const IMAGE = /^image\/(jpeg|png|gif|webp|svg\+xml)$/;
const MIME = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*(\s*;.*)?$/;
const MAX_SIZE: Record<FileRow["service"], number | null> = {
  downloadable: null,
  product_media: 10 * 1024 * 1024,
  organization_avatar: 1 * 1024 * 1024,
};
const EXTENSIONS: Record<string, string> = {
  "image/jpeg": ".jpg",
  "image/png": ".png",
  "image/gif": ".gif",
  "image/webp": ".webp",
  "image/svg+xml": ".svg",
  "application/pdf": ".pdf",
  "application/zip": ".zip",
  "text/plain": ".txt",
  "text/csv": ".csv",
  "application/json": ".json",
  "audio/mpeg": ".mp3",
  "video/mp4": ".mp4",
  "application/epub+zip": ".epub",
};

const isPublic = (service: FileRow["service"]) => (PUBLIC_SERVICES as readonly string[]).includes(service);

/** A base64 SHA-256 digest (32 bytes), or a 422 at `loc`. */
function checkSha256(value: string, loc: (string | number)[]): string {
  const bytes = /^[A-Za-z0-9+/]{43}=$/.test(value) ? Buffer.from(value, "base64") : null;
  if (!bytes || bytes.length !== 32)
    throw invalid(loc, "Must be the base64 encoding of a SHA-256 digest (32 bytes).", "value_error", value);
  return value;
}

function extension(mimeType: string, name: string): string {
  const known = EXTENSIONS[mimeType.split(";")[0].trim().toLowerCase()];
  if (known) return known;
  const m = /\.([A-Za-z0-9]{1,10})$/.exec(name);
  return m ? `.${m[1].toLowerCase()}` : "";
}

function checkName(name: string): string {
  if (name.trim().length < 1) throw invalid(["body", "name"], "String should have at least 1 character", "string_too_short");
  return name.trim();
}

// The chunk ranges are the client's own bookkeeping (S3 ignores them, as Polar does): only
// their sign is checked here; what the parts add up to is checked when the upload completes.
function checkParts(parts: Schemas["S3FileCreatePart"][]): DeclaredPart[] {
  const loc = ["body", "upload", "parts"];
  if (parts.length < 1) throw invalid(loc, "List should have at least 1 item after validation, not 0", "too_short");
  if (parts.length > MAX_PARTS) throw invalid(loc, `List should have at most ${MAX_PARTS} items after validation`, "too_long");
  return parts.map((p, i) => {
    const at = [...loc, i];
    if (!Number.isInteger(p.number) || p.number < 1 || p.number > MAX_PARTS) {
      throw invalid([...at, "number"], `Part numbers go from 1 to ${MAX_PARTS}.`, "value_error", p.number);
    }
    if (p.chunk_start < 0) throw invalid([...at, "chunk_start"], "Input should be greater than or equal to 0", "greater_than_equal");
    if (p.chunk_end < 0) throw invalid([...at, "chunk_end"], "Input should be greater than or equal to 0", "greater_than_equal");
    const checksum = p.checksum_sha256_base64 ? checkSha256(p.checksum_sha256_base64, [...at, "checksum_sha256_base64"]) : null;
    return { number: p.number, chunk_start: p.chunk_start, chunk_end: p.chunk_end, checksum_sha256_base64: checksum };
  });
}

export async function createFile(db: Knex, caller: OrganizationCaller, input: FileCreateInput): Promise<FileUploadOut> {
  if (input.organization_id && input.organization_id !== caller.organizationId) {
    throw invalid(["body", "organization_id"], "Organization not found or not accessible with this token.");
  }
  const service = input.service;
  const name = checkName(input.name);
  if (!MIME.test(input.mime_type))
    throw invalid(["body", "mime_type"], "Must be a MIME type such as application/pdf.", "value_error", input.mime_type);
  if (service !== "downloadable" && !IMAGE.test(input.mime_type)) {
    throw invalid(
      ["body", "mime_type"],
      "String should match pattern '^image\\/(jpeg|png|gif|webp|svg\\+xml)$'",
      "string_pattern_mismatch",
      input.mime_type,
    );
  }
  if (!Number.isInteger(input.size) || input.size < 0)
    throw invalid(["body", "size"], "Input should be greater than or equal to 0", "greater_than_equal");
  if (input.size > Number.MAX_SAFE_INTEGER)
    throw invalid(["body", "size"], `Input should be less than or equal to ${Number.MAX_SAFE_INTEGER}`, "less_than_equal");
  const max = MAX_SIZE[service];
  if (max !== null && input.size > max)
    throw invalid(["body", "size"], `Input should be less than or equal to ${max}`, "less_than_equal", input.size);
  const sha256 = input.checksum_sha256_base64 ? checkSha256(input.checksum_sha256_base64, ["body", "checksum_sha256_base64"]) : null;
  const parts = checkParts(input.upload.parts);

  const storage = getStorage();
  const id = randomUUID();
  // Public files live under `public/`, so an S3 bucket can open that prefix alone to anonymous reads.
  const path = `${isPublic(service) ? "public/" : ""}${caller.organizationId}/${id}${extension(input.mime_type, name)}`;
  const uploadId = await storage.createMultipartUpload(path, {
    mimeType: input.mime_type,
    filename: name,
    parts: parts.map((p) => ({ number: p.number, checksumSha256Base64: p.checksum_sha256_base64 })),
  });
  const row = await files.insert(db, {
    id,
    organization_id: caller.organizationId,
    name,
    path,
    mime_type: input.mime_type,
    size: input.size,
    checksum_sha256_base64: sha256,
    checksum_sha256_hex: sha256 ? Buffer.from(sha256, "base64").toString("hex") : null,
    version: input.version ?? null,
    service,
    is_uploaded: false,
    upload_id: uploadId,
    upload_parts: JSON.stringify(parts),
  });
  const expiresAt = new Date(Date.now() + PRESIGN_TTL_SECONDS * 1000);
  const presigned = await Promise.all(
    parts.map(async (p) => {
      const signed = await storage.presignUploadPart(
        path,
        uploadId,
        { number: p.number, checksumSha256Base64: p.checksum_sha256_base64 },
        expiresAt,
      );
      return Object.assign({}, p, { url: signed.url, expires_at: signed.expiresAt.toISOString(), headers: signed.headers });
    }),
  );
  return toFileUpload(row as FileRow, { id: uploadId, parts: presigned });
}

export async function listFiles(db: Knex, caller: OrganizationCaller, query: FileListQuery): Promise<Page<FileReadOut>> {
  // Like Polar, only files whose upload completed are listed.
  const q = readable(db, caller).where("files.is_uploaded", true).select("files.*");
  const orgs = asList(query.organization_id);
  if (orgs.length) q.whereIn("files.organization_id", orgs.filter(isUuid));
  const ids = asList(query.ids);
  if (ids.length) q.whereIn("files.id", ids.filter(isUuid));
  q.orderBy([
    { column: "files.created_at", order: "desc" },
    { column: "files.id", order: "asc" },
  ]);
  return listPage(q, query, (rows: FileRow[]) => rows.map(toFileRead));
}

export async function updateFile(db: Knex, caller: OrganizationCaller, id: string, input: FilePatchInput): Promise<FileReadOut> {
  return db.transaction(async (trx) => {
    const row = await findReadable(trx, caller, id, { forUpdate: true });
    if (!row) throw new ResourceNotFound("File not found.");
    const patch: Record<string, unknown> = { modified_at: new Date() };
    if (input.name !== undefined && input.name !== null) patch.name = checkName(input.name);
    if (input.version !== undefined) patch.version = input.version;
    const updated = await files.update(trx, row.id, patch);
    return toFileRead(updated);
  });
}

export async function completeUpload(
  db: Knex,
  caller: OrganizationCaller,
  id: string,
  input: FileUploadCompletedInput,
): Promise<FileReadOut> {
  return db.transaction(async (trx) => {
    const row = await findReadable(trx, caller, id, { forUpdate: true });
    if (!row) throw new ResourceNotFound("File not found.");
    if (row.is_uploaded) throw new NotPermitted("The upload of this file is already completed.");
    if (input.id !== row.upload_id) throw invalid(["body", "id"], "This is not the upload id of this file.", "value_error", input.id);
    if (input.path !== row.path) throw invalid(["body", "path"], "This is not the path of this file.", "value_error", input.path);
    input.parts.forEach((p, i) => {
      if (p.checksum_sha256_base64) checkSha256(p.checksum_sha256_base64, ["body", "parts", i, "checksum_sha256_base64"]);
    });
    let stored;
    try {
      stored = await getStorage().completeMultipartUpload(
        row.path,
        row.upload_id!,
        input.parts.map((p) => ({ number: p.number, etag: p.checksum_etag, checksumSha256Base64: p.checksum_sha256_base64 ?? null })),
        {
          size: Number(row.size),
          sha256Base64: row.checksum_sha256_base64,
          declared: (row.upload_parts ?? []).map((p) => ({ number: p.number, checksumSha256Base64: p.checksum_sha256_base64 })),
        },
      );
    } catch (err) {
      if (err instanceof UploadRejected) throw new RequestValidationError([{ loc: err.loc, msg: err.message, type: "value_error" }]);
      throw err;
    }
    const sha256 = row.checksum_sha256_base64 ?? stored.sha256Base64;
    const updated = await files.update(trx, row.id, {
      is_uploaded: true,
      checksum_etag: stored.etag,
      storage_version: stored.version,
      last_modified_at: stored.lastModified,
      checksum_sha256_base64: sha256,
      checksum_sha256_hex: sha256 ? Buffer.from(sha256, "base64").toString("hex") : null,
      modified_at: new Date(),
    });
    return toFileRead(updated);
  });
}

export async function deleteFile(db: Knex, caller: OrganizationCaller, id: string): Promise<void> {
  await db.transaction(async (trx) => {
    const row = await findReadable(trx, caller, id, { forUpdate: true });
    if (!row) throw new ResourceNotFound("File not found.");
    // Soft delete: a downloadable's bytes stay (signed URLs already handed out keep working until
    // they expire); the file stops being listed, served publicly and usable in benefits or products.
    await files.softDelete(trx, row.id);
    // Public bytes go (S3 serves them without asking us), as does an unfinished upload. Last,
    // inside the transaction: if the storage fails, the file is not deleted and the call can be retried.
    if (isPublic(row.service) || !row.is_uploaded) {
      await getStorage().deleteObject(row.path, { uploadId: row.is_uploaded ? null : (row.upload_id ?? null) });
    }
  });
}

/** An expiring download link for an uploaded file (the customer portal hands these out). */
export async function downloadUrl(
  row: Pick<FileRow, "path" | "name" | "mime_type">,
  ttlSeconds = PRESIGN_TTL_SECONDS,
): Promise<{ url: string; headers: Record<string, string>; expires_at: string }> {
  const expiresAt = new Date(Date.now() + ttlSeconds * 1000);
  const url = await getStorage().presignDownload(row.path, { filename: row.name, mimeType: row.mime_type, expiresAt });
  return { url, headers: {}, expires_at: expiresAt.toISOString() };
}
