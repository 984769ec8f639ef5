// Idempotency key queries (table idempotency_keys): the live row of a key, the stored answer
// (an upsert), clean-up, and the transaction-scoped advisory lock that serialises one key's
// requests. kit/idempotency.ts owns the rules: fingerprints, sealing answers, replay verdicts.
import type { Knex } from "knex";

export interface StoredKey {
  fingerprint: string;
  status: number | null;
  answer: Buffer | null;
  subject: string | null;
}

export interface KeyRow extends StoredKey {
  scope: string;
  key_hash: string;
  operation: string;
  expires_at: Date;
}

/** The live (not expired) row of a key, locked when asked. */
export async function findLiveKey(
  db: Knex,
  scope: string,
  keyHash: string,
  opts: { forUpdate?: boolean } = {},
): Promise<StoredKey | undefined> {
  const q = db("idempotency_keys").where({ scope, key_hash: keyHash }).where("expires_at", ">", db.fn.now());
  if (opts.forUpdate) q.forUpdate();
  return q.first("fingerprint", "status", "answer", "subject");
}

/** Stores the row; an expired row of the same key is replaced, a live one (the request's own running row) updated. */
export async function upsertKey(db: Knex, row: KeyRow): Promise<void> {
  await db.raw(
    `insert into idempotency_keys (scope, key_hash, fingerprint, operation, status, answer, subject, expires_at)
     values (?, ?, ?, ?, ?, ?, ?, ?)
     on conflict (scope, key_hash) do update set
       fingerprint = excluded.fingerprint, operation = excluded.operation, status = excluded.status,
       answer = excluded.answer, subject = coalesce(excluded.subject, idempotency_keys.subject),
       created_at = case when idempotency_keys.status is null and excluded.status is not null then idempotency_keys.created_at else now() end,
       expires_at = excluded.expires_at`,
    [row.scope, row.key_hash, row.fingerprint, row.operation, row.status, row.answer, row.subject, row.expires_at],
  );
}

/** Frees the keys of requests under way on `subject` that ended without an answer (recovered elsewhere). */
export async function releaseRunning(db: Knex, subject: string): Promise<void> {
  await db("idempotency_keys").where({ subject }).whereNull("status").delete();
}

/** Deletes expired rows, a batch at a time; answers how many. */
export async function deleteExpiredKeys(db: Knex, batch = 1000): Promise<number> {
  const { rowCount } = await db.raw(
    `delete from idempotency_keys where ctid in (select ctid from idempotency_keys where expires_at <= now() limit ?)`,
    [batch],
  );
  return rowCount ?? 0;
}

/** Takes a key's advisory lock for the rest of `trx`; false when another transaction holds it. */
export async function tryKeyLock(trx: Knex.Transaction, lockId: string): Promise<boolean> {
  const { rows } = await trx.raw("select pg_try_advisory_xact_lock(?::bigint) as locked", [lockId]);
  return rows[0].locked === true;
}

/** Waits for a key's advisory lock for the rest of `trx`. */
export async function keyLock(trx: Knex.Transaction, lockId: string): Promise<void> {
  await trx.raw("select pg_advisory_xact_lock(?::bigint)", [lockId]);
}
