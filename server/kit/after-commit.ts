// Work that must wait for a commit (starting a Temporal workflow, waking one). A service's
// `db.transaction(...)` is a savepoint inside an idempotent request's transaction
// (docs/RELIABILITY.md), so the work waits for its transaction and every one around it. Work that
// needs the database afterwards goes through the request's UnitOfWork (./unit-of-work.ts).
import { setTimeout as delay } from "node:timers/promises";
import type { Knex } from "knex";
import { logger } from "./logger.js";

/** The work afterCommit has queued and not finished (it never rejects). */
const running = new Set<Promise<unknown>>();

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
  const work = committed.then(
    async () => {
      try {
        await fn();
      } catch (err) {
        logger.warn({ err }, `${what} failed after commit`);
      }
    },
    () => undefined,
  );
  running.add(work);
  void work.then(() => running.delete(work));
}

/**
 * Resolves once the after-commit work queued so far, and any it queues, has run, or after
 * `timeoutMs`: a shutdown closes its Temporal connections only then (a call retrying on a closed
 * connection throws outside any caller).
 */
export async function afterCommitSettled(timeoutMs = 10_000): Promise<void> {
  const timer = new AbortController();
  const expired = delay(timeoutMs, true, { signal: timer.signal }).catch(() => true);
  try {
    while (running.size > 0) if (await Promise.race([Promise.all(running).then(() => false), expired])) return;
  } finally {
    timer.abort();
  }
}
