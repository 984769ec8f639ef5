// Idempotency-Key on every POST, PATCH and DELETE under /v1, with Stripe's semantics (design and
// crash windows: docs/RELIABILITY.md). Most operations run inside one transaction holding the
// key's advisory lock, so the write and its record commit together; those that commit in steps
// (confirm, checkout create/update) keep a journal instead. A same-key replay answers the stored
// answer; another request with the key is a 422; 409s, 422s and 500s store nothing.
import { createHash } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Knex } from "knex";
import type { Caller } from "../kit/auth.js";
import { ping } from "../kit/db.js";
import { ApiError, invalid, RequestValidationError } from "../kit/errors.js";
import {
  answerJournal,
  findKey,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IdempotencyKeyInUse,
  lock,
  ReplayedAnswer,
  requestKey,
  requestKeyId,
  storeAnswer,
  tryLock,
  verdict,
  type AnswerJournal,
  type IdempotencyContext,
  type RequestKey,
} from "../kit/idempotency.js";
import { logger } from "../kit/logger.js";
import { UnitOfWork } from "../kit/unit-of-work.js";

export const IDEMPOTENCY_HEADER = "idempotency-key";
export const REPLAYED_HEADER = "Idempotent-Replayed";

const WRITES = new Set(["post", "patch", "delete"]);

/** Operations whose service commits in steps and writes its record itself (an AnswerJournal). */
const COMMITS_IN_STEPS = new Set(["checkouts:client_confirm", "checkouts:create", "checkouts:update", "checkouts:client_update"]);

export interface Answer {
  status: number;
  body: unknown;
}

const hash = (value: string) => createHash("sha256").update(value).digest("hex");

/**
 * Whose keys these are: the organization or customer calling; for the calls without a
 * credential, what the caller proves to hold (a checkout's client secret, a license key).
 * Null: the call has no caller to scope a key to, and runs without one.
 */
export function scopeOf(caller: Caller, params: Record<string, unknown>, body: unknown): string | null {
  switch (caller.kind) {
    case "organization":
      return `organization:${caller.organizationId}`;
    case "customer":
      return `customer:${caller.customerId}`;
    case "user":
      return `user:${caller.userId}`;
    case "anonymous": {
      if (typeof params.client_secret === "string") return `checkout:${hash(params.client_secret)}`;
      const b = body as { key?: unknown; organization_id?: unknown } | null;
      if (b && typeof b.key === "string" && typeof b.organization_id === "string")
        return `license_key:${hash(`${b.organization_id}\0${b.key}`)}`;
      return null;
    }
  }
}

/** An answer worth replaying: the operation ran and refused (a typed 4xx), not a validation failure, conflict or crash. */
function storable(err: unknown): err is ApiError {
  return (
    err instanceof ApiError &&
    err.status < 500 &&
    err.status !== 409 &&
    !(err instanceof RequestValidationError) &&
    !(err instanceof ReplayedAnswer)
  );
}

/** Whether the transaction can still commit (no statement in it failed outside a savepoint). */
async function healthy(trx: Knex.Transaction): Promise<boolean> {
  try {
    await ping(trx);
    return true;
  } catch {
    return false;
  }
}

/**
 * Rolls back with a reason: a transaction rolled back without one counts as settled for knex
 * (doNotRejectOnRollback), and work waiting for its commit (afterCommit) would run.
 */
function abandon(trx: Knex.Transaction, reason: unknown): Promise<unknown> {
  return trx.rollback(reason instanceof Error ? reason : new Error("idempotent request rolled back")).catch(() => undefined);
}

function replay(res: FastifyReply, answer: ReplayedAnswer): Answer {
  res.header(REPLAYED_HEADER, "true");
  if (answer.status >= 400) throw answer;
  return { status: answer.status, body: answer.body() };
}

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

/**
 * Runs the handler once per key: the first time for real, later as a replay of its answer.
 * `run` gets the request's unit of work (over a transaction of this module's when there is a key).
 */
export async function runIdempotent(
  knex: Knex,
  key: RequestKey | null,
  res: FastifyReply,
  run: (uow: UnitOfWork, idem: IdempotencyContext) => Promise<Answer>,
): Promise<Answer> {
  if (!key) return run(new UnitOfWork(knex), { requestKey: null, journal: null });
  if (COMMITS_IN_STEPS.has(key.operation)) return runInSteps(knex, key, res, run);

  const trx = await knex.transaction();
  let replayed: ReplayedAnswer | null;
  try {
    if (!(await tryLock(trx, key))) throw new IdempotencyKeyInUse();
    replayed = verdict(key, await findKey(trx, key));
  } catch (err) {
    await abandon(trx, err);
    throw err;
  }
  if (replayed) {
    await abandon(trx, replayed);
    return replay(res, replayed);
  }
  let answer: Answer;
  try {
    answer = await run(new UnitOfWork(knex, trx), { requestKey: requestKeyId(key), journal: null });
  } catch (err) {
    // What the handler's own (nested) transactions released stays, as it would without a key;
    // a typed refusal is the answer to replay.
    try {
      if (!(await healthy(trx))) throw err;
      if (storable(err)) await storeAnswer(trx, key, err.status, err.body());
      await trx.commit();
    } catch {
      await abandon(trx, err);
    }
    throw err;
  }
  try {
    await storeAnswer(trx, key, answer.status, answer.status === 204 ? null : answer.body);
    await trx.commit();
  } catch (err) {
    await abandon(trx, err);
    throw err;
  }
  return answer;
}

async function runInSteps(
  knex: Knex,
  key: RequestKey,
  res: FastifyReply,
  run: (uow: UnitOfWork, idem: IdempotencyContext) => Promise<Answer>,
): Promise<Answer> {
  const replayed = verdict(key, await findKey(knex, key));
  if (replayed) return replay(res, replayed);
  const journal = answerJournal(key);
  let answer: Answer;
  try {
    answer = await run(new UnitOfWork(knex), { requestKey: requestKeyId(key), journal });
  } catch (err) {
    if (storable(err) && journal.state !== "settled") await settleAlone(knex, key, journal, err.status, err.body());
    throw err;
  }
  if (journal.state !== "settled") await settleAlone(knex, key, journal, answer.status, answer.status === 204 ? null : answer.body);
  return answer;
}

/**
 * The answer of a stepwise operation that ended without writing it in a transaction of its own
 * (it refused before its first write, or after it in a way that wrote nothing more).
 */
async function settleAlone(knex: Knex, key: RequestKey, journal: AnswerJournal, status: number, body: unknown): Promise<void> {
  try {
    await knex.transaction(async (trx) => {
      await lock(trx, key);
      const row = await findKey(trx, key, { forUpdate: true });
      // Ours to answer: the row this request holds, or no row when it never took the key.
      if (row ? row.status === null && journal.state === "held" : journal.state === "free") await journal.settle(trx, status, body);
    });
  } catch (err) {
    logger.error({ err, operation: key.operation }, "could not store an idempotent answer");
  }
}
