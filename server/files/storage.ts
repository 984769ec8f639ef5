// Where file bytes live. A `Storage` does S3-style multipart uploads: one presigned URL per part,
// then completion with the list of parts. Public files have a stable URL; downloadables only
// expiring signed ones. `S3Storage` (./s3-storage.ts) when S3_BUCKET is set, else `LocalStorage`
// under FILES_DIR with its own /files/ routes (mounted by server/app.ts), signed with
// FILES_SIGNING_SECRET or a secret kept in FILES_DIR/.signing-secret.
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual, type Hash } from "node:crypto";
import { createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { Transform, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import type { FastifyInstance, FastifyReply as Response, FastifyRequest } from "fastify";

type Request = FastifyRequest<{ Params: Record<string, string>; Querystring: Record<string, unknown> }>;
import type { Knex } from "knex";
import {
  attachmentDisposition,
  encodeKey,
  UploadRejected,
  type CompletedPart,
  type PartSpec,
  type PresignedPart,
  type Storage,
  type StoredObject,
  type UploadExpectation,
} from "./object-store.js";
import { findPublicMimeType } from "./repository.js";
import { S3Storage, s3ConfigFromEnv } from "./s3-storage.js";
import { setting } from "../config.js";

export const PRESIGN_TTL_SECONDS = setting("FILES_PRESIGN_TTL");

/** Services whose files anyone may fetch by their public URL. */
export const PUBLIC_SERVICES = ["product_media", "organization_avatar"] as const;

export function publicBaseUrl(): string {
  return (setting("PUBLIC_FILES_URL") ?? setting("PUBLIC_API_URL") ?? `http://127.0.0.1:${setting("PORT")}`).replace(/\/+$/, "");
}

const DEFAULT_DIR = fileURLToPath(new URL("../../.data/files", import.meta.url));
const MAX_PART_BYTES = 5 * 1024 ** 3; // S3's own part limit
const KEY_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const UPLOAD_ID = /^[0-9a-f-]{36}$/;

export function isSafeKey(key: string): boolean {
  const segments = key.split("/");
  return segments.length > 0 && segments.every((s) => KEY_SEGMENT.test(s) && s !== "..");
}

const unquote = (etag: string) => etag.trim().replace(/^W\//, "").replace(/^"|"$/g, "");

interface UploadMeta {
  key: string;
  mimeType: string;
  filename: string;
  /** part number → declared base64 SHA-256 (or null) */
  parts: Record<string, string | null>;
}

interface PartInfo {
  etag: string;
  sha256: string;
  size: number;
}

/** Hashes (sha256 + md5) and counts what flows through, refusing more than `limit` bytes. */
class Digest extends Transform {
  readonly sha256: Hash = createHash("sha256");
  readonly md5: Hash = createHash("md5");
  size = 0;
  constructor(private readonly limit: number) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback) {
    this.size += chunk.length;
    if (this.size > this.limit) return cb(new Error("EntityTooLarge"));
    this.sha256.update(chunk);
    this.md5.update(chunk);
    cb(null, chunk);
  }
}

export class LocalStorage implements Storage {
  private secretValue: Buffer | null = null;

  constructor(readonly root: string) {}

  private get uploadsDir() {
    return path.join(this.root, ".uploads");
  }
  private objectPath(key: string) {
    if (!isSafeKey(key)) throw new Error(`unsafe storage key: ${key}`);
    return path.join(this.root, ...key.split("/"));
  }
  private uploadDir(uploadId: string) {
    if (!UPLOAD_ID.test(uploadId)) throw new Error(`bad upload id: ${uploadId}`);
    return path.join(this.uploadsDir, uploadId);
  }

  private secret(): Buffer {
    if (this.secretValue) return this.secretValue;
    const configured = setting("FILES_SIGNING_SECRET");
    if (configured) return (this.secretValue = Buffer.from(configured, "utf8"));
    const file = path.join(this.root, ".signing-secret");
    mkdirSync(this.root, { recursive: true });
    if (!existsSync(file)) {
      try {
        writeFileSync(file, randomBytes(32).toString("hex"), { mode: 0o600, flag: "wx" });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err; // another process won the race
      }
    }
    return (this.secretValue = Buffer.from(readFileSync(file, "utf8").trim(), "utf8"));
  }

  sign(...fields: (string | number)[]): string {
    return createHmac("sha256", this.secret()).update(fields.join("\n")).digest("base64url");
  }

  verify(signature: unknown, ...fields: (string | number)[]): boolean {
    if (typeof signature !== "string") return false;
    const want = Buffer.from(this.sign(...fields));
    const got = Buffer.from(signature);
    return want.length === got.length && timingSafeEqual(want, got);
  }

  async createMultipartUpload(key: string, opts: { mimeType: string; filename: string; parts: PartSpec[] }): Promise<string> {
    this.objectPath(key); // validates the key
    const uploadId = randomUUID();
    const dir = this.uploadDir(uploadId);
    await mkdir(dir, { recursive: true });
    const meta: UploadMeta = {
      key,
      mimeType: opts.mimeType,
      filename: opts.filename,
      parts: Object.fromEntries(opts.parts.map((p) => [String(p.number), p.checksumSha256Base64])),
    };
    await writeFile(path.join(dir, "upload.json"), JSON.stringify(meta));
    return uploadId;
  }

  async presignUploadPart(_key: string, uploadId: string, part: PartSpec, expiresAt: Date): Promise<PresignedPart> {
    const expires = Math.floor(expiresAt.getTime() / 1000);
    const signature = this.sign("upload", uploadId, part.number, expires);
    const url = `${publicBaseUrl()}/files/upload/${uploadId}/${part.number}?expires=${expires}&signature=${signature}`;
    // The same headers S3 expects, so one client works against either storage.
    const headers: Record<string, string> = part.checksumSha256Base64
      ? { "x-amz-checksum-sha256": part.checksumSha256Base64, "x-amz-sdk-checksum-algorithm": "SHA256" }
      : {};
    return { url, headers, expiresAt };
  }

  private async readMeta(uploadId: string): Promise<UploadMeta | null> {
    try {
      return JSON.parse(await readFile(path.join(this.uploadDir(uploadId), "upload.json"), "utf8")) as UploadMeta;
    } catch {
      return null;
    }
  }

  /** Stores one part; answers like S3 (ETag header; 400 BadDigest on a checksum mismatch). */
  async putPart(req: Request, res: Response): Promise<void> {
    const uploadId = String(req.params.uploadId);
    const number = Number(req.params.part);
    const expires = Number(req.query.expires);
    if (!UPLOAD_ID.test(uploadId) || !Number.isInteger(number) || !this.verify(req.query.signature, "upload", uploadId, number, expires)) {
      return void res.code(403).send({ error: "SignatureDoesNotMatch", detail: "The upload URL is not valid." });
    }
    if (!Number.isFinite(expires) || expires * 1000 < Date.now()) {
      return void res.code(403).send({ error: "AccessDenied", detail: "The upload URL has expired." });
    }
    const meta = await this.readMeta(uploadId);
    if (!meta || !(String(number) in meta.parts)) {
      return void res.code(404).send({ error: "NoSuchUpload", detail: "No such upload or part." });
    }
    const dir = this.uploadDir(uploadId);
    const tmp = path.join(dir, `${number}.${randomUUID()}.tmp`);
    const digest = new Digest(MAX_PART_BYTES);
    try {
      await pipeline(req.raw, digest, createWriteStream(tmp));
    } catch (err) {
      await rm(tmp, { force: true });
      if ((err as Error).message === "EntityTooLarge")
        return void res.code(413).send({ error: "EntityTooLarge", detail: "Part too large." });
      // The client went away mid-part: nothing was stored, it can send the part again.
      if (!res.sent) res.code(400).send({ error: "IncompleteBody", detail: "The part was not received completely." });
      return;
    }
    const sha256 = digest.sha256.digest("base64");
    const declared = meta.parts[String(number)];
    const sent = req.headers["x-amz-checksum-sha256"];
    if ((declared && declared !== sha256) || (sent && sent !== sha256)) {
      await rm(tmp, { force: true });
      return void res.code(400).send({ error: "BadDigest", detail: "The SHA-256 of the part does not match the declared checksum." });
    }
    const info: PartInfo = { etag: digest.md5.digest("hex"), sha256, size: digest.size };
    await rename(tmp, path.join(dir, `${number}.part`));
    await writeFile(path.join(dir, `${number}.json`), JSON.stringify(info));
    res.header("ETag", `"${info.etag}"`);
    res.header("x-amz-checksum-sha256", sha256);
    res.code(200).send();
  }

  async completeMultipartUpload(key: string, uploadId: string, parts: CompletedPart[], expect: UploadExpectation): Promise<StoredObject> {
    const meta = await this.readMeta(uploadId);
    if (!meta || meta.key !== key) throw new UploadRejected(["body", "id"], "No such upload.");
    if (parts.length === 0) throw new UploadRejected(["body", "parts"], "List should have at least 1 item after validation, not 0");
    const declaredParts = meta.parts;
    const dir = this.uploadDir(uploadId);
    const infos: PartInfo[] = [];
    for (const [i, part] of parts.entries()) {
      const loc = ["body", "parts", i];
      if (i > 0 && part.number <= parts[i - 1].number)
        throw new UploadRejected([...loc, "number"], "Parts must be listed once each, in ascending order.");
      if (!(String(part.number) in meta.parts))
        throw new UploadRejected([...loc, "number"], `Part ${part.number} was not declared when the file was created.`);
      let info: PartInfo;
      try {
        info = JSON.parse(await readFile(path.join(dir, `${part.number}.json`), "utf8")) as PartInfo;
      } catch {
        throw new UploadRejected([...loc, "number"], `Part ${part.number} was not uploaded.`);
      }
      if (unquote(part.etag) !== info.etag)
        throw new UploadRejected([...loc, "checksum_etag"], `The ETag of part ${part.number} does not match the uploaded part.`);
      infos.push(info);
    }

    // Assemble into a temporary file, hashing every part again from the bytes on disk.
    const target = this.objectPath(key);
    await mkdir(path.dirname(target), { recursive: true });
    const tmp = `${target}.${randomUUID()}.tmp`;
    const whole = createHash("sha256");
    let size = 0;
    const partPath = (n: number) => path.join(dir, `${n}.part`);
    // Streams the parts in order; a part whose bytes no longer hash to what was uploaded (or
    // to what the caller claims) stops the assembly.
    async function* assemble(): AsyncGenerator<Buffer> {
      for (const [i, part] of parts.entries()) {
        const partHash = createHash("sha256");
        for await (const chunk of createReadStream(partPath(part.number)) as AsyncIterable<Buffer>) {
          partHash.update(chunk);
          whole.update(chunk);
          size += chunk.length;
          yield chunk;
        }
        const actual = partHash.digest("base64");
        const declared = declaredParts[String(part.number)];
        if (actual !== infos[i].sha256 || (declared && declared !== actual)) {
          throw new UploadRejected(
            ["body", "parts", i, "checksum_sha256_base64"],
            `Part ${part.number} is corrupted: its SHA-256 changed since upload.`,
          );
        }
        if (part.checksumSha256Base64 && part.checksumSha256Base64 !== actual) {
          throw new UploadRejected(
            ["body", "parts", i, "checksum_sha256_base64"],
            `The SHA-256 of part ${part.number} does not match the uploaded part.`,
          );
        }
      }
    }
    try {
      await pipeline(assemble, createWriteStream(tmp));
      if (size !== expect.size) {
        throw new UploadRejected(
          ["body", "parts"],
          `The uploaded parts add up to ${size} bytes, but the file was declared with ${expect.size}.`,
        );
      }
      const sha256Base64 = whole.digest("base64");
      if (expect.sha256Base64 && expect.sha256Base64 !== sha256Base64) {
        throw new UploadRejected(["body", "parts"], "The SHA-256 of the assembled file does not match the checksum declared at creation.");
      }
      await rename(tmp, target);
      await rm(dir, { recursive: true, force: true });
      // S3's multipart ETag: MD5 of the parts' binary MD5s, dash, number of parts.
      const md5s = Buffer.concat(infos.map((p) => Buffer.from(p.etag, "hex")));
      const etag = `"${createHash("md5").update(md5s).digest("hex")}-${parts.length}"`;
      return { etag, version: null, size, sha256Base64, lastModified: (await stat(target)).mtime };
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  async putObject(key: string, bytes: Buffer): Promise<void> {
    const file = this.objectPath(key);
    await mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${randomUUID()}.tmp`;
    await writeFile(tmp, bytes);
    await rename(tmp, file);
  }

  async deleteObject(key: string, opts: { uploadId: string | null }): Promise<void> {
    if (opts.uploadId && UPLOAD_ID.test(opts.uploadId)) await rm(this.uploadDir(opts.uploadId), { recursive: true, force: true });
    await rm(this.objectPath(key), { force: true });
  }

  publicUrl(key: string): string {
    return `${publicBaseUrl()}/files/public/${encodeKey(key)}`;
  }

  async presignDownload(key: string, opts: { filename: string; mimeType: string; expiresAt: Date }): Promise<string> {
    const expires = Math.floor(opts.expiresAt.getTime() / 1000);
    const signature = this.sign("download", key, expires, opts.filename, opts.mimeType);
    const q = new URLSearchParams({ expires: String(expires), filename: opts.filename, type: opts.mimeType, signature });
    return `${publicBaseUrl()}/files/download/${encodeKey(key)}?${q.toString()}`;
  }

  async download(req: Request, res: Response): Promise<Response | void> {
    const key = wildcard(req);
    const expires = Number(req.query.expires);
    const filename = String(req.query.filename ?? "");
    const type = String(req.query.type ?? "");
    if (!key || !isSafeKey(key) || !this.verify(req.query.signature, "download", key, expires, filename, type)) {
      return void res.code(403).send({ error: "SignatureDoesNotMatch", detail: "The download URL is not valid." });
    }
    if (!Number.isFinite(expires) || expires * 1000 < Date.now()) {
      return void res.code(403).send({ error: "AccessDenied", detail: "The download URL has expired." });
    }
    return this.sendObject(res, key, type, {
      "Content-Disposition": attachmentDisposition(filename),
      "Cache-Control": "private, no-store",
    });
  }

  /** Sends the object (the reply is returned: Fastify waits for the stream to end). */
  async sendObject(res: Response, key: string, mimeType: string, headers: Record<string, string>): Promise<Response | void> {
    const file = this.objectPath(key);
    let size: number;
    try {
      size = (await stat(file)).size;
    } catch {
      return void res.code(404).send({ error: "NoSuchKey", detail: "Not found." });
    }
    res.code(200);
    res.header("Content-Type", mimeType || "application/octet-stream");
    res.header("Content-Length", String(size));
    res.header("X-Content-Type-Options", "nosniff");
    // An SVG served from the API's origin must not run script there.
    res.header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox");
    res.headers(headers);
    return res.send(createReadStream(file));
  }
}

function wildcard(req: Request): string {
  return String(req.params["*"] ?? "");
}

/** A storage set by setStorage; else the one built for the settings it was built from. */
let chosen: Storage | null = null;
let built: { settings: string; storage: Storage } | null = null;

/**
 * The configured storage: S3 when S3_BUCKET is set, the local one otherwise. FILES_STORAGE
 * (`local` or `s3`) says it explicitly. Built again when those settings change.
 */
export function getStorage(): Storage {
  if (chosen) return chosen;
  const s3 = s3ConfigFromEnv();
  const kind = setting("FILES_STORAGE") ?? (s3 ? "s3" : "local");
  const dir = path.resolve(setting("FILES_DIR") ?? DEFAULT_DIR);
  const settings = JSON.stringify([kind, dir, s3]);
  if (built?.settings === settings) return built.storage;
  let storage: Storage;
  if (kind === "s3") {
    if (!s3) throw new Error("FILES_STORAGE=s3 needs S3_BUCKET.");
    storage = new S3Storage(s3);
  } else if (kind === "local") {
    storage = new LocalStorage(dir);
  } else {
    throw new Error(`FILES_STORAGE=${kind} is not supported ("local" or "s3").`);
  }
  built = { settings, storage };
  return storage;
}

/** For tests and embedding: use this storage from now on (null: the configured one again). */
export function setStorage(s: Storage | null): void {
  chosen = s;
}

/**
 * The local storage's routes. Browsers upload parts cross-origin, so these answer CORS and
 * expose the ETag. Public files are served only while the database says they are public,
 * uploaded and not deleted.
 */
export function storageRoutes(knex: Knex) {
  getStorage(); // a bad FILES_STORAGE fails at start-up, not on the first upload
  const local = () => {
    const s = getStorage();
    return s instanceof LocalStorage ? s : null;
  };
  return async (app: FastifyInstance) => {
    // A part is raw bytes whatever its content type: read by the route itself.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser("*", (_req, _payload, done) => done(null));
    app.addHook("onRequest", async (_req, res) => {
      res.header("Access-Control-Allow-Origin", "*");
      res.header("Access-Control-Allow-Methods", "GET, PUT, OPTIONS");
      res.header("Access-Control-Allow-Headers", "content-type, x-amz-checksum-sha256, x-amz-sdk-checksum-algorithm");
      res.header("Access-Control-Expose-Headers", "ETag, x-amz-checksum-sha256");
    });
    app.options("/files/*", async (_req, res) => res.code(204).send());
    app.put<{ Params: Record<string, string>; Querystring: Record<string, unknown> }>("/files/upload/:uploadId/:part", async (req, res) => {
      const s = local();
      if (!s) return res.code(404).send({ error: "ResourceNotFound", detail: "No such route." });
      await s.putPart(req, res);
    });
    app.get<{ Params: Record<string, string>; Querystring: Record<string, unknown> }>("/files/download/*", async (req, res) => {
      const s = local();
      if (!s) return res.code(404).send({ error: "ResourceNotFound", detail: "No such route." });
      return s.download(req, res);
    });
    app.get<{ Params: Record<string, string>; Querystring: Record<string, unknown> }>("/files/public/*", async (req, res) => {
      const s = local();
      const key = wildcard(req);
      const file = s && isSafeKey(key) ? await findPublicMimeType(knex, key, PUBLIC_SERVICES) : undefined;
      if (!s || !file) return res.code(404).send({ error: "ResourceNotFound", detail: "Not found." });
      return s.sendObject(res, key, file.mime_type, { "Cache-Control": "public, max-age=3600" });
    });
  };
}
