// The Idempotency-Key of a request under /v1 (POST, PATCH, DELETE): read, scoped to its caller, and
// its operation run once per key (server/kit/idempotency.ts); a replayed answer says so in a header.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Knex } from "knex";
import type { Caller } from "../kit/auth.js";
import { invalid } from "../kit/errors.js";
import {
  IDEMPOTENCY_KEY_MAX_LENGTH,
  requestKey,
  runOnce,
  scopeOf,
  type Answer,
  type IdempotencyContext,
  type RequestKey,
} from "../kit/idempotency.js";
import type { UnitOfWork } from "../kit/unit-of-work.js";

export const IDEMPOTENCY_HEADER = "idempotency-key";
export const REPLAYED_HEADER = "Idempotent-Replayed";

const WRITES = new Set(["post", "patch", "delete"]);

/** The key of this request, or null when it has none (or the operation is not a write, or there is no caller to scope it to). */
export function keyOf(req: FastifyRequest, operationId: string, caller: Caller, params: Record<string, unknown>): RequestKey | null {
  const given = req.headers[IDEMPOTENCY_HEADER];
  const raw = Array.isArray(given) ? given.join(", ") : given;
  if (raw === undefined || !WRITES.has(req.method.toLowerCase())) return null;
  // The contract declares the header (1 to 255 characters); checked here too for anything that does not.
  if (raw.length === 0 || raw.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    throw invalid(
      ["header", IDEMPOTENCY_HEADER],
      `String should have between 1 and ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`,
      "string_too_long",
      raw.length,
    );
  }
  const scope = scopeOf(caller, params, req.body);
  if (!scope) return null;
  const at = req.url.indexOf("?");
  const [path, query] = at < 0 ? [req.url, ""] : [req.url.slice(0, at), req.url.slice(at + 1)];
  return requestKey(scope, raw, operationId, { method: req.method, path, query, body: req.body });
}

/** Runs the handler once per key (server/kit/idempotency.ts's runOnce), a replay marked as such. */
export function runIdempotent(
  knex: Knex,
  key: RequestKey | null,
  res: FastifyReply,
  run: (uow: UnitOfWork, idem: IdempotencyContext) => Promise<Answer>,
): Promise<Answer> {
  return runOnce(knex, key, run, () => res.header(REPLAYED_HEADER, "true"));
}
