// File wire shapes. Product media and organization avatars are public, so they carry public_url.
import type { components } from "../../generated/types.js";
import { iso, isoRequired } from "../kit/time.js";
import type { FileRow } from "./repository.js";
import { getStorage } from "./storage.js";

// The row types live with the queries (files/repository.ts, which storage.ts reads too); the
// wire mappers' callers take them from here as well.
export type { DeclaredPart, FileRow, FileService } from "./repository.js";

export type FileReadOut = components["schemas"]["FileRead"];
export type FileUploadOut = components["schemas"]["FileUpload"];
export type UploadPartOut = components["schemas"]["S3FileUploadPart"];

/** Human-readable size: 1023 B, 1.5 KB, 2.0 MB (binary multiples, as Polar shows them). */
export function sizeReadable(size: number): string {
  const units = ["B", "KB", "MB", "GB", "TB"];
  let value = size;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}

export function publicUrl(row: Pick<FileRow, "path">): string {
  return getStorage().publicUrl(row.path);
}

export function toFileBase(row: FileRow) {
  return {
    id: row.id,
    organization_id: row.organization_id,
    name: row.name,
    path: row.path,
    mime_type: row.mime_type,
    size: Number(row.size),
    storage_version: row.storage_version,
    checksum_etag: row.checksum_etag,
    checksum_sha256_base64: row.checksum_sha256_base64,
    checksum_sha256_hex: row.checksum_sha256_hex,
    last_modified_at: iso(row.last_modified_at),
    version: row.version,
    service: row.service,
    is_uploaded: row.is_uploaded,
    created_at: isoRequired(row.created_at),
    size_readable: sizeReadable(Number(row.size)),
  };
}

export function toProductMedia(row: FileRow) {
  // Object.assign onto the fresh base, not `{ ...base, more }`: V8 11 (Node 20) builds a new hidden
  // class for every object spread followed by more properties, microseconds each (bench/object-shapes.ts).
  return Object.assign(toFileBase(row), { service: "product_media" as const, public_url: publicUrl(row) });
}

/** FileRead: the variant of the file's service (public ones with their URL). */
export function toFileRead(row: FileRow): FileReadOut {
  switch (row.service) {
    case "downloadable":
      // Uploads are not scanned for malware: no file is ever flagged.
      return Object.assign(toFileBase(row), { service: "downloadable" as const, flagged_malicious_at: null });
    case "product_media":
      return toProductMedia(row);
    case "organization_avatar":
      return Object.assign(toFileBase(row), { service: "organization_avatar" as const, public_url: publicUrl(row) });
  }
}

/** The answer to a file creation: the file and where to upload each of its parts. */
export function toFileUpload(row: FileRow, upload: { id: string; parts: UploadPartOut[] }): FileUploadOut {
  const { created_at: _created, ...base } = toFileBase(row);
  return Object.assign(base, { upload: { id: upload.id, path: row.path, parts: upload.parts } });
}
