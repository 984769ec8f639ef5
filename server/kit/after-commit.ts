// Work that must wait for a commit (starting a Temporal workflow, waking one): it may only run
// once the data it looks at is visible to others. A service's `db.transaction(...)` is a savepoint
// when the service was handed a transaction (an idempotent request runs its whole handler in one,
// docs/RELIABILITY.md): its "commit" is only a release, and the outer transaction may still roll
// back. So the work waits for the transaction it was scheduled in and every one around it. Work
// that needs the database after the commit goes through the request's UnitOfWork (./unit-of-work.ts).
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
