// Folding events into the per-customer rollups: usage reads the same before and after a fold, a
// transaction still writing when a fold runs is folded later (never skipped, never twice), and
// folds racing ingestion and each other leave the rollups equal to the events; a transaction open
// in another database on the same server does not hold the fold back.
import pg from "pg";
import { describe, expect, it } from "vitest";
import { storeEvents, type NewEvent } from "../../server/events/store.js";
import { foldUsage } from "../../server/meters/fold.js";
import type { MeterRow } from "../../server/meters/models.js";
import { computeUsage } from "../../server/meters/usage.js";
import { createCustomer, createMeter, orgWithToken, useTestApi } from "../harness/index.js";

const api = useTestApi();
const HOUR = 3_600_000;

async function world() {
  const { org } = await orgWithToken(api.knex);
  const customers = [await createCustomer(api.knex, org.id, { external_id: `a-${org.id}` }), await createCustomer(api.knex, org.id)];
  const meters = [
    await createMeter(api.knex, org.id, { name: "Calls" }),
    await createMeter(api.knex, org.id, { name: "Tokens", aggregation: JSON.stringify({ func: "sum", property: "tokens" }) }),
    await createMeter(api.knex, org.id, { name: "Peak", aggregation: JSON.stringify({ func: "max", property: "tokens" }) }),
  ];
  const rows = (await api
    .knex("meters")
    .whereIn(
      "id",
      meters.map((m) => m.id),
    )
    .orderBy("name")) as MeterRow[];
  return { org, customers, meters: rows };
}

const calls = (customerId: string, start: number, n: number, spacingMs: number): NewEvent[] =>
  Array.from({ length: n }, (_, i) => ({
    timestamp: new Date(start + i * spacingMs),
    name: "api_call",
    source: "user" as const,
    customerId,
    externalCustomerId: null,
    metadata: { tokens: (i * 7) % 13 },
  }));

/** Per-customer rollups summed vs the events counted directly, for every customer and meter. */
async function rollupsMatchEvents(orgId: string, meters: MeterRow[]) {
  for (const meter of meters) {
    const fromRollups: { customer_key: string; n: number }[] = (
      await api.knex.raw(
        "select customer_key, sum(events)::int as n from meter_rollups where meter_id = ? and customer_key <> '' group by 1",
        [meter.id],
      )
    ).rows;
    const fromEvents: { customer_id: string; n: number }[] = (
      await api.knex.raw("select customer_id, count(*)::int as n from events where organization_id = ? and name = 'api_call' group by 1", [
        orgId,
      ])
    ).rows;
    expect(Object.fromEntries(fromRollups.map((r) => [r.customer_key, r.n]))).toEqual(
      Object.fromEntries(fromEvents.map((r) => [r.customer_id, r.n])),
    );
  }
}

describe("usage fold", () => {
  it("reads the same usage before and after folding", async () => {
    const w = await world();
    const start = Date.parse("2025-05-01T10:17:00Z");
    await api.knex.transaction((trx) =>
      storeEvents(trx, w.org.id, [
        ...calls(w.customers[0].id, start, 300, 47_000),
        ...calls(w.customers[1].id, start + 5 * HOUR, 50, 600_000),
      ]),
    );
    const requests = w.customers.flatMap((customer) =>
      w.meters.flatMap((meter) => [
        { meter, customer, from: null, until: null },
        { meter, customer, from: new Date(start + 90 * 60_000), until: new Date(start + 3 * HOUR + 5 * 60_000) },
        { meter, customer, from: new Date(start + 10 * 60_000), until: new Date(start + 20 * 60_000) },
      ]),
    );
    const before = await computeUsage(api.knex, requests);
    expect(await foldUsage(api.knex)).toBeGreaterThanOrEqual(350);
    const after = await computeUsage(api.knex, requests);
    expect(after).toEqual(before);
    // Spot checks against the events themselves.
    expect(before[0].consumed).toBe(300);
    const inWindow = calls(w.customers[0].id, start, 300, 47_000).filter(
      (e) => e.timestamp.getTime() >= start + 90 * 60_000 && e.timestamp.getTime() < start + 3 * HOUR + 5 * 60_000,
    );
    expect(before[1].consumed).toBe(inWindow.length);
    const tokens = w.meters.findIndex((m) => m.name === "Tokens");
    expect(before[tokens * 3 + 1].consumed).toBe(inWindow.reduce((n, e) => n + Number(e.metadata.tokens), 0));
    await rollupsMatchEvents(w.org.id, w.meters);
  });

  it("folds a transaction still writing later, never skipping it nor counting it twice", async () => {
    const w = await world();
    const other = await world();
    const start = Date.parse("2025-05-02T00:00:00Z");
    const open = await api.knex.transaction();
    try {
      await storeEvents(open, w.org.id, calls(w.customers[0].id, start, 20, 60_000));
      // Another organization's batch commits meanwhile; a fold now may not pass the open one.
      await api.knex.transaction((trx) => storeEvents(trx, other.org.id, calls(other.customers[1].id, start, 10, 60_000)));
      await foldUsage(api.knex);
      const early = await api
        .knex("meter_rollups")
        .whereIn(
          "meter_id",
          other.meters.map((m) => m.id),
        )
        .whereNot({ customer_key: "" });
      expect(early).toEqual([]);
      await open.commit();
    } catch (err) {
      await open.rollback();
      throw err;
    }
    await foldUsage(api.knex);
    await foldUsage(api.knex);
    await rollupsMatchEvents(w.org.id, w.meters);
    await rollupsMatchEvents(other.org.id, other.meters);
    const [usage] = await computeUsage(api.knex, [{ meter: w.meters[0], customer: w.customers[0], from: null, until: null }]);
    expect(usage.consumed).toBe(20);
  });

  it("keeps the rollups equal to the events while ingestion and folds race", async () => {
    const w = await world();
    const start = Date.parse("2025-05-03T00:00:00Z");
    const writers = Array.from({ length: 6 }, (_, b) =>
      api.knex.transaction((trx) => storeEvents(trx, w.org.id, calls(w.customers[b % 2].id, start + b * 1000, 200, 13_000))),
    );
    const folders = Array.from({ length: 4 }, () => foldUsage(api.knex, { chunk: 150 }));
    await Promise.all([...writers, ...folders]);
    await foldUsage(api.knex, { chunk: 150 });
    await rollupsMatchEvents(w.org.id, w.meters);
    const [a, b] = await computeUsage(
      api.knex,
      w.customers.map((customer) => ({ meter: w.meters[0], customer, from: null, until: null })),
    );
    expect([a.consumed, b.consumed]).toEqual([600, 600]);
  });

  it("is not held back by a transaction open in another database, only by its own", async () => {
    const w = await world();
    const other = await world();
    const start = Date.parse("2025-05-04T00:00:00Z");
    const otherDb = pg.escapeIdentifier(`${(await api.knex.raw("select current_database() as d")).rows[0].d}_fold_other`);
    await api.knex.raw(`drop database if exists ${otherDb}`);
    await api.knex.raw(`create database ${otherDb}`);
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${otherDb.slice(1, -1)}`;
    const elsewhere = new pg.Client({ connectionString: url.toString() });
    await elsewhere.connect();
    try {
      // Older than every event below, and holding a transaction id until the end.
      await elsewhere.query("begin");
      await elsewhere.query("select pg_current_xact_id()");
      const open = await api.knex.transaction();
      try {
        await storeEvents(open, w.org.id, calls(w.customers[0].id, start, 5, 60_000));
        await api.knex.transaction((trx) => storeEvents(trx, other.org.id, calls(other.customers[1].id, start, 7, 60_000)));
        // The open transaction of this database holds the fold back: the later batch waits too.
        await foldUsage(api.knex);
        const keys = [w.customers[0].id, other.customers[1].id];
        expect(await api.knex("meter_rollups").whereIn("customer_key", keys)).toEqual([]);
        await open.commit();
      } catch (err) {
        await open.rollback();
        throw err;
      }
      expect(await foldUsage(api.knex)).toBeGreaterThanOrEqual(12);
      await rollupsMatchEvents(w.org.id, w.meters);
      await rollupsMatchEvents(other.org.id, other.meters);
    } finally {
      await elsewhere.query("rollback");
      await elsewhere.end();
      await api.knex.raw(`drop database ${otherDb} with (force)`);
    }
  });
});
