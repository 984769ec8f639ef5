// afterCommit: work scheduled in a service's transaction runs once that transaction and every one
// around it have committed (a service's transaction is a savepoint inside an idempotent request's),
// and never when one of them rolls back; `outside` finds the knex the outermost one came from.
import { describe, expect, it } from "vitest";
import { afterCommit, openedFrom, outside } from "../../server/kit/after-commit.js";
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

  it("logs, never throws, when the work fails; outside() answers the knex a request's transaction came from", async () => {
    await api.knex.transaction(async (trx) => {
      afterCommit(trx, () => {
        throw new Error("Temporal is away");
      });
    });
    await tick();
    const trx = await api.knex.transaction();
    openedFrom(trx, api.knex);
    await trx.transaction(async (inner) => {
      expect(outside(inner)).toBe(api.knex);
    });
    expect(outside(api.knex)).toBe(api.knex);
    await trx.commit();
  });
});
