// One API call through the generated client: the response's JSON, or an HttpError made from the
// contract's error body. Every screen's call goes through here or through the data provider.
import { client } from "../api";
import { apiError } from "./errors";

export type Query = Record<string, unknown>;

export interface CallOptions {
  path?: Record<string, string>;
  query?: Query;
  body?: unknown;
  /** how to read a success body ("json" unless told) */
  parseAs?: "json" | "text" | "blob";
}

const BEARER = [{ scheme: "bearer" as const, type: "http" as const }];

/** Drops empty filter values (react-admin keeps cleared inputs as "" or undefined). */
export function cleanQuery(query: Query): Query {
  const out: Query = {};
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null || v === "") continue;
    if (Array.isArray(v) && v.length === 0) continue;
    out[k] = v;
  }
  return out;
}

export async function call<T>(method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE", url: string, opts: CallOptions = {}): Promise<T> {
  const result = await client.request<T, unknown, false>({
    method,
    url,
    security: BEARER,
    path: opts.path,
    query: opts.query ? cleanQuery(opts.query) : undefined,
    body: opts.body,
    parseAs: opts.parseAs ?? "auto",
    headers: opts.body === undefined ? undefined : { "Content-Type": "application/json" },
  });
  if (result.error !== undefined || !result.response.ok) {
    throw apiError(result.response.status, result.error);
  }
  return result.data as T;
}
