// UUID ids. A path id that is not a UUID can never exist, so it answers 404 like an unknown one.
import { createHash } from "node:crypto";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export function isUuid(v: unknown): v is string {
  return typeof v === "string" && UUID.test(v);
}
/** A query filter given once or repeated (`id=a&id=b`) as a list. */
export function asList<T>(v: T | T[] | null | undefined): T[] {
  if (v === undefined || v === null) return [];
  return Array.isArray(v) ? v : [v];
}

/** A stable UUID (version 5 layout, SHA-1) naming a pair of things, for rows that are computed rather than stored. */
export function derivedUuid(namespace: string, ...parts: string[]): string {
  const h = createHash("sha1")
    .update([namespace, ...parts].join("\u0000"))
    .digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
