// The rate limits (server/kit/rate-limits.ts) applied to a request: counted by its client's
// address or its caller, the answer carrying RateLimit-Policy and RateLimit (a 429 carries them too).
import type { FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../kit/errors.js";
import type { RateLimitHeaders, RateLimits } from "../kit/rate-limits.js";

/** The client's address: the socket's, or the first hop's when TRUST_PROXY tells Fastify to trust a proxy. */
const clientIp = (req: FastifyRequest): string => req.ip ?? req.socket.remoteAddress ?? "unknown";

function counted(reply: FastifyReply, headers: RateLimitHeaders | undefined): void {
  if (headers && !reply.sent) reply.headers(headers);
}

/** An anonymous call to a public door, counted by its address. */
export async function limitPublicDoor(limits: RateLimits, req: FastifyRequest, reply: FastifyReply, door: string): Promise<void> {
  counted(reply, await limits.publicDoor(clientIp(req), door));
}

/**
 * Authentication under the limits: an IP over its token failures is refused first; a wrong token
 * counts as a failure; then the caller's own limit (token or customer session), or the door's for
 * an anonymous call.
 */
export async function limitedAuthentication<C extends { kind: string; tokenId?: string; customerId?: string }>(
  limits: RateLimits,
  operationId: string,
  meta: { security: string },
  req: FastifyRequest,
  reply: FastifyReply,
  authenticate: () => Promise<C>,
): Promise<C> {
  const presented = req.headers.authorization !== undefined;
  if (presented) await limits.beforeAuthentication(clientIp(req));
  let caller: C;
  try {
    caller = await authenticate();
  } catch (err) {
    if (err instanceof ApiError && err.status === 401 && presented) await limits.authenticationFailed(clientIp(req));
    throw err;
  }
  if (caller.kind === "organization" && caller.tokenId) counted(reply, await limits.caller("token", caller.tokenId));
  else if (caller.kind === "customer" && caller.customerId) counted(reply, await limits.caller("customer", caller.customerId));
  else if (meta.security !== "access_token" && meta.security !== "customer_session") await limitPublicDoor(limits, req, reply, operationId);
  return caller;
}
