// A request's unit of work: the handle its handler reads and writes with, and the work that waits
// for its commit. Every operation gets one of the same kind, key or no key. With an Idempotency-Key
// `db` is the request's transaction and services' own transactions are savepoints in it
// (docs/RELIABILITY.md); without one it is the pool, so a read pays for no BEGIN and COMMIT.
import type { Knex } from "knex";
import { afterCommit } from "./after-commit.js";

export class UnitOfWork {
  constructor(
    /** The connection pool: what work after the commit reads and writes with. */
    private readonly pool: Knex,
    /** What the handler reads and writes with: the pool, or the request's transaction. */
    readonly db: Knex = pool,
  ) {}

  /**
   * Runs `fn` with the pool once `trx` and every transaction around it (the request's included)
   * have committed; never when one of them rolls back. Its failure is logged, never thrown.
   */
  afterCommit(trx: Knex.Transaction, fn: (pool: Knex) => unknown, what?: string): void {
    afterCommit(trx, () => fn(this.pool), what);
  }
}
