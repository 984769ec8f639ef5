// better-auth's handler on our Express app, at /api/auth (mounted before any body parser: it reads
// the raw request itself). Before it sees a request, the client's address is put in a header of
// our own, so a client cannot choose the address the rate limiter counts it under; its 429s get
// the standard Retry-After beside its own X-Retry-After.
import type { Request as ExpressRequest, RequestHandler } from "express";
import { isValidIP } from "@better-auth/core/utils/ip";
import { toNodeHandler } from "better-auth/node";
import { CLIENT_IP_HEADER, type BorealisAuth } from "./instance.js";
import type { AuthConfig } from "./config.js";

export const AUTH_BASE_PATH = "/api/auth";

/** An address better-auth accepts (an IPv6 zone, `%eth0`, dropped), or undefined. */
function usable(address: string | undefined): string | undefined {
  const bare = address?.trim().replace(/%.*$/, "");
  return bare && isValidIP(bare) ? bare : undefined;
}

/**
 * The client's address, as sign-in, OAuth2 and the portal's code limits count it: with
 * AUTH_IP_HEADER, the last address in that header (the one the proxy in front of us wrote);
 * otherwise Express's (the TCP peer's, or with TRUST_PROXY the first untrusted hop's).
 */
export function clientAddress(req: Pick<ExpressRequest, "headers" | "ip" | "socket">, config: AuthConfig): string | undefined {
  if (config.ipHeader) {
    const value = req.headers[config.ipHeader];
    const found = usable((Array.isArray(value) ? value.join(",") : value)?.split(",").at(-1));
    if (found) return found;
  }
  return usable(req.ip ?? req.socket.remoteAddress);
}

/** When a better-auth answer says to come back: its 429s carry X-Retry-After (seconds). */
export function retryAfterOf(response: { status: number; headers: Headers }): string | null {
  return response.status === 429 ? response.headers.get("x-retry-after") : null;
}

/** better-auth's answer, a 429 with the standard Retry-After beside its X-Retry-After. */
function withRetryAfter(response: Response): Response {
  const seconds = retryAfterOf(response);
  if (seconds === null || response.headers.has("retry-after")) return response;
  const headers = new Headers(response.headers);
  headers.set("Retry-After", seconds);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

export function authRoutes(auth: BorealisAuth, config: AuthConfig): RequestHandler {
  const handle = toNodeHandler({ handler: (request: Request) => auth.handler(request).then(withRetryAfter) });
  return (req, res, next) => {
    const address = clientAddress(req, config);
    if (address) req.headers[CLIENT_IP_HEADER] = address;
    else delete req.headers[CLIENT_IP_HEADER];
    handle(req, res).catch(next);
  };
}
