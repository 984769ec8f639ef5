// The rate limits (server/kit/rate-limits.ts) applied to a request: counted by its client's
// address or its caller, the answer carrying RateLimit-Policy and RateLimit (a 429 carries them too).
import type { FastifyReply, FastifyRequest } from "fastify";
import type { RateLimitHeaders, RateLimits } from "../kit/rate-limits.js";

/** The client's address: the socket's, or the first hop's when TRUST_PROXY tells Fastify to trust a proxy. */
export const clientIp = (req: FastifyRequest): string => req.ip ?? req.socket.remoteAddress ?? "unknown";

/** The headers of the limit a request was counted under. */
export function counted(reply: FastifyReply, headers: RateLimitHeaders | undefined): void {
  if (headers && !reply.sent) reply.headers(headers);
}

/** An anonymous call to a public door, counted by its address. */
export async function limitPublicDoor(limits: RateLimits, req: FastifyRequest, reply: FastifyReply, door: string): Promise<void> {
  counted(reply, await limits.publicDoor(clientIp(req), door));
}
