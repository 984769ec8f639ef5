// Work that must wait for a commit (starting a Temporal workflow, waking one). A service's
// `db.transaction(...)` is a savepoint inside an idempotent request's transaction
// (docs/RELIABILITY.md), so the work waits for its transaction and every one around it. Work that
// needs the database afterwards goes through the request's UnitOfWork (./unit-of-work.ts).
import type { Knex } from "knex";
import { logger } from "./logger.js";

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
