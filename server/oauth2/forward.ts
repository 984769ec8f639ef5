// Handing a /v1/oauth2 request on to better-auth's provider (server/auth/oauth.ts) in-process, as a
// web Request to its own path under /api/auth, with only the headers that carry credentials and
// the client's address (its rate limits count per client, as /api/auth's do).
import type { IncomingHttpHeaders } from "node:http";
import { CLIENT_IP_HEADER } from "../auth/instance.js";
import type { AuthHandler } from "../kit/context.js";

/** Client credentials only (token, revocation, introspection: called by servers, never with cookies). */
export const CLIENT_HEADERS = ["authorization", "dpop", "user-agent"];
/** A signed-in user's (client registration): their session, from their page. */
export const USER_HEADERS = ["authorization", "cookie", "origin", "user-agent"];

export interface Forwarded {
  status: number;
  headers: Headers;
  /** The parsed JSON answer (null when there is none). */
  json: unknown;
}

export async function forward(
  auth: AuthHandler,
  baseURL: string,
  path: string,
  init: {
    method: string;
    headers: IncomingHttpHeaders;
    pass: readonly string[];
    clientIp: string | null;
    body?: string;
    contentType?: string;
  },
): Promise<Forwarded> {
  const headers = new Headers();
  for (const name of init.pass) {
    const value = init.headers[name];
    if (typeof value === "string" && value) headers.set(name, value);
  }
  if (init.clientIp) headers.set(CLIENT_IP_HEADER, init.clientIp);
  if (init.contentType) headers.set("content-type", init.contentType);
  const res = await auth.handler(new Request(`${baseURL}/api/auth${path}`, { method: init.method, headers, body: init.body }));
  const text = await res.text();
  let json: unknown = null;
  if (text) {
    try {
      json = JSON.parse(text);
    } catch {
      json = { error: "server_error", error_description: text.slice(0, 200) };
    }
  }
  return { status: res.status, headers: res.headers, json };
}

/** A parsed form body (the contract's validator has already checked its shape) as a form again. */
export function formBody(body: object): string {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(body)) if (value !== undefined && value !== null) form.set(key, String(value));
  return form.toString();
}
