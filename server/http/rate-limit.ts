// Rate limits shared by every API process: counters in PostgreSQL (api_rate_limits, through
// rate-limiter-flexible), counting in memory alone while the database is unreachable. Policies
// `public`, `auth_failure`, `token`, `customer` (RATE_LIMIT_<NAME>="<points>/<seconds>" or "off";
// docs/RELIABILITY.md). Limited answers carry RateLimit-Policy and RateLimit; a refusal is a 429
// TooManyRequests with Retry-After.
import type { FastifyReply as Response, FastifyRequest as Request } from "fastify";
import type { Knex } from "knex";
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
import { ApiError, TooManyRequests } from "../kit/errors.js";
import { logger } from "../kit/logger.js";
import { setting, type Env } from "../config.js";

export interface RatePolicy {
  points: number;
  durationSeconds: number;
}

export type RateLimitSettings = Record<string, RatePolicy | null>;

const DEFAULTS: Record<string, RatePolicy> = {
  public: { points: 120, durationSeconds: 60 },
  auth_failure: { points: 20, durationSeconds: 60 },
  token: { points: 1200, durationSeconds: 60 },
  customer: { points: 600, durationSeconds: 60 },
};

const VARIABLES: Record<string, "RATE_LIMIT_PUBLIC" | "RATE_LIMIT_AUTH_FAILURE" | "RATE_LIMIT_TOKEN" | "RATE_LIMIT_CUSTOMER"> = {
  public: "RATE_LIMIT_PUBLIC",
  auth_failure: "RATE_LIMIT_AUTH_FAILURE",
  token: "RATE_LIMIT_TOKEN",
  customer: "RATE_LIMIT_CUSTOMER",
};

/** Every policy off (benchmarks, fuzzing: they measure or explore, they are not clients to limit). */
export const NO_RATE_LIMITS: RateLimitSettings = Object.fromEntries(Object.keys(DEFAULTS).map((name) => [name, null]));

/** The policies from the environment (RATE_LIMIT_PUBLIC="120/60", RATE_LIMIT_TOKEN=off, ...). */
export function rateLimitSettings(env?: Env): RateLimitSettings {
  const out: RateLimitSettings = {};
  for (const [name, fallback] of Object.entries(DEFAULTS)) {
    const policy = setting(VARIABLES[name], env);
    out[name] = policy === undefined ? fallback : policy;
  }
  return out;
}

export interface RateLimiter {
  readonly name: string;
  readonly policy: RatePolicy;
  /** Counts one request of `subject`; throws TooManyRequests past the limit. */
  consume(subject: string, res?: Response): Promise<void>;
  /** Throws TooManyRequests while `subject` is over the limit (counts nothing). */
  refuseIfOver(subject: string, res?: Response): Promise<void>;
  /** Counts one request without refusing it (failures that make the limit). */
  penalize(subject: string): Promise<void>;
}

function setHeaders(res: Response | undefined, policy: RatePolicy, state: RateLimiterRes): void {
  if (!res || res.sent) return;
  const reset = Math.max(0, Math.ceil(state.msBeforeNext / 1000));
  res.header("RateLimit-Policy", `${policy.points};w=${policy.durationSeconds}`);
  res.header("RateLimit", `limit=${policy.points}, remaining=${Math.max(0, state.remainingPoints)}, reset=${reset}`);
}

/** A limiter over the shared table (a different `name` counts apart). */
export function rateLimiter(knex: Knex, name: string, policy: RatePolicy): RateLimiter {
  const opts = { keyPrefix: name, points: policy.points, duration: policy.durationSeconds };
  const store = new RateLimiterPostgres(
    Object.assign({}, opts, {
      storeClient: knex,
      storeType: "knex",
      tableName: "api_rate_limits",
      tableCreated: true,
      // Once over the limit, a key is refused from memory until its window ends: a flood costs no queries.
      inMemoryBlockOnConsumed: policy.points,
      insuranceLimiter: new RateLimiterMemory(opts),
    }),
  );
  const refusal = (state: RateLimiterRes) => new TooManyRequests(state.msBeforeNext / 1000);
  return {
    name,
    policy,
    async consume(subject, res) {
      try {
        setHeaders(res, policy, await store.consume(subject));
      } catch (err) {
        if (!(err instanceof RateLimiterRes)) {
          logger.warn({ err, limiter: name }, "rate limiter unavailable; the request is let through");
          return;
        }
        setHeaders(res, policy, err);
        throw refusal(err);
      }
    },
    async refuseIfOver(subject, res) {
      let state: RateLimiterRes | null;
      try {
        state = await store.get(subject);
      } catch (err) {
        logger.warn({ err, limiter: name }, "rate limiter unavailable; the request is let through");
        return;
      }
      if (!state || state.consumedPoints <= policy.points) return;
      setHeaders(res, policy, state);
      throw refusal(state);
    },
    async penalize(subject) {
      try {
        await store.penalty(subject, 1);
      } catch (err) {
        logger.warn({ err, limiter: name }, "rate limiter unavailable");
      }
    },
  };
}

/** The client's address: the socket's, or the first hop's when TRUST_PROXY tells Fastify to trust a proxy. */
export function clientIp(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? "unknown";
}

export interface RateLimits {
  /** An anonymous call to a public door. */
  publicDoor(req: Request, res: Response, door: string): Promise<void>;
  /** Before authenticating: refused while this IP is over its failures. */
  beforeAuthentication(req: Request, res: Response): Promise<void>;
  /** A wrong token from this IP. */
  authenticationFailed(req: Request): Promise<void>;
  /** An authenticated caller's call. */
  caller(kind: "token" | "customer", subject: string, res: Response): Promise<void>;
}

/**
 * The API's limits, from `settings` (rateLimitSettings() unless given). `namespace` keeps apart
 * the counters of APIs that must not count together (tests on one database).
 */
export function createRateLimits(knex: Knex, settings: RateLimitSettings = rateLimitSettings(), namespace = ""): RateLimits {
  const make = (name: string) => (settings[name] ? rateLimiter(knex, `${namespace}${name}`, settings[name]!) : null);
  const publicLimiter = make("public");
  const failures = make("auth_failure");
  const token = make("token");
  const customer = make("customer");
  return {
    publicDoor: async (req, res, door) => publicLimiter?.consume(`${door}:${clientIp(req)}`, res),
    beforeAuthentication: async (req, res) => failures?.refuseIfOver(clientIp(req), res),
    authenticationFailed: async (req) => failures?.penalize(clientIp(req)),
    caller: async (kind, subject, res) => (kind === "token" ? token : customer)?.consume(subject, res),
  };
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
  req: Request,
  res: Response,
  authenticate: () => Promise<C>,
): Promise<C> {
  const presented = req.headers.authorization !== undefined;
  if (presented) await limits.beforeAuthentication(req, res);
  let caller: C;
  try {
    caller = await authenticate();
  } catch (err) {
    if (err instanceof ApiError && err.status === 401 && presented) await limits.authenticationFailed(req);
    throw err;
  }
  if (caller.kind === "organization" && caller.tokenId) await limits.caller("token", caller.tokenId, res);
  else if (caller.kind === "customer" && caller.customerId) await limits.caller("customer", caller.customerId, res);
  else if (meta.security !== "access_token" && meta.security !== "customer_session") await limits.publicDoor(req, res, operationId);
  return caller;
}
