// afterCommit: work scheduled in a service's transaction runs once that transaction and every one
// around it have committed (a service's transaction is a savepoint inside an idempotent request's),
// and never when one of them rolls back; a unit of work's after-commit work gets the pool.
import { describe, expect, it } from "vitest";
import { afterCommit, afterCommitSettled } from "../../server/kit/after-commit.js";
import { UnitOfWork } from "../../server/kit/unit-of-work.js";
import { useTestApi } from "../harness/index.js";
import { sleep } from "../../server/kit/time.js";

const api = useTestApi();
const tick = () => sleep(20);

describe("afterCommit", () => {
  it("runs after a plain transaction commits, not before, and not after a rollback", async () => {
    const ran: string[] = [];
    await api.knex.transaction(async (trx) => {
      afterCommit(trx, () => ran.push("committed"));
      await tick();
      expect(ran).toEqual([]);
    });
    await tick();
    expect(ran).toEqual(["committed"]);
    await api.knex
      .transaction(async (trx) => {
        afterCommit(trx, () => ran.push("rolled back"));
        throw new Error("undo");
      })
      .catch(() => undefined);
    await tick();
    expect(ran).toEqual(["committed"]);
  });

  it("waits for the outermost transaction when scheduled in a nested one (a savepoint)", async () => {
    const ran: string[] = [];
    const outer = await api.knex.transaction();
    await outer.transaction(async (inner) => afterCommit(inner, () => ran.push("inner")));
    await tick();
    expect(ran).toEqual([]); // the savepoint is released, the transaction is not committed
    await outer.commit();
    await tick();
    expect(ran).toEqual(["inner"]);

    const doomed = await api.knex.transaction();
    await doomed.transaction(async (inner) => afterCommit(inner, () => ran.push("doomed")));
    await doomed.rollback(new Error("undo"));
    await tick();
    expect(ran).toEqual(["inner"]);
  });

  it("logs, never throws, when the work fails", async () => {
    const ran: string[] = [];
    await api.knex.transaction(async (trx) => {
      afterCommit(trx, () => {
        throw new Error("Temporal is away");
      });
      afterCommit(trx, () => ran.push("next"));
    });
    await tick();
    expect(ran).toEqual(["next"]);
  });

  it("settles once the work queued, and the work it queues, has run; a transaction left open only until the time given", async () => {
    const ran: string[] = [];
    await api.knex.transaction(async (trx) => {
      afterCommit(trx, async () => {
        await sleep(150);
        ran.push("slow");
        await api.knex.transaction(async (next) => afterCommit(next, () => sleep(100).then(() => ran.push("queued by it"))));
      });
    });
    await afterCommitSettled();
    expect(ran).toEqual(["slow", "queued by it"]);

    const open = await api.knex.transaction();
    afterCommit(open, () => ran.push("never"));
    const started = Date.now();
    await afterCommitSettled(300);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    await open.rollback(new Error("undo"));
    await afterCommitSettled();
    expect(ran).toEqual(["slow", "queued by it"]);
  });

  it("gives a unit of work's after-commit work the pool, once the unit's transaction commits", async () => {
    const trx = await api.knex.transaction();
    const uow = new UnitOfWork(api.knex, trx);
    expect(uow.db).toBe(trx);
    const got: unknown[] = [];
    await uow.db.transaction(async (inner) => uow.afterCommit(inner, (pool) => got.push(pool)));
    await tick();
    expect(got).toEqual([]);
    await trx.commit();
    await tick();
    expect(got.length).toBe(1);
    expect(got[0]).toBe(api.knex);
    expect(new UnitOfWork(api.knex).db).toBe(api.knex);
  });
});
