// A file upload through the files API: create the file with one part per 8 MiB chunk (each with
// its SHA-256), PUT each part to the URL the API hands back, then mark the upload complete with
// the parts' ETags. Used for product media and downloadable benefit files.
import { call } from "../dataProvider/request";
import type { FileRead, FileServiceTypes } from "../api";

const PART = 8 * 1024 * 1024;

async function sha256Base64(data: ArrayBuffer): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", data);
  let bin = "";
  for (const b of new Uint8Array(digest)) bin += String.fromCharCode(b);
  return btoa(bin);
}

interface Created {
  id: string;
  path: string;
  upload: {
    id: string;
    path: string;
    parts: {
      number: number;
      chunk_start: number;
      chunk_end: number;
      url: string;
      headers: Record<string, string>;
      checksum_sha256_base64?: string | null;
    }[];
  };
}

export async function uploadFile(file: File, service: FileServiceTypes): Promise<FileRead> {
  const whole = await file.arrayBuffer();
  const parts: { number: number; chunk_start: number; chunk_end: number; checksum_sha256_base64: string }[] = [];
  for (let start = 0, n = 1; start < Math.max(whole.byteLength, 1); start += PART, n++) {
    const end = Math.min(start + PART, whole.byteLength);
    parts.push({ number: n, chunk_start: start, chunk_end: end, checksum_sha256_base64: await sha256Base64(whole.slice(start, end)) });
    if (end >= whole.byteLength) break;
  }
  const created = await call<Created>("POST", "/v1/files/", {
    body: {
      name: file.name,
      mime_type: file.type || "application/octet-stream",
      size: whole.byteLength,
      service,
      checksum_sha256_base64: await sha256Base64(whole),
      upload: { parts },
    },
  });
  const done: { number: number; checksum_etag: string; checksum_sha256_base64: string }[] = [];
  for (const part of created.upload.parts) {
    const res = await fetch(part.url, { method: "PUT", headers: part.headers, body: whole.slice(part.chunk_start, part.chunk_end) });
    if (!res.ok) throw new Error(`Uploading part ${part.number} of ${file.name} failed (HTTP ${res.status})`);
    const etag = (res.headers.get("etag") ?? "").replace(/^W\//, "").replace(/^"|"$/g, "");
    const mine = parts.find((p) => p.number === part.number);
    done.push({ number: part.number, checksum_etag: etag, checksum_sha256_base64: mine?.checksum_sha256_base64 ?? "" });
  }
  return call<FileRead>("POST", "/v1/files/{id}/uploaded", {
    path: { id: created.id },
    body: { id: created.upload.id, path: created.upload.path, parts: done },
  });
}
