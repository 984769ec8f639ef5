// Files through the official client and the built-in local storage: multipart uploads to
// presigned part URLs, completion checked part by part, public media, signed downloads,
// patches, deletion, listing and the error contract.
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import type { FileUpload } from "@polar-sh/sdk/models/components/fileupload.js";
import type { FileCreate } from "@polar-sh/sdk/models/components/filecreate.js";
import { HTTPValidationError } from "@polar-sh/sdk/models/errors/httpvalidationerror.js";
import { NotPermitted } from "@polar-sh/sdk/models/errors/notpermitted.js";
import { ResourceNotFound } from "@polar-sh/sdk/models/errors/resourcenotfound.js";
import { SDKError } from "@polar-sh/sdk/models/errors/sdkerror.js";
import { downloadUrl } from "../../server/files/service.js";
import { orgWithToken, rejects, useTestApi } from "../harness/index.js";

// This file's own storage directory (read when the storage is first used).
const filesDir = mkdtempSync(path.join(tmpdir(), "borealis-files-"));
process.env.FILES_DIR = filesDir;

const api = useTestApi();
afterAll(() => rmSync(filesDir, { recursive: true, force: true }));

const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("base64");

const locs = (err: HTTPValidationError) => err.data$.detail?.map((d) => d.loc) ?? [];

type Service = FileCreate["service"];

/** Declares a file cut in `partSize` chunks, as Polar's dashboard does (chunk_end exclusive). */
function plan(bytes: Buffer, partSize: number, service: Service, mimeType: string, name = "file.bin"): FileCreate {
  const count = Math.max(1, Math.ceil(bytes.length / partSize));
  const parts = Array.from({ length: count }, (_, i) => {
    const start = i * partSize;
    const end = Math.min(start + partSize, bytes.length);
    return { number: i + 1, chunkStart: start, chunkEnd: end, checksumSha256Base64: sha256(bytes.subarray(start, end)) };
  });
  return { service, name, mimeType, size: bytes.length, checksumSha256Base64: sha256(bytes), upload: { parts } } as FileCreate;
}

/** PUTs every part to its presigned URL with the headers given; returns the ETags. */
async function putParts(created: FileUpload, bytes: Buffer): Promise<string[]> {
  const etags = [];
  for (const part of created.upload.parts) {
    const res = await fetch(part.url, {
      method: "PUT",
      headers: part.headers,
      body: Uint8Array.from(bytes.subarray(part.chunkStart, part.chunkEnd)),
    });
    expect(res.status).toBe(200);
    etags.push(res.headers.get("etag")!);
  }
  return etags;
}

function completion(created: FileUpload, etags: string[]) {
  return {
    id: created.id,
    fileUploadCompleted: {
      id: created.upload.id,
      path: created.upload.path,
      parts: created.upload.parts.map((p, i) => ({
        number: p.number,
        checksumEtag: etags[i],
        checksumSha256Base64: p.checksumSha256Base64 ?? null,
      })),
    },
  };
}

async function upload(c: Polar, bytes: Buffer, service: Service = "downloadable", mimeType = "application/pdf", name = "guide.pdf") {
  const created = await c.files.create(plan(bytes, 6, service, mimeType, name));
  const etags = await putParts(created, bytes);
  return c.files.uploaded(completion(created, etags));
}

describe("files", () => {
  let polar: Polar;
  let orgId: string;

  beforeAll(async () => {
    // Presigned URLs point at this test's server.
    process.env.PUBLIC_API_URL = api.url;
    const { org, token } = await orgWithToken(api.knex);
    orgId = org.id;
    polar = api.client(token);
  });

  it("uploads a downloadable in parts and completes it", async () => {
    const bytes = Buffer.from("The quick brown fox jumps over the lazy dog");
    const created = await polar.files.create(plan(bytes, 16, "downloadable", "application/pdf", "fox.pdf"));
    expect(created).toMatchObject({
      organizationId: orgId,
      name: "fox.pdf",
      mimeType: "application/pdf",
      size: 43,
      service: "downloadable",
      isUploaded: false,
    });
    expect(created.path).toBe(`${orgId}/${created.id}.pdf`);
    expect(created.checksumSha256Base64).toBe(sha256(bytes));
    expect(created.checksumSha256Hex).toBe(createHash("sha256").update(bytes).digest("hex"));
    expect(created.upload.path).toBe(created.path);
    expect(created.upload.parts.map((p) => [p.number, p.chunkStart, p.chunkEnd])).toEqual([
      [1, 0, 16],
      [2, 16, 32],
      [3, 32, 43],
    ]);
    for (const p of created.upload.parts) {
      expect(p.url.startsWith(`${api.url}/files/upload/`)).toBe(true);
      expect(p.expiresAt.getTime()).toBeGreaterThan(Date.now());
      expect(p.headers).toEqual({ "x-amz-checksum-sha256": p.checksumSha256Base64, "x-amz-sdk-checksum-algorithm": "SHA256" });
    }
    // Not listed before its upload completes.
    expect((await polar.files.list({ ids: created.id })).result.items).toEqual([]);

    const etags = await putParts(created, bytes);
    const done = await polar.files.uploaded(completion(created, etags));
    expect(done).toMatchObject({ id: created.id, isUploaded: true, service: "downloadable", size: 43, sizeReadable: "43 B" });
    expect(done.checksumEtag).toMatch(/^"[0-9a-f]{32}-3"$/);
    expect(done.lastModifiedAt).toBeInstanceOf(Date);
    expect("publicUrl" in done).toBe(false);
    expect((await polar.files.list({ ids: created.id })).result.items).toEqual([done]);
    const onDisk = readdirSync(path.join(filesDir, orgId));
    expect(onDisk).toContain(`${created.id}.pdf`);

    const again = await rejects(polar.files.uploaded(completion(created, etags)), NotPermitted);
    expect(again.data$.error).toBe("NotPermitted");
  });

  it("serves product media and avatars at their public URL, and downloadables only through signed URLs", async () => {
    const png = Buffer.from("\x89PNG fake image bytes for the test");
    const created = await polar.files.create(plan(png, 1024, "product_media", "image/png", "cover.png"));
    expect(await (await fetch(`${api.url}/files/public/${created.path}`)).status).toBe(404);
    const media = await polar.files.uploaded(completion(created, await putParts(created, png)));
    expect(media.service).toBe("product_media");
    const publicUrl = (media as { publicUrl: string }).publicUrl;
    expect(publicUrl).toBe(`${api.url}/files/public/${media.path}`);
    const res = await fetch(publicUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await res.arrayBuffer())).toEqual(png);
    const avatar = await upload(
      polar,
      Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"),
      "organization_avatar",
      "image/svg+xml",
      "logo.svg",
    );
    const avatarRes = await fetch((avatar as { publicUrl: string }).publicUrl);
    expect(avatarRes.status).toBe(200);
    expect(avatarRes.headers.get("content-security-policy")).toContain("default-src 'none'");

    const secret = Buffer.from("paid content, not public");
    const download = await upload(polar, secret, "downloadable", "application/pdf", "Guide ü.pdf");
    expect((await fetch(`${api.url}/files/public/${download.path}`)).status).toBe(404);
    const signed = await downloadUrl({ path: download.path, name: download.name, mime_type: download.mimeType });
    expect(new Date(signed.expires_at).getTime()).toBeGreaterThan(Date.now());
    const got = await fetch(signed.url);
    expect(got.status).toBe(200);
    expect(got.headers.get("content-disposition")).toBe(`attachment; filename="Guide _.pdf"; filename*=UTF-8''Guide%20%C3%BC.pdf`);
    expect(Buffer.from(await got.arrayBuffer())).toEqual(secret);
    const tampered = signed.url.replace("filename=", "filename=x");
    expect((await fetch(tampered)).status).toBe(403);
    const expired = await downloadUrl({ path: download.path, name: download.name, mime_type: download.mimeType }, -10);
    expect((await fetch(expired.url)).status).toBe(403);

    // A deleted public file is no longer served.
    await polar.files.delete({ id: media.id });
    expect((await fetch(publicUrl)).status).toBe(404);
  });

  it("rejects part uploads with a bad checksum or a forged or expired URL", async () => {
    const bytes = Buffer.from("0123456789abcdef");
    const created = await polar.files.create(plan(bytes, 8, "downloadable", "text/plain", "digits.txt"));
    const [p1] = created.upload.parts;
    let res = await fetch(p1.url, { method: "PUT", headers: p1.headers, body: Buffer.from("XXXXXXXX") });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "BadDigest" });
    res = await fetch(p1.url.replace(/signature=[^&]+/, "signature=forged"), { method: "PUT", body: bytes.subarray(0, 8) });
    expect(res.status).toBe(403);
    res = await fetch(p1.url.replace(/expires=\d+/, "expires=1"), { method: "PUT", body: bytes.subarray(0, 8) });
    expect(res.status).toBe(403);
    res = await fetch(p1.url.replace(/\/1\?/, "/7?"), { method: "PUT", body: bytes.subarray(0, 8) });
    expect(res.status).toBe(403);
    res = await fetch(p1.url, { method: "OPTIONS" });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-expose-headers")).toContain("ETag");
  });

  it("checks every part, each part's SHA-256 and the total size when completing", async () => {
    const bytes = Buffer.from("abcdefghijklmnopqrstuvwxyz");
    const created = await polar.files.create(plan(bytes, 10, "downloadable", "text/plain", "abc.txt"));
    const [p1, p2, p3] = created.upload.parts;
    const base = completion(created, ["", "", ""]);
    // Part 3 never uploaded.
    const e1 = (await fetch(p1.url, { method: "PUT", headers: p1.headers, body: bytes.subarray(0, 10) })).headers.get("etag")!;
    const e2 = (await fetch(p2.url, { method: "PUT", headers: p2.headers, body: bytes.subarray(10, 20) })).headers.get("etag")!;
    const withEtags = (e3: string) => ({
      ...base,
      fileUploadCompleted: {
        ...base.fileUploadCompleted,
        parts: base.fileUploadCompleted.parts.map((p, i) => ({ ...p, checksumEtag: [e1, e2, e3][i] })),
      },
    });
    let err = await rejects(polar.files.uploaded(withEtags('"nope"')), HTTPValidationError);
    expect(locs(err)).toEqual([["body", "parts", 2, "number"]]);
    const e3 = (await fetch(p3.url, { method: "PUT", headers: p3.headers, body: bytes.subarray(20) })).headers.get("etag")!;
    err = await rejects(polar.files.uploaded(withEtags('"0000"')), HTTPValidationError);
    expect(locs(err)).toEqual([["body", "parts", 2, "checksum_etag"]]);
    const good = withEtags(e3);
    const wrongSum = {
      ...good,
      fileUploadCompleted: {
        ...good.fileUploadCompleted,
        parts: good.fileUploadCompleted.parts.map((p, i) => (i === 1 ? { ...p, checksumSha256Base64: sha256(Buffer.from("other")) } : p)),
      },
    };
    err = await rejects(polar.files.uploaded(wrongSum), HTTPValidationError);
    expect(locs(err)).toEqual([["body", "parts", 1, "checksum_sha256_base64"]]);
    const missingPart = {
      ...good,
      fileUploadCompleted: { ...good.fileUploadCompleted, parts: good.fileUploadCompleted.parts.slice(0, 2) },
    };
    err = await rejects(polar.files.uploaded(missingPart), HTTPValidationError);
    expect(locs(err)).toEqual([["body", "parts"]]);
    expect(err.data$.detail?.[0].msg).toMatch(/20 bytes.*26/);
    const reversed = {
      ...good,
      fileUploadCompleted: { ...good.fileUploadCompleted, parts: [...good.fileUploadCompleted.parts].reverse() },
    };
    err = await rejects(polar.files.uploaded(reversed), HTTPValidationError);
    expect(locs(err)).toEqual([["body", "parts", 1, "number"]]);
    err = await rejects(
      polar.files.uploaded({ ...good, fileUploadCompleted: { ...good.fileUploadCompleted, id: "another-upload" } }),
      HTTPValidationError,
    );
    expect(locs(err)).toEqual([["body", "id"]]);
    err = await rejects(
      polar.files.uploaded({ ...good, fileUploadCompleted: { ...good.fileUploadCompleted, path: "x/y.txt" } }),
      HTTPValidationError,
    );
    expect(locs(err)).toEqual([["body", "path"]]);

    // A part whose bytes changed on disk after upload is caught by re-hashing.
    const stored = path.join(filesDir, ".uploads", created.upload.id, "2.part");
    writeFileSync(stored, "TAMPERED!!");
    err = await rejects(polar.files.uploaded(good), HTTPValidationError);
    expect(locs(err)).toEqual([["body", "parts", 1, "checksum_sha256_base64"]]);
    expect((await api.knex("files").where({ id: created.id }).first()).is_uploaded).toBe(false);
    // Re-uploading the part repairs it.
    const fixed = (await fetch(p2.url, { method: "PUT", headers: p2.headers, body: bytes.subarray(10, 20) })).headers.get("etag")!;
    const done = await polar.files.uploaded({
      ...good,
      fileUploadCompleted: {
        ...good.fileUploadCompleted,
        parts: good.fileUploadCompleted.parts.map((p, i) => (i === 1 ? { ...p, checksumEtag: fixed } : p)),
      },
    });
    expect(done.isUploaded).toBe(true);
  });

  it("checks the whole file against the declared SHA-256 and size", async () => {
    const bytes = Buffer.from("hello world");
    const declared = plan(bytes, 64, "downloadable", "text/plain");
    const created = await polar.files.create({ ...declared, checksumSha256Base64: sha256(Buffer.from("something else")) });
    const err = await rejects(polar.files.uploaded(completion(created, await putParts(created, bytes))), HTTPValidationError);
    expect(err.data$.detail?.[0].msg).toMatch(/SHA-256 of the assembled file/);

    // Without any checksum, completion computes and records it.
    const bare = await polar.files.create({
      service: "downloadable",
      name: "bare.txt",
      mimeType: "text/plain",
      size: bytes.length,
      upload: { parts: [{ number: 1, chunkStart: 0, chunkEnd: bytes.length }] },
    });
    expect(bare.checksumSha256Base64).toBeNull();
    expect(bare.upload.parts[0].headers).toEqual({});
    const done = await polar.files.uploaded(completion(bare, await putParts(bare, bytes)));
    expect(done.checksumSha256Base64).toBe(sha256(bytes));
    expect(done.name).toBe("bare.txt");
  });

  it("validates creation per service with 422", async () => {
    const part = [{ number: 1, chunkStart: 0, chunkEnd: 10 }];
    const cases: [FileCreate, (string | number)[]][] = [
      [
        { service: "organization_avatar", name: "a.pdf", mimeType: "application/pdf", size: 10, upload: { parts: part } },
        ["body", "mime_type"],
      ],
      [{ service: "product_media", name: "a.mp4", mimeType: "video/mp4", size: 10, upload: { parts: part } }, ["body", "mime_type"]],
      [
        { service: "organization_avatar", name: "a.png", mimeType: "image/png", size: 1024 * 1024 + 1, upload: { parts: part } },
        ["body", "size"],
      ],
      [
        { service: "product_media", name: "a.png", mimeType: "image/png", size: 10 * 1024 * 1024 + 1, upload: { parts: part } },
        ["body", "size"],
      ],
      [{ service: "downloadable", name: "a", mimeType: "not a mime", size: 10, upload: { parts: part } }, ["body", "mime_type"]],
      [{ service: "downloadable", name: " ", mimeType: "text/plain", size: 10, upload: { parts: part } }, ["body", "name"]],
      [
        {
          service: "downloadable",
          name: "a",
          mimeType: "text/plain",
          size: -1,
          upload: { parts: [{ number: 1, chunkStart: 0, chunkEnd: 0 }] },
        },
        ["body", "size"],
      ],
      [
        { service: "downloadable", name: "a", mimeType: "text/plain", size: 10, checksumSha256Base64: "abc", upload: { parts: part } },
        ["body", "checksum_sha256_base64"],
      ],
      [{ service: "downloadable", name: "a", mimeType: "text/plain", size: 10, upload: { parts: [] } }, ["body", "upload", "parts"]],
      [
        {
          service: "downloadable",
          name: "a",
          mimeType: "text/plain",
          size: 10,
          upload: { parts: [{ number: 0, chunkStart: 0, chunkEnd: 10 }] },
        },
        ["body", "upload", "parts", 0, "number"],
      ],
      [
        {
          service: "downloadable",
          name: "a",
          mimeType: "text/plain",
          size: 10,
          upload: { parts: [{ number: 10_001, chunkStart: 0, chunkEnd: 10 }] },
        },
        ["body", "upload", "parts", 0, "number"],
      ],
      [
        {
          service: "downloadable",
          name: "a",
          mimeType: "text/plain",
          size: 10,
          upload: { parts: [{ number: 1, chunkStart: -1, chunkEnd: 10 }] },
        },
        ["body", "upload", "parts", 0, "chunk_start"],
      ],
      [
        {
          service: "downloadable",
          name: "a",
          mimeType: "text/plain",
          size: 10,
          upload: { parts: [{ number: 1, chunkStart: 0, chunkEnd: 10, checksumSha256Base64: "!!" }] },
        },
        ["body", "upload", "parts", 0, "checksum_sha256_base64"],
      ],
      [
        {
          service: "downloadable",
          name: "a",
          mimeType: "text/plain",
          size: 10,
          organizationId: "8a0f3b1e-0000-4000-8000-000000000000",
          upload: { parts: part },
        },
        ["body", "organization_id"],
      ],
    ];
    for (const [body, loc] of cases) {
      const err = await rejects(polar.files.create(body), HTTPValidationError);
      expect(locs(err), JSON.stringify(body)).toContainEqual(loc);
    }
    const { token } = await orgWithToken(api.knex);
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    for (const body of [
      { service: "downloadable", name: "a", mime_type: "text/plain", size: 1 },
      { service: "video", name: "a", mime_type: "text/plain", size: 1, upload: { parts: [] } },
    ]) {
      const res = await fetch(`${api.url}/v1/files/`, { method: "POST", headers, body: JSON.stringify(body) });
      expect(res.status).toBe(422);
    }
  });

  it("patches name and version", async () => {
    const f = await upload(polar, Buffer.from("v1 contents"));
    const u = await polar.files.update({ id: f.id, filePatch: { name: "Guide v2.pdf", version: "2.0" } });
    expect(u).toMatchObject({ id: f.id, name: "Guide v2.pdf", version: "2.0", isUploaded: true });
    const cleared = await polar.files.update({ id: f.id, filePatch: { version: null } });
    expect(cleared).toMatchObject({ name: "Guide v2.pdf", version: null });
    const err = await rejects(polar.files.update({ id: f.id, filePatch: { name: "" } }), HTTPValidationError);
    expect(locs(err)).toEqual([["body", "name"]]);
  });

  it("lists uploaded files with the ids and organization filters, newest first, in pages", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const c = api.client(token);
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await upload(c, Buffer.from(`file number ${i}`)));
    await c.files.create(plan(Buffer.from("never uploaded"), 64, "downloadable", "text/plain"));
    const all = [];
    for await (const page of await c.files.list({ limit: 2 })) all.push(...page.result.items.map((f) => f.id));
    expect(all).toEqual(made.map((f) => f.id).reverse());
    expect((await c.files.list({ ids: [made[0].id, made[3].id] })).result.items.map((f) => f.id)).toEqual([made[3].id, made[0].id]);
    expect((await c.files.list({ ids: made[1].id })).result.pagination).toEqual({ totalCount: 1, maxPage: 1 });
    expect((await c.files.list({ organizationId: org.id })).result.pagination.totalCount).toBe(5);
    expect((await c.files.list({ organizationId: orgId })).result.items).toEqual([]);
    const res = await fetch(`${api.url}/v1/files/?limit=0`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(422);
  });

  it("deletes with 204: the file is gone for every call", async () => {
    const f = await upload(polar, Buffer.from("to be deleted"));
    await polar.files.delete({ id: f.id });
    await rejects(polar.files.delete({ id: f.id }), ResourceNotFound);
    await rejects(polar.files.update({ id: f.id, filePatch: { name: "x" } }), ResourceNotFound);
    expect((await polar.files.list({ ids: f.id })).result.items).toEqual([]);
    expect((await api.knex("files").where({ id: f.id }).first()).deleted_at).toBeInstanceOf(Date);
  });

  it("isolates organizations: 404 for foreign and unknown ids, 401 and 403 for tokens", async () => {
    const other = await orgWithToken(api.knex);
    const foreign = await upload(api.client(other.token), Buffer.from("theirs"));
    await rejects(polar.files.update({ id: foreign.id, filePatch: { name: "Hijacked" } }), ResourceNotFound);
    await rejects(polar.files.delete({ id: foreign.id }), ResourceNotFound);
    await rejects(
      polar.files.uploaded({ id: foreign.id, fileUploadCompleted: { id: "x", path: foreign.path, parts: [] } }),
      ResourceNotFound,
    );
    await rejects(polar.files.delete({ id: "8a0f3b1e-0000-4000-8000-000000000000" }), ResourceNotFound);
    expect((await polar.files.list({ ids: foreign.id })).result.items).toEqual([]);
    expect((await api.knex("files").where({ id: foreign.id }).first()).name).toBe("guide.pdf");
    expect((await rejects(api.client("polar_oat_nope").files.list({}), SDKError)).statusCode).toBe(401);
    const readOnly = await orgWithToken(api.knex, { scopes: ["files:read"] });
    expect((await api.client(readOnly.token).files.list({})).result.items).toEqual([]);
    const denied = await rejects(
      api.client(readOnly.token).files.create(plan(Buffer.from("x"), 8, "downloadable", "text/plain")),
      SDKError,
    );
    expect(denied.statusCode).toBe(403);
  });
});
