// better-auth's Node handler at /api/auth, as a Fastify plugin that leaves the body unread (better-auth
// reads the raw request itself). Before it sees a request, the client's address is put in a header of
// our own, so a client cannot choose the address the rate limiter counts it under; its 429s get
// the standard Retry-After beside its own X-Retry-After.
import type { IncomingHttpHeaders } from "node:http";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { isValidIP } from "@better-auth/core/utils/ip";
import { toNodeHandler } from "better-auth/node";
import { CLIENT_IP_HEADER, type BorealisAuth } from "./instance.js";
import type { AuthConfig } from "./config.js";
import { errorBody } from "../kit/errors.js";
import { logger } from "../kit/logger.js";

export const AUTH_BASE_PATH = "/api/auth";

/** An address better-auth accepts (an IPv6 zone, `%eth0`, dropped), or undefined. */
function usable(address: string | undefined): string | undefined {
  const bare = address?.trim().replace(/%.*$/, "");
  return bare && isValidIP(bare) ? bare : undefined;
}

/**
 * The client's address, as sign-in, OAuth2 and the portal's code limits count it: with
 * AUTH_IP_HEADER, the last address in that header (the one the proxy in front of us wrote);
 * otherwise Fastify's (the TCP peer's, or with TRUST_PROXY the first untrusted hop's).
 */
export function clientAddress(
  req: { headers: IncomingHttpHeaders; ip?: string; socket: { remoteAddress?: string } },
  config: AuthConfig,
): string | undefined {
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

export function authRoutes(auth: BorealisAuth, config: AuthConfig) {
  const handle = toNodeHandler({ handler: (request: Request) => auth.handler(request).then(withRetryAfter) });
  const serve = async (req: FastifyRequest, reply: FastifyReply) => {
    const address = clientAddress(req, config);
    if (address) req.headers[CLIENT_IP_HEADER] = address;
    else delete req.headers[CLIENT_IP_HEADER];
    // better-auth writes the answer itself, with the headers the pipeline gave it so far.
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
    reply.hijack();
    try {
      await handle(req.raw, reply.raw);
    } catch (err) {
      logger.error({ err }, "unhandled error");
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { "content-type": "application/json; charset=utf-8" });
        reply.raw.end(JSON.stringify(errorBody(500, "An unexpected error occurred.")));
      }
    }
  };
  return async (app: FastifyInstance) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser("*", (_req, _payload, done) => done(null));
    app.all(AUTH_BASE_PATH, serve);
    app.all(`${AUTH_BASE_PATH}/*`, serve);
  };
}
