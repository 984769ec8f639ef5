// What every file store speaks (LocalStorage in storage.ts, S3Storage in s3-storage.ts): the
// multipart upload interface, its part and object shapes, the upload refusal, and the key and
// download-name encodings both share. A leaf: the stores import it, never each other.
export interface PartSpec {
  number: number;
  checksumSha256Base64: string | null;
}
export interface PresignedPart {
  url: string;
  headers: Record<string, string>;
  expiresAt: Date;
}
export interface CompletedPart {
  number: number;
  etag: string;
  checksumSha256Base64: string | null;
}
export interface StoredObject {
  etag: string;
  version: string | null;
  size: number;
  /** SHA-256 of the whole object when the storage can tell (base64). */
  sha256Base64: string | null;
  lastModified: Date;
}

/** The parts handed to complete an upload do not make up the declared file (→ 422 at `loc`). */
export class UploadRejected extends Error {
  constructor(
    readonly loc: (string | number)[],
    message: string,
  ) {
    super(message);
  }
}

export interface Storage {
  createMultipartUpload(key: string, opts: { mimeType: string; filename: string; parts: PartSpec[] }): Promise<string>;
  presignUploadPart(key: string, uploadId: string, part: PartSpec, expiresAt: Date): Promise<PresignedPart>;
  /**
   * Assembles the parts; checks each part's ETag and SHA-256 (against `declared`, the parts
   * given at creation, and the caller's), the total size and the whole SHA-256.
   */
  completeMultipartUpload(key: string, uploadId: string, parts: CompletedPart[], expect: UploadExpectation): Promise<StoredObject>;
  /** Stores bytes the server made itself (invoices). */
  putObject(key: string, bytes: Buffer, mimeType: string): Promise<void>;
  /** Removes an object, and the unfinished upload `uploadId` if there is one. */
  deleteObject(key: string, opts: { uploadId: string | null }): Promise<void>;
  publicUrl(key: string): string;
  presignDownload(key: string, opts: { filename: string; mimeType: string; expiresAt: Date }): Promise<string>;
}

export interface UploadExpectation {
  size: number;
  sha256Base64: string | null;
  declared: PartSpec[];
}

export const encodeKey = (key: string) => key.split("/").map(encodeURIComponent).join("/");

/** Content-Disposition for a download, with an RFC 5987 UTF-8 name beside an ASCII fallback. */
export function attachmentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
