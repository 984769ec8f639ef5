// preparedRows: a named prepared statement on a pooled connection outside a transaction, and on
// the transaction's own connection inside one (it sees the transaction's uncommitted rows; none
// once it has ended), with `$n` references in any order; its errors reach the caller and leave the
// pool usable.
import { describe, expect, it } from "vitest";
import { preparedRows } from "../../server/kit/db.js";
import { createOrganization, useTestApi } from "../harness/index.js";

const api = useTestApi();
const TEXT = "select $2::text as second, $1::int as first, $2::text || '!' as again";

describe("preparedRows", () => {
  it("answers the rows outside a transaction and inside one, with the same text and name", async () => {
    expect(await preparedRows(api.knex, "test_prepared_rows", TEXT, [7, "b"])).toEqual([{ second: "b", first: 7, again: "b!" }]);
    const inside = await api.knex.transaction((trx) => preparedRows(trx, "test_prepared_rows", TEXT, [8, "c"]));
    expect(inside).toEqual([{ second: "c", first: 8, again: "c!" }]);
  });

  it("runs inside the transaction: it reads what the transaction wrote before it commits", async () => {
    const slug = `prepared-${Date.now()}`;
    const count = "select count(*)::int as n from organizations where slug = $1";
    const seen: { inside?: number; outside?: number } = {};
    const undo = new Error("roll back");
    await expect(
      api.knex.transaction(async (trx) => {
        await createOrganization(trx, { name: "Prepared", slug });
        seen.inside = (await preparedRows<{ n: number }>(trx, "test_prepared_rows_org", count, [slug]))[0].n;
        seen.outside = (await preparedRows<{ n: number }>(api.knex, "test_prepared_rows_org", count, [slug]))[0].n;
        throw undo;
      }),
    ).rejects.toBe(undo);
    expect(seen).toEqual({ inside: 1, outside: 0 });
    const ended = await api.knex.transaction(async (trx) => trx);
    await expect(preparedRows(ended, "test_prepared_rows_org", count, [slug])).rejects.toThrow(/already ended/);
    expect(await preparedRows(api.knex, "test_prepared_rows_org", count, [slug])).toEqual([{ n: 0 }]);
  });

  it("rejects with the database's error and keeps the pool working", async () => {
    for (let i = 0; i < 12; i++) {
      await expect(preparedRows(api.knex, "test_prepared_rows_bad", "select 1 / $1::int as x", [0])).rejects.toThrow(/division by zero/);
    }
    expect(await preparedRows(api.knex, "test_prepared_rows_ok", "select $1::int + 1 as x", [1])).toEqual([{ x: 2 }]);
  });
});
