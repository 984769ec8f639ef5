// File bytes in an S3 bucket (AWS or S3-compatible), used when S3_BUCKET is set. Clients PUT parts
// to presigned UploadPart URLs that sign a declared SHA-256, so S3 refuses other bytes. Completion
// checks every part, ETag and size first, and re-reads the bytes when S3 cannot vouch for a
// declared checksum. Settings: S3_BUCKET, S3_REGION, S3_ENDPOINT, S3_FORCE_PATH_STYLE, the
// S3 access keys and S3_PUBLIC_URL (README's settings table).
import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
  type Part,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import {
  attachmentDisposition,
  encodeKey,
  UploadRejected,
  type CompletedPart,
  type PartSpec,
  type PresignedPart,
  type Storage,
  type StoredObject,
} from "./object-store.js";
import { setting, type Env } from "../config.js";

export interface S3Config {
  bucket: string;
  region: string;
  endpoint: string | null;
  forcePathStyle: boolean;
  accessKeyId: string | null;
  secretAccessKey: string | null;
  publicUrl: string;
}

const MAX_PRESIGN_SECONDS = 7 * 24 * 3600; // SigV4's limit
const CHECKSUM_HEADERS = new Set(["x-amz-checksum-sha256", "x-amz-sdk-checksum-algorithm"]);

const unquote = (etag: string | undefined) => (etag ?? "").trim().replace(/^W\//, "").replace(/^"|"$/g, "");

/** The S3 settings from the environment, or null when S3_BUCKET is not set. */
export function s3ConfigFromEnv(env?: Env): S3Config | null {
  const bucket = setting("S3_BUCKET", env)?.trim();
  if (!bucket) return null;
  const region = setting("S3_REGION", env).trim() || "us-east-1";
  const endpoint = setting("S3_ENDPOINT", env)?.trim().replace(/\/+$/, "") || null;
  const forcePathStyle = setting("S3_FORCE_PATH_STYLE", env);
  const accessKeyId = setting("S3_ACCESS_KEY_ID", env)?.trim() || null;
  const secretAccessKey = setting("S3_SECRET_ACCESS_KEY", env)?.trim() || null;
  if (!!accessKeyId !== !!secretAccessKey) throw new Error("S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together.");
  const publicUrl = setting("S3_PUBLIC_URL", env)?.trim() || defaultPublicUrl(bucket, region, endpoint, forcePathStyle);
  return { bucket, region, endpoint, forcePathStyle, accessKeyId, secretAccessKey, publicUrl: publicUrl.replace(/\/+$/, "") };
}

function defaultPublicUrl(bucket: string, region: string, endpoint: string | null, pathStyle: boolean): string {
  if (!endpoint) return pathStyle ? `https://s3.${region}.amazonaws.com/${bucket}` : `https://${bucket}.s3.${region}.amazonaws.com`;
  const url = new URL(endpoint);
  return pathStyle ? `${url.origin}/${bucket}` : `${url.protocol}//${bucket}.${url.host}`;
}

/** What the server says about one uploaded part. */
interface ListedPart {
  etag: string;
  size: number;
  sha256: string | null;
}

/** Every part S3 holds for an upload (ListParts pages through 1000 at a time). */
async function listParts(client: S3Client, bucket: string, key: string, uploadId: string): Promise<Map<number, ListedPart>> {
  const parts = new Map<number, ListedPart>();
  let marker: string | undefined;
  for (;;) {
    const page = await client.send(new ListPartsCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumberMarker: marker }));
    for (const p of page.Parts ?? ([] as Part[])) {
      parts.set(p.PartNumber!, { etag: unquote(p.ETag), size: Number(p.Size ?? 0), sha256: p.ChecksumSHA256 ?? null });
    }
    if (!page.IsTruncated || !page.NextPartNumberMarker) return parts;
    marker = String(page.NextPartNumberMarker);
  }
}

const errorName = (err: unknown) => (err instanceof S3ServiceException ? err.name : null);

export class S3Storage implements Storage {
  readonly client: S3Client;

  constructor(readonly config: S3Config) {
    this.client = new S3Client({
      region: config.region,
      endpoint: config.endpoint ?? undefined,
      forcePathStyle: config.forcePathStyle,
      credentials: config.accessKeyId ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey! } : undefined,
      // Only the checksums we ask for: a presigned URL must not carry one the SDK computed
      // over an empty body, and S3-compatible servers differ in the CRC algorithms they know.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
  }

  private get bucket() {
    return this.config.bucket;
  }

  async createMultipartUpload(key: string, opts: { mimeType: string; filename: string; parts: PartSpec[] }): Promise<string> {
    // With every part's SHA-256 declared, S3 keeps them and reports them in ListParts.
    const allDeclared = opts.parts.every((p) => p.checksumSha256Base64);
    const out = await this.client.send(
      new CreateMultipartUploadCommand({
        Bucket: this.bucket,
        Key: key,
        ContentType: opts.mimeType,
        ChecksumAlgorithm: allDeclared ? "SHA256" : undefined,
      }),
    );
    if (!out.UploadId) throw new Error("S3 answered CreateMultipartUpload without an UploadId.");
    return out.UploadId;
  }

  async presignUploadPart(key: string, uploadId: string, part: PartSpec, expiresAt: Date): Promise<PresignedPart> {
    const sha = part.checksumSha256Base64;
    const command = new UploadPartCommand({
      Bucket: this.bucket,
      Key: key,
      UploadId: uploadId,
      PartNumber: part.number,
      ...(sha ? { ChecksumSHA256: sha, ChecksumAlgorithm: "SHA256" as const } : {}),
    });
    // Signed as headers (not hoisted into the query): the client must send them, and S3
    // checks the body against the checksum.
    const url = await getSignedUrl(this.client, command, { expiresIn: this.ttl(expiresAt), unhoistableHeaders: CHECKSUM_HEADERS });
    const headers: Record<string, string> = sha ? { "x-amz-checksum-sha256": sha, "x-amz-sdk-checksum-algorithm": "SHA256" } : {};
    return { url, headers, expiresAt };
  }

  async completeMultipartUpload(
    key: string,
    uploadId: string,
    parts: CompletedPart[],
    expect: { size: number; sha256Base64: string | null; declared: PartSpec[] },
  ): Promise<StoredObject> {
    if (parts.length === 0) throw new UploadRejected(["body", "parts"], "List should have at least 1 item after validation, not 0");
    let listed: Map<number, ListedPart>;
    try {
      listed = await listParts(this.client, this.bucket, key, uploadId);
    } catch (err) {
      if (errorName(err) === "NoSuchUpload") throw new UploadRejected(["body", "id"], "No such upload.");
      throw err;
    }
    const declared = new Map(expect.declared.map((p) => [p.number, p.checksumSha256Base64]));
    /** Checksums S3 did not vouch for, to check against the bytes: part index → SHA-256s. */
    const unchecked = new Map<number, string[]>();
    let size = 0;
    for (const [i, part] of parts.entries()) {
      const loc = ["body", "parts", i];
      if (i > 0 && part.number <= parts[i - 1].number)
        throw new UploadRejected([...loc, "number"], "Parts must be listed once each, in ascending order.");
      if (!declared.has(part.number))
        throw new UploadRejected([...loc, "number"], `Part ${part.number} was not declared when the file was created.`);
      const held = listed.get(part.number);
      if (!held) throw new UploadRejected([...loc, "number"], `Part ${part.number} was not uploaded.`);
      if (unquote(part.etag) !== held.etag)
        throw new UploadRejected([...loc, "checksum_etag"], `The ETag of part ${part.number} does not match the uploaded part.`);
      const wanted = [declared.get(part.number), part.checksumSha256Base64].filter((s): s is string => !!s);
      if (held.sha256 && wanted.some((s) => s !== held.sha256)) {
        throw new UploadRejected(
          [...loc, "checksum_sha256_base64"],
          `The SHA-256 of part ${part.number} does not match the uploaded part.`,
        );
      }
      if (!held.sha256 && wanted.length) unchecked.set(i, wanted);
      size += held.size;
    }
    if (size !== expect.size) {
      throw new UploadRejected(
        ["body", "parts"],
        `The uploaded parts add up to ${size} bytes, but the file was declared with ${expect.size}.`,
      );
    }
    // One part: its SHA-256 is the file's, so a wrong declaration is caught before assembling.
    const onlySha = parts.length === 1 ? listed.get(parts[0].number)!.sha256 : null;
    if (onlySha && expect.sha256Base64 && onlySha !== expect.sha256Base64) throw wholeMismatch();

    await this.complete(key, uploadId, parts, listed);
    let sha256Base64 = onlySha;
    if (unchecked.size > 0 || (expect.sha256Base64 && !onlySha)) {
      try {
        sha256Base64 = await this.verifyBytes(
          key,
          parts.map((p) => ({ number: p.number, size: listed.get(p.number)!.size })),
          unchecked,
        );
        if (expect.sha256Base64 && sha256Base64 !== expect.sha256Base64) throw wholeMismatch();
      } catch (err) {
        // The upload is consumed by now: drop the bad object; the file stays not uploaded.
        if (err instanceof UploadRejected) await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
        throw err;
      }
    }
    const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
    return {
      etag: head.ETag ?? "",
      version: head.VersionId ?? null,
      size: Number(head.ContentLength ?? size),
      sha256Base64,
      lastModified: head.LastModified ?? new Date(),
    };
  }

  private async complete(key: string, uploadId: string, parts: CompletedPart[], listed: Map<number, ListedPart>): Promise<void> {
    try {
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: key,
          UploadId: uploadId,
          MultipartUpload: {
            Parts: parts.map((p) => {
              const held = listed.get(p.number)!;
              return { PartNumber: p.number, ETag: `"${held.etag}"`, ...(held.sha256 ? { ChecksumSHA256: held.sha256 } : {}) };
            }),
          },
        }),
      );
    } catch (err) {
      const name = errorName(err);
      if (name === "EntityTooSmall") throw new UploadRejected(["body", "parts"], "Every part but the last must be at least 5 MiB.");
      if (name === "NoSuchUpload") throw new UploadRejected(["body", "id"], "No such upload.");
      if (name === "InvalidPart" || name === "InvalidPartOrder" || name === "BadDigest" || name === "InvalidRequest") {
        throw new UploadRejected(["body", "parts"], `The storage refused the parts: ${(err as Error).message}`);
      }
      throw err;
    }
  }

  /** Reads the assembled object once: each part's SHA-256 where asked, and the whole file's. */
  private async verifyBytes(key: string, parts: { number: number; size: number }[], unchecked: Map<number, string[]>): Promise<string> {
    const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    const whole = createHash("sha256");
    let index = 0;
    let left = parts[0].size;
    let part = createHash("sha256");
    // Closes every part that has all its bytes (empty ones included), checking what was asked.
    const closeFullParts = () => {
      while (index < parts.length && left === 0) {
        const actual = part.digest("base64");
        if (unchecked.get(index)?.some((s) => s !== actual)) {
          throw new UploadRejected(
            ["body", "parts", index, "checksum_sha256_base64"],
            `The SHA-256 of part ${parts[index].number} does not match the uploaded part.`,
          );
        }
        index++;
        left = parts[index]?.size ?? 0;
        part = createHash("sha256");
      }
    };
    closeFullParts();
    for await (const chunk of out.Body as Readable as AsyncIterable<Buffer>) {
      whole.update(chunk);
      let offset = 0;
      while (offset < chunk.length && index < parts.length) {
        const take = Math.min(left, chunk.length - offset);
        part.update(chunk.subarray(offset, offset + take));
        offset += take;
        left -= take;
        closeFullParts();
      }
    }
    if (index < parts.length) throw new UploadRejected(["body", "parts"], "The assembled file is shorter than its parts.");
    return whole.digest("base64");
  }

  async putObject(key: string, bytes: Buffer, mimeType: string): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: bytes, ContentType: mimeType }));
  }

  async deleteObject(key: string, opts: { uploadId: string | null }): Promise<void> {
    if (opts.uploadId) {
      try {
        await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: opts.uploadId }));
      } catch (err) {
        if (errorName(err) !== "NoSuchUpload") throw err; // completed or already aborted
      }
    }
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  publicUrl(key: string): string {
    return `${this.config.publicUrl}/${encodeKey(key)}`;
  }

  async presignDownload(key: string, opts: { filename: string; mimeType: string; expiresAt: Date }): Promise<string> {
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ResponseContentDisposition: attachmentDisposition(opts.filename),
      ResponseContentType: opts.mimeType || "application/octet-stream",
      ResponseCacheControl: "private, no-store",
    });
    return getSignedUrl(this.client, command, { expiresIn: this.ttl(opts.expiresAt) });
  }

  private ttl(expiresAt: Date): number {
    return Math.min(MAX_PRESIGN_SECONDS, Math.max(1, Math.ceil((expiresAt.getTime() - Date.now()) / 1000)));
  }
}

function wholeMismatch() {
  return new UploadRejected(["body", "parts"], "The SHA-256 of the assembled file does not match the checksum declared at creation.");
}
