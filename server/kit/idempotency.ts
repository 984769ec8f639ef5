// Idempotency keys: a caller's first answer, stored and replayed for a retry with the same key
// (docs/RELIABILITY.md, "Idempotent writes"). This module seals and replays answers; queries are in
// ./idempotency-repository.ts, and server/http/idempotency.ts decides per request. Answers are
// encrypted with AES-256-GCM under a key derived from the caller's key, which is never stored.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import type { Knex } from "knex";
import { ApiError, invalid, RequestValidationError } from "./errors.js";
import { findLiveKey, keyLock, tryKeyLock, upsertKey, type StoredKey } from "./idempotency-repository.js";

/** How long an answer is kept (and replayed). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** 409: the first request with this key is still running; nothing was done for this one. */
export class IdempotencyKeyInUse extends ApiError {
  constructor() {
    super(409, "IdempotencyKeyInUse", "A request with this Idempotency-Key is still being processed; retry once it has finished.");
  }
}

/** 422: the key was first used for another request (method, path or body); nothing was done. */
export function idempotencyKeyReused(): RequestValidationError {
  return invalid(
    ["header", "idempotency-key"],
    "This Idempotency-Key was already used for a different request (method, path or body); use a new key for a new request.",
    "idempotency_key_reused",
  );
}

/** A stored answer given again: its status and body as first answered. */
export class ReplayedAnswer extends ApiError {
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
export function requestKeyId(key: RequestKey): string {
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
export function findKey(db: Knex, key: RequestKey, opts: { forUpdate?: boolean } = {}): Promise<StoredKey | undefined> {
  return findLiveKey(db, key.scope, key.keyHash, opts);
}

/**
 * What a key already stored means for this request: nothing (run it), the answer to replay, or
 * a refusal (409 while the first runs, 422 when the key was used for another request).
 */
export function verdict(key: RequestKey, row: StoredKey | undefined): ReplayedAnswer | null {
  if (!row) return null;
  if (row.fingerprint !== key.fingerprint) throw idempotencyKeyReused();
  if (row.status === null || row.answer === null) throw new IdempotencyKeyInUse();
  return new ReplayedAnswer(row.status, open(key.secret, row.answer));
}

/** Takes the key's lock for the rest of `trx`; false when another transaction holds it. */
export async function tryLock(trx: Knex.Transaction, key: RequestKey): Promise<boolean> {
  return tryKeyLock(trx, key.lockId);
}

/** Waits for the key's lock for the rest of `trx`. */
export async function lock(trx: Knex.Transaction, key: RequestKey): Promise<void> {
  await keyLock(trx, key.lockId);
}

/** Stores the answer (or, with status null, marks the key taken by a request under way on `subject`). */
export async function storeAnswer(
  db: Knex,
  key: RequestKey,
  status: number | null,
  body: unknown,
  subject: string | null = null,
): Promise<void> {
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

export function answerJournal(key: RequestKey): AnswerJournal {
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
