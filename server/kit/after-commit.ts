// Work that must wait for a commit (starting a Temporal workflow, waking one): it may only run
// once the data it looks at is visible to others. A service's `db.transaction(...)` is a savepoint
// when the service was handed a transaction (an idempotent request runs its whole handler in one,
// docs/RELIABILITY.md): its "commit" is only a release, and the outer transaction may still roll
// back. So the work waits for the transaction it was scheduled in and every one around it.
import type { Knex } from "knex";
import { logger } from "./logger.js";

/** Outermost transaction → the knex it was opened from (set by whoever opens one for a request). */
const origins = new WeakMap<Knex.Transaction, Knex>();

function outermost(trx: Knex.Transaction): Knex.Transaction {
  let t = trx;
  while (t.parentTransaction) t = t.parentTransaction;
  return t;
}

/** Records the knex an outermost transaction was opened from (see `outside`). */
export function openedFrom(trx: Knex.Transaction, knex: Knex): void {
  origins.set(trx, knex);
}

/**
 * The knex to use once `db`'s transactions are over: `db` itself when it is not a transaction,
 * else the knex its outermost transaction was opened from (when recorded; else `db`).
 */
export function outside(db: Knex): Knex {
  if (!db.isTransaction) return db;
  return origins.get(outermost(db as Knex.Transaction)) ?? db;
}

/**
 * Runs `fn` once `trx` and every transaction around it have committed; never when one of them
 * rolls back. `fn`'s failure is logged, never thrown: the change it follows is committed.
 */
export function afterCommit(trx: Knex.Transaction, fn: () => unknown, what = "after-commit work"): void {
  let committed: Promise<unknown> = trx.executionPromise;
  for (let t = trx.parentTransaction; t; t = t.parentTransaction) {
    const around = t;
    committed = committed.then(() => around.executionPromise);
  }
  committed.then(
    async () => {
      try {
        await fn();
      } catch (err) {
        logger.warn({ err }, `${what} failed after commit`);
      }
    },
    () => undefined,
  );
}
