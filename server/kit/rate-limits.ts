// Rate limit policies and counters shared by every API process: counters in PostgreSQL
// (api_rate_limits, through rate-limiter-flexible), in memory alone while the database is
// unreachable. Policies `public`, `auth_failure`, `token`, `customer` (RATE_LIMIT_<NAME>, docs/RELIABILITY.md).
// Not HTTP: they count subjects; the pipeline (server/http/pipeline.ts) sets their headers.
import type { Knex } from "knex";
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
import { ApiError, TooManyRequests } from "./errors.js";
import { logger } from "./logger.js";
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

/** The RateLimit-Policy and RateLimit headers of a counted request. */
export type RateLimitHeaders = Record<"RateLimit-Policy" | "RateLimit", string>;

/** A 429 past a limit: Retry-After, and the limit's headers. */
class RateLimited extends TooManyRequests {
  constructor(
    state: RateLimiterRes,
    private readonly limit: RateLimitHeaders,
  ) {
    super(state.msBeforeNext / 1000);
  }
  override headers(): Record<string, string> {
    return Object.assign(super.headers(), this.limit);
  }
}

export interface RateLimiter {
  readonly name: string;
  readonly policy: RatePolicy;
  /** Counts one request of `subject`, and gives its headers; throws a 429 past the limit. */
  consume(subject: string): Promise<RateLimitHeaders | undefined>;
  /** Throws a 429 while `subject` is over the limit (counts nothing). */
  refuseIfOver(subject: string): Promise<void>;
  /** Counts one request without refusing it (failures that make the limit). */
  penalize(subject: string): Promise<void>;
}

function headersOf(policy: RatePolicy, state: RateLimiterRes): RateLimitHeaders {
  const reset = Math.max(0, Math.ceil(state.msBeforeNext / 1000));
  return {
    "RateLimit-Policy": `${policy.points};w=${policy.durationSeconds}`,
    RateLimit: `limit=${policy.points}, remaining=${Math.max(0, state.remainingPoints)}, reset=${reset}`,
  };
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
  const refusal = (state: RateLimiterRes) => new RateLimited(state, headersOf(policy, state));
  return {
    name,
    policy,
    async consume(subject) {
      try {
        return headersOf(policy, await store.consume(subject));
      } catch (err) {
        if (!(err instanceof RateLimiterRes)) {
          logger.warn({ err, limiter: name }, "rate limiter unavailable; the request is let through");
          return undefined;
        }
        throw refusal(err);
      }
    },
    async refuseIfOver(subject) {
      let state: RateLimiterRes | null;
      try {
        state = await store.get(subject);
      } catch (err) {
        logger.warn({ err, limiter: name }, "rate limiter unavailable; the request is let through");
        return;
      }
      if (!state || state.consumedPoints <= policy.points) return;
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

export interface RateLimits {
  /** An anonymous call from `address` to a public door. */
  publicDoor(address: string, door: string): Promise<RateLimitHeaders | undefined>;
  /** Before authenticating: refused while `address` is over its failures. */
  beforeAuthentication(address: string): Promise<void>;
  /** A wrong token from `address`. */
  authenticationFailed(address: string): Promise<void>;
  /** An authenticated caller's call. */
  caller(kind: "token" | "customer", subject: string): Promise<RateLimitHeaders | undefined>;
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
    publicDoor: async (address, door) => publicLimiter?.consume(`${door}:${address}`),
    beforeAuthentication: async (address) => failures?.refuseIfOver(address),
    authenticationFailed: async (address) => failures?.penalize(address),
    caller: async (kind, subject) => (kind === "token" ? token : customer)?.consume(subject),
  };
}

/**
 * Authentication under the limits: an address over its token failures is refused first; a wrong
 * token counts as a failure; then the caller's own limit (token or customer session), or the
 * door's for an anonymous call. The caller, and the headers of the limit it was counted under.
 */
export async function limitedAuthentication<C extends { kind: string; tokenId?: string; customerId?: string }>(
  limits: RateLimits,
  call: { operationId: string; security: string; presented: boolean; address: () => string },
  authenticate: () => Promise<C>,
): Promise<[C, RateLimitHeaders | undefined]> {
  if (call.presented) await limits.beforeAuthentication(call.address());
  let caller: C;
  try {
    caller = await authenticate();
  } catch (err) {
    if (err instanceof ApiError && err.status === 401 && call.presented) await limits.authenticationFailed(call.address());
    throw err;
  }
  if (caller.kind === "organization" && caller.tokenId) return [caller, await limits.caller("token", caller.tokenId)];
  if (caller.kind === "customer" && caller.customerId) return [caller, await limits.caller("customer", caller.customerId)];
  if (call.security !== "access_token" && call.security !== "customer_session") {
    return [caller, await limits.publicDoor(call.address(), call.operationId)];
  }
  return [caller, undefined];
}
