// Idempotency keys with Stripe's semantics (docs/RELIABILITY.md, "Idempotent writes"): most writes run
// in one transaction holding the key's lock, the operations that commit in steps keep a journal; a
// retry gets the stored answer (sealed with AES-256-GCM under the caller's key, never stored). A key
// used for another request is a 422; 409s, 422s and 500s store nothing. A request's key, its storage
// and its run; the pipeline (server/http/pipeline.ts) runs each operation here. Queries: ./idempotency-repository.ts.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import type { Knex } from "knex";
import type { Caller } from "./auth.js";
import { ping } from "./db.js";
import { ApiError, invalid, RequestValidationError } from "./errors.js";
import { findLiveKey, keyLock, tryKeyLock, upsertKey, type StoredKey } from "./idempotency-repository.js";
import { logger } from "./logger.js";
import { UnitOfWork } from "./unit-of-work.js";

/** How long an answer is kept (and replayed). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
export const IDEMPOTENCY_HEADER = "idempotency-key";
/** Set on an answer given again from the store. */
export const REPLAYED_HEADER = "Idempotent-Replayed";

/** 409: the first request with this key is still running; nothing was done for this one. */
export class IdempotencyKeyInUse extends ApiError {
  constructor() {
    super(409, "IdempotencyKeyInUse", "A request with this Idempotency-Key is still being processed; retry once it has finished.");
  }
}

/** 422: the key was first used for another request (method, path or body); nothing was done. */
function idempotencyKeyReused(): RequestValidationError {
  return invalid(
    ["header", "idempotency-key"],
    "This Idempotency-Key was already used for a different request (method, path or body); use a new key for a new request.",
    "idempotency_key_reused",
  );
}

/** A stored answer given again: its status and body as first answered. */
class ReplayedAnswer extends ApiError {
  constructor(
    status: number,
    private readonly stored: unknown,
  ) {
    super(status, "ReplayedAnswer", "replayed");
  }
  override body(): unknown {
    return this.stored;
  }
}

/** What a handler gets of its request's key (Ctx.idempotency). */
export interface IdempotencyContext {
  /** A stable id of (caller, key) for the idempotency keys we give others (the payment processor); null without a key. */
  requestKey: string | null;
  /** For operations that commit in steps: where they record their answer; null otherwise. */
  journal: AnswerJournal | null;
}

/** One request's key, as the storage needs it. */
export interface RequestKey {
  scope: string;
  /** SHA-256 (hex) of the caller's key. */
  keyHash: string;
  /** SHA-256 (hex) of the request: method, path, query and body. */
  fingerprint: string;
  operation: string;
  /** For pg_advisory_xact_lock: the first 8 bytes of SHA-256(scope, key), as a signed bigint string. */
  lockId: string;
  /** AES-256 key of the answer's body. */
  secret: Buffer;
}

const sha256 = (...parts: string[]) => createHash("sha256").update(parts.join("\0")).digest();

export function requestKey(
  scope: string,
  key: string,
  operation: string,
  request: { method: string; path: string; query: string; body: unknown },
): RequestKey {
  return {
    scope,
    keyHash: sha256(key).toString("hex"),
    fingerprint: sha256(request.method.toUpperCase(), request.path, request.query, JSON.stringify(request.body ?? null)).toString("hex"),
    operation,
    lockId: sha256("lock", scope, key).readBigInt64BE(0).toString(),
    secret: sha256("answer", scope, key),
  };
}

/** A stable id of the request for idempotency keys of our own (the payment processor's). */
function requestKeyId(key: RequestKey): string {
  return createHash("sha256").update(`${key.scope}\0${key.keyHash}`).digest("hex").slice(0, 32);
}

function seal(secret: Buffer, body: unknown): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", secret, iv);
  const sealed = Buffer.concat([cipher.update(JSON.stringify(body ?? null), "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]);
}

function open(secret: Buffer, answer: Buffer): unknown {
  const decipher = createDecipheriv("aes-256-gcm", secret, answer.subarray(0, 12));
  decipher.setAuthTag(answer.subarray(12, 28));
  return JSON.parse(Buffer.concat([decipher.update(answer.subarray(28)), decipher.final()]).toString("utf8"));
}

/** The live (not expired) row of a key, locked when asked. */
function findKey(db: Knex, key: RequestKey, opts: { forUpdate?: boolean } = {}): Promise<StoredKey | undefined> {
  return findLiveKey(db, key.scope, key.keyHash, opts);
}

/**
 * What a key already stored means for this request: nothing (run it), the answer to replay, or
 * a refusal (409 while the first runs, 422 when the key was used for another request).
 */
function verdict(key: RequestKey, row: StoredKey | undefined): ReplayedAnswer | null {
  if (!row) return null;
  if (row.fingerprint !== key.fingerprint) throw idempotencyKeyReused();
  if (row.status === null || row.answer === null) throw new IdempotencyKeyInUse();
  return new ReplayedAnswer(row.status, open(key.secret, row.answer));
}

/** Takes the key's lock for the rest of `trx`; false when another transaction holds it. */
async function tryLock(trx: Knex.Transaction, key: RequestKey): Promise<boolean> {
  return tryKeyLock(trx, key.lockId);
}

/** Waits for the key's lock for the rest of `trx`. */
export async function lock(trx: Knex.Transaction, key: RequestKey): Promise<void> {
  await keyLock(trx, key.lockId);
}

/** Stores the answer (or, with status null, marks the key taken by a request under way on `subject`). */
async function storeAnswer(db: Knex, key: RequestKey, status: number | null, body: unknown, subject: string | null = null): Promise<void> {
  const answer = status === null ? null : seal(key.secret, body);
  await upsertKey(db, {
    scope: key.scope,
    key_hash: key.keyHash,
    fingerprint: key.fingerprint,
    operation: key.operation,
    status,
    answer,
    subject,
    expires_at: new Date(Date.now() + IDEMPOTENCY_TTL_MS),
  });
}

/**
 * The part an operation that commits in steps (checkout confirm) plays itself, in its own
 * transactions: `begin` in the transaction of its first write (waits for the key's lock, refuses
 * when the key is already taken), `hold` there once that write is certain (the key is taken until
 * settled), `settle` in the transaction of the write that decides the answer.
 */
export interface AnswerJournal {
  begin(trx: Knex.Transaction): Promise<void>;
  hold(trx: Knex.Transaction, subject: string): Promise<void>;
  settle(trx: Knex.Transaction, status: number, body: unknown): Promise<void>;
  /** Whether this request has taken the key (hold) or answered (settle). */
  readonly state: "free" | "held" | "settled";
}

function answerJournal(key: RequestKey): AnswerJournal {
  let state: AnswerJournal["state"] = "free";
  return {
    get state() {
      return state;
    },
    async begin(trx) {
      await lock(trx, key);
      const row = await findKey(trx, key);
      if (!row) return;
      if (row.fingerprint !== key.fingerprint) throw idempotencyKeyReused();
      // Taken or answered since this request looked (it looks before it runs): a race it lost.
      throw new IdempotencyKeyInUse();
    },
    async hold(trx, subject) {
      await storeAnswer(trx, key, null, null, subject);
      state = "held";
    },
    async settle(trx, status, body) {
      await storeAnswer(trx, key, status, body);
      state = "settled";
    },
  };
}

/** Operations whose service commits in steps and writes its record itself (an AnswerJournal). */
const COMMITS_IN_STEPS = new Set(["checkouts:client_confirm", "checkouts:create", "checkouts:update", "checkouts:client_update"]);

export interface Answer {
  status: number;
  body: unknown;
}

const hash = (value: string) => sha256(value).toString("hex");

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

const WRITES = new Set(["post", "patch", "delete"]);

/** A request's key, or null when it has none (or the operation is not a write, or there is no caller to scope it to). */
export function keyOfRequest(
  request: { method: string; url: string; headers: IncomingHttpHeaders; body: unknown },
  operationId: string,
  caller: Caller,
  params: Record<string, unknown>,
): RequestKey | null {
  const given = request.headers[IDEMPOTENCY_HEADER];
  const raw = Array.isArray(given) ? given.join(", ") : given;
  if (raw === undefined || !WRITES.has(request.method.toLowerCase())) return null;
  // The contract declares the header (1 to 255 characters); checked here too for anything that does not.
  if (raw.length === 0 || raw.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    throw invalid(
      ["header", IDEMPOTENCY_HEADER],
      `String should have between 1 and ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`,
      "string_too_long",
      raw.length,
    );
  }
  const scope = scopeOf(caller, params, request.body);
  if (!scope) return null;
  const at = request.url.indexOf("?");
  const [path, query] = at < 0 ? [request.url, ""] : [request.url.slice(0, at), request.url.slice(at + 1)];
  return requestKey(scope, raw, operationId, { method: request.method, path, query, body: request.body });
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

function replay(answer: ReplayedAnswer, replayed: () => void): Answer {
  replayed();
  if (answer.status >= 400) throw answer;
  return { status: answer.status, body: answer.body() };
}

/**
 * Runs an operation once per key: the first time for real, later as a replay of its answer (told
 * to `replayed` first). `run` gets the request's unit of work (over a transaction of this
 * module's when there is a key).
 */
export async function runOnce(
  knex: Knex,
  key: RequestKey | null,
  run: (uow: UnitOfWork, idem: IdempotencyContext) => Promise<Answer>,
  replayed: () => void,
): Promise<Answer> {
  if (!key) return run(new UnitOfWork(knex), { requestKey: null, journal: null });
  if (COMMITS_IN_STEPS.has(key.operation)) return runInSteps(knex, key, run, replayed);

  const trx = await knex.transaction();
  let stored: ReplayedAnswer | null;
  try {
    if (!(await tryLock(trx, key))) throw new IdempotencyKeyInUse();
    stored = verdict(key, await findKey(trx, key));
  } catch (err) {
    await abandon(trx, err);
    throw err;
  }
  if (stored) {
    await abandon(trx, stored);
    return replay(stored, replayed);
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
  run: (uow: UnitOfWork, idem: IdempotencyContext) => Promise<Answer>,
  replayed: () => void,
): Promise<Answer> {
  const stored = verdict(key, await findKey(knex, key));
  if (stored) return replay(stored, replayed);
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
