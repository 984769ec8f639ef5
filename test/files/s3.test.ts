// Files through the official client with the S3 storage configured (S3_* environment), against
// a real S3-compatible server on 127.0.0.1 (versitygw): parts PUT to presigned UploadPart URLs,
// completion checked against what S3 holds, public media read anonymously from the bucket's
// public/ prefix, downloadables only through presigned GetObject URLs, deletion.
import { createHash, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import type { FileCreate } from "@polar-sh/sdk/models/components/filecreate.js";
import type { FileUpload } from "@polar-sh/sdk/models/components/fileupload.js";
import { HTTPValidationError } from "@polar-sh/sdk/models/errors/httpvalidationerror.js";
import { ResourceNotFound } from "@polar-sh/sdk/models/errors/resourcenotfound.js";
import { CreateBucketCommand, HeadObjectCommand, PutBucketPolicyCommand, S3Client } from "@aws-sdk/client-s3";
import { S3Storage } from "../../server/files/s3-storage.js";
import { downloadUrl } from "../../server/files/service.js";
import { getStorage } from "../../server/files/storage.js";
import { orgWithToken, rejects, useTestApi } from "../harness/index.js";
import { startS3Server, type S3Server } from "./s3-server.js";

const BUCKET = "borealis-files";
const MiB = 1024 * 1024;
let s3: S3Server;
let admin: S3Client;

// Registered before useTestApi(): the API reads the S3_* settings when it starts.
beforeAll(async () => {
  s3 = await startS3Server();
  admin = new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
  await admin.send(new CreateBucketCommand({ Bucket: BUCKET }));
  // What an operator does for public media: anonymous reads of public/* only.
  const policy = {
    Version: "2012-10-17",
    Statement: [{ Effect: "Allow", Principal: "*", Action: "s3:GetObject", Resource: `arn:aws:s3:::${BUCKET}/public/*` }],
  };
  await admin.send(new PutBucketPolicyCommand({ Bucket: BUCKET, Policy: JSON.stringify(policy) }));
  Object.assign(process.env, {
    S3_BUCKET: BUCKET,
    S3_ENDPOINT: s3.endpoint,
    S3_REGION: s3.region,
    S3_FORCE_PATH_STYLE: "true",
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
  });
});
afterAll(async () => {
  admin?.destroy();
  await s3?.stop();
});

const api = useTestApi();

const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("base64");
const locs = (err: HTTPValidationError) => err.data$.detail?.map((d) => d.loc) ?? [];

/** Distinct bytes (a repeated pattern would hide a part sent in the wrong place). */
function bytesOf(size: number, seed: number): Buffer {
  const b = Buffer.alloc(size);
  for (let i = 0; i < size; i++) b[i] = (i * 31 + seed * 7 + (i >> 10)) & 0xff;
  return b;
}

/** Declares a file cut in `partSize` chunks (S3: every part but the last at least 5 MiB). */
function plan(
  bytes: Buffer,
  partSize: number,
  service: FileCreate["service"],
  mimeType: string,
  name: string,
  withChecksums = true,
): FileCreate {
  const count = Math.max(1, Math.ceil(bytes.length / partSize));
  const parts = Array.from({ length: count }, (_, i) => {
    const [start, end] = [i * partSize, Math.min((i + 1) * partSize, bytes.length)];
    return {
      number: i + 1,
      chunkStart: start,
      chunkEnd: end,
      checksumSha256Base64: withChecksums ? sha256(bytes.subarray(start, end)) : null,
    };
  });
  return { service, name, mimeType, size: bytes.length, checksumSha256Base64: withChecksums ? sha256(bytes) : null, upload: { parts } };
}

async function putPart(part: FileUpload["upload"]["parts"][number], body: Buffer): Promise<Response> {
  return fetch(part.url, { method: "PUT", headers: part.headers, body: Uint8Array.from(body) });
}

/** PUTs every part to its presigned URL; returns the ETags S3 answered. */
async function putParts(created: FileUpload, bytes: Buffer): Promise<string[]> {
  const etags = [];
  for (const part of created.upload.parts) {
    const res = await putPart(part, bytes.subarray(part.chunkStart, part.chunkEnd));
    expect(res.status, await res.clone().text()).toBe(200);
    etags.push(res.headers.get("etag")!);
  }
  return etags;
}

function completion(
  created: FileUpload,
  etags: string[],
  sums: (string | null)[] = created.upload.parts.map((p) => p.checksumSha256Base64 ?? null),
) {
  return {
    id: created.id,
    fileUploadCompleted: {
      id: created.upload.id,
      path: created.upload.path,
      parts: created.upload.parts.map((p, i) => ({ number: p.number, checksumEtag: etags[i], checksumSha256Base64: sums[i] })),
    },
  };
}

const objectExists = (key: string) =>
  admin.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key })).then(
    () => true,
    (e: Error) => (e.name === "NotFound" ? false : Promise.reject(e)),
  );

describe("files on S3", () => {
  let polar: Polar;
  let orgId: string;

  beforeAll(async () => {
    const { org, token } = await orgWithToken(api.knex);
    orgId = org.id;
    polar = api.client(token);
  });

  it("is the configured storage", () => {
    expect(getStorage()).toBeInstanceOf(S3Storage);
  });

  it("uploads a downloadable in parts to presigned S3 URLs, lists it, serves it through a signed URL, deletes it", async () => {
    const bytes = bytesOf(5 * MiB + 1234, 1);
    const created = await polar.files.create(plan(bytes, 5 * MiB, "downloadable", "application/pdf", "Guide ü.pdf"));
    expect(created).toMatchObject({ organizationId: orgId, size: bytes.length, isUploaded: false, path: `${orgId}/${created.id}.pdf` });
    expect(created.upload.parts).toHaveLength(2);
    for (const p of created.upload.parts) {
      const url = new URL(p.url);
      expect(`${url.origin}${url.pathname}`).toBe(`${s3.endpoint}/${BUCKET}/${created.path}`);
      expect(url.searchParams.get("partNumber")).toBe(String(p.number));
      expect(url.searchParams.get("uploadId")).toBe(created.upload.id);
      // The checksum is a signed header the client must send, not a query parameter.
      expect(url.searchParams.get("X-Amz-SignedHeaders")).toBe("host;x-amz-checksum-sha256;x-amz-sdk-checksum-algorithm");
      expect(p.headers).toEqual({ "x-amz-checksum-sha256": p.checksumSha256Base64, "x-amz-sdk-checksum-algorithm": "SHA256" });
    }
    expect((await polar.files.list({ ids: created.id })).result.items).toEqual([]);

    const etags = await putParts(created, bytes);
    const done = await polar.files.uploaded(completion(created, etags));
    expect(done).toMatchObject({
      id: created.id,
      isUploaded: true,
      size: bytes.length,
      checksumSha256Base64: sha256(bytes),
      sizeReadable: "5.0 MB",
    });
    expect(done.checksumEtag).toMatch(/^"[0-9a-f]{32}-2"$/);
    expect(done.lastModifiedAt).toBeInstanceOf(Date);
    expect((await polar.files.list({ ids: created.id })).result.items).toEqual([done]);

    // Private: S3 refuses anonymous reads; the signed URL serves it as an attachment.
    expect((await fetch(`${s3.endpoint}/${BUCKET}/${done.path}`)).status).toBe(403);
    const signed = await downloadUrl({ path: done.path, name: done.name, mime_type: done.mimeType });
    expect(signed.url.startsWith(`${s3.endpoint}/${BUCKET}/${done.path}?`)).toBe(true);
    const got = await fetch(signed.url);
    expect(got.status).toBe(200);
    expect(got.headers.get("content-type")).toBe("application/pdf");
    expect(got.headers.get("content-disposition")).toBe(`attachment; filename="Guide _.pdf"; filename*=UTF-8''Guide%20%C3%BC.pdf`);
    expect(
      createHash("sha256")
        .update(Buffer.from(await got.arrayBuffer()))
        .digest("base64"),
    ).toBe(sha256(bytes));
    expect((await fetch(signed.url.replace(/X-Amz-Signature=[0-9a-f]/, "X-Amz-Signature=x"))).status).toBe(403);

    await polar.files.delete({ id: done.id });
    expect((await polar.files.list({ ids: done.id })).result.items).toEqual([]);
    await rejects(polar.files.delete({ id: done.id }), ResourceNotFound);
  });

  it("S3 refuses a part whose bytes do not match the declared SHA-256, or sent without the signed headers", async () => {
    const bytes = bytesOf(4096, 2);
    const created = await polar.files.create(plan(bytes, 4096, "downloadable", "text/plain", "notes.txt"));
    const [part] = created.upload.parts;
    let res = await putPart(part, bytesOf(4096, 3));
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("<Code>BadDigest</Code>");
    res = await fetch(part.url, { method: "PUT", body: Uint8Array.from(bytes) });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("<Code>SignatureDoesNotMatch</Code>");
    // Nothing was stored: completion finds no part.
    const err = await rejects(polar.files.uploaded(completion(created, ['"00000000000000000000000000000000"'])), HTTPValidationError);
    expect(locs(err)).toEqual([["body", "parts", 0, "number"]]);
    const done = await polar.files.uploaded(completion(created, await putParts(created, bytes)));
    expect(done.isUploaded).toBe(true);
  });

  it("checks every part, its ETag and SHA-256, and the total size before S3 assembles anything", async () => {
    const bytes = bytesOf(5 * MiB + 100, 4);
    const created = await polar.files.create(plan(bytes, 5 * MiB, "downloadable", "application/zip", "bundle.zip"));
    const [p1, p2] = created.upload.parts;
    const e1 = (await putPart(p1, bytes.subarray(0, 5 * MiB))).headers.get("etag")!;
    let err = await rejects(polar.files.uploaded(completion(created, [e1, '"nope"'])), HTTPValidationError);
    expect(locs(err)).toEqual([["body", "parts", 1, "number"]]);
    const e2 = (await putPart(p2, bytes.subarray(5 * MiB))).headers.get("etag")!;
    err = await rejects(polar.files.uploaded(completion(created, [e1, '"0000"'])), HTTPValidationError);
    expect(locs(err)).toEqual([["body", "parts", 1, "checksum_etag"]]);
    err = await rejects(
      polar.files.uploaded(completion(created, [e1, e2], [p1.checksumSha256Base64!, sha256(Buffer.from("other"))])),
      HTTPValidationError,
    );
    expect(locs(err)).toEqual([["body", "parts", 1, "checksum_sha256_base64"]]);
    const good = completion(created, [e1, e2]);
    const onlyFirst = { ...good, fileUploadCompleted: { ...good.fileUploadCompleted, parts: good.fileUploadCompleted.parts.slice(0, 1) } };
    err = await rejects(polar.files.uploaded(onlyFirst), HTTPValidationError);
    expect(locs(err)).toEqual([["body", "parts"]]);
    expect(err.data$.detail?.[0].msg).toBe(
      `The uploaded parts add up to ${5 * MiB} bytes, but the file was declared with ${bytes.length}.`,
    );
    const reversed = {
      ...good,
      fileUploadCompleted: { ...good.fileUploadCompleted, parts: [...good.fileUploadCompleted.parts].reverse() },
    };
    err = await rejects(polar.files.uploaded(reversed), HTTPValidationError);
    expect(locs(err)).toEqual([["body", "parts", 1, "number"]]);
    expect(await objectExists(created.path)).toBe(false);
    expect((await api.knex("files").where({ id: created.id }).first()).is_uploaded).toBe(false);
    // The upload is still open after every refusal.
    const done = await polar.files.uploaded(good);
    expect(done).toMatchObject({ isUploaded: true, size: bytes.length });
    expect(await objectExists(created.path)).toBe(true);
  });

  it("rejects a file whose size or whole SHA-256 is not what was declared", async () => {
    const bytes = bytesOf(3000, 5);
    const wrongSize = await polar.files.create({ ...plan(bytes, 4096, "downloadable", "text/plain", "short.txt"), size: 3001 });
    let err = await rejects(polar.files.uploaded(completion(wrongSize, await putParts(wrongSize, bytes))), HTTPValidationError);
    expect(locs(err)).toEqual([["body", "parts"]]);
    expect(err.data$.detail?.[0].msg).toMatch(/3000 bytes.*3001/);

    // One part: the part's SHA-256 (vouched by S3) is the file's.
    const single = await polar.files.create({
      ...plan(bytes, 4096, "downloadable", "text/plain", "one.txt"),
      checksumSha256Base64: sha256(Buffer.from("else")),
    });
    err = await rejects(polar.files.uploaded(completion(single, await putParts(single, bytes))), HTTPValidationError);
    expect(err.data$.detail?.[0].msg).toMatch(/SHA-256 of the assembled file/);
    expect(await objectExists(single.path)).toBe(false);

    // Several parts: S3 keeps no whole-file SHA-256, so the assembled bytes are read back; the
    // bad object is removed and the file stays not uploaded.
    const big = bytesOf(5 * MiB + 10, 6);
    const multi = await polar.files.create({
      ...plan(big, 5 * MiB, "downloadable", "application/zip", "two.zip"),
      checksumSha256Base64: sha256(bytes),
    });
    err = await rejects(polar.files.uploaded(completion(multi, await putParts(multi, big))), HTTPValidationError);
    expect(locs(err)).toEqual([["body", "parts"]]);
    expect(err.data$.detail?.[0].msg).toMatch(/SHA-256 of the assembled file/);
    expect(await objectExists(multi.path)).toBe(false);
    expect((await api.knex("files").where({ id: multi.id }).first()).is_uploaded).toBe(false);
  });

  it("without declared checksums, checks the SHA-256s the completion claims against the bytes and records the file's", async () => {
    const bytes = bytesOf(5 * MiB + 77, 7);
    const bare = await polar.files.create(plan(bytes, 5 * MiB, "downloadable", "application/zip", "bare.zip", false));
    expect(bare.checksumSha256Base64).toBeNull();
    for (const p of bare.upload.parts) {
      expect(p.headers).toEqual({});
      expect(new URL(p.url).searchParams.get("X-Amz-SignedHeaders")).toBe("host");
    }
    const etags = await putParts(bare, bytes);
    const claimed = [sha256(bytes.subarray(0, 5 * MiB)), sha256(Buffer.from("not the second part"))];
    const err = await rejects(polar.files.uploaded(completion(bare, etags, claimed)), HTTPValidationError);
    expect(locs(err)).toEqual([["body", "parts", 1, "checksum_sha256_base64"]]);
    expect(await objectExists(bare.path)).toBe(false);

    const again = await polar.files.create(plan(bytes, 5 * MiB, "downloadable", "application/zip", "bare.zip", false));
    const done = await polar.files.uploaded(completion(again, await putParts(again, bytes), [null, sha256(bytes.subarray(5 * MiB))]));
    expect(done).toMatchObject({
      isUploaded: true,
      checksumSha256Base64: sha256(bytes),
      checksumSha256Hex: createHash("sha256").update(bytes).digest("hex"),
    });
  });

  it("serves product media and avatars anonymously from the bucket's public/ prefix; deleting removes them", async () => {
    const png = bytesOf(2048, 8);
    const created = await polar.files.create(plan(png, 4096, "product_media", "image/png", "cover.png"));
    expect(created.path).toBe(`public/${orgId}/${created.id}.png`);
    const media = await polar.files.uploaded(completion(created, await putParts(created, png)));
    const publicUrl = (media as { publicUrl: string }).publicUrl;
    expect(publicUrl).toBe(`${s3.endpoint}/${BUCKET}/${media.path}`);
    const res = await fetch(publicUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await res.arrayBuffer())).toEqual(png);

    const svg = Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>");
    const avatarUpload = await polar.files.create(plan(svg, 4096, "organization_avatar", "image/svg+xml", "logo.svg"));
    const avatar = await polar.files.uploaded(completion(avatarUpload, await putParts(avatarUpload, svg)));
    expect(Buffer.from(await (await fetch((avatar as { publicUrl: string }).publicUrl)).arrayBuffer())).toEqual(svg);

    await polar.files.delete({ id: media.id });
    expect(await objectExists(media.path)).toBe(false);
    expect((await fetch(publicUrl)).status).toBe(404);
  });

  it("stores what the server makes (invoices) in the bucket, private, behind a signed URL", async () => {
    const pdf = Buffer.from("%PDF-1.4 an invoice");
    const key = `${orgId}/invoices/${randomUUID()}/Invoice-ACME-0001.pdf`;
    await getStorage().putObject(key, pdf, "application/pdf");
    expect((await fetch(`${s3.endpoint}/${BUCKET}/${key}`)).status).toBe(403);
    const url = await getStorage().presignDownload(key, {
      filename: "Invoice-ACME-0001.pdf",
      mimeType: "application/pdf",
      expiresAt: new Date(Date.now() + 60_000),
    });
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toContain(`filename="Invoice-ACME-0001.pdf"`);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(pdf);
  });

  it("deleting a file whose upload never completed aborts the S3 upload", async () => {
    const bytes = bytesOf(1000, 9);
    const created = await polar.files.create(plan(bytes, 4096, "downloadable", "text/plain", "never.txt"));
    await polar.files.delete({ id: created.id });
    const res = await putPart(created.upload.parts[0], bytes);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("<Code>NoSuchUpload</Code>");
  });
});
