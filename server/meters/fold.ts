// Folding events into the per-customer rollups (and giving customers the meters their events
// name), behind ingestion: one transaction takes the events of every transaction that has finished
// (ids below the oldest one still running, so none that commits later is skipped) above the last
// fold's mark, in id order and in chunks, adds them per meter, customer and day, and moves the
// mark. Readers add the events above the mark themselves (usage.ts), so a late fold costs reads a
// little, never correctness. The worker runs it every second (workflows/worker.ts); a second folder
// finds the mark's row locked and leaves.
import type { Knex } from "knex";
import type { Sql } from "./filter.js";
import { ofOrganizationById } from "./repository.js";
import { hasRollups, lockUsageShared, matchedCustomersSql, rollupUpsertSql } from "./rollups.js";

export const DEFAULT_FOLD_CHUNK = 50_000;

/** Folds one chunk; the number of events folded, or null when another folder holds the mark. */
async function foldChunk(knex: Knex, chunk: number): Promise<number | null> {
  return knex.transaction(async (trx) => {
    const { rows } = await trx.raw(
      `select folded_below::text as mark, pg_snapshot_xmin(pg_current_snapshot())::text as horizon,
              folded_below >= pg_snapshot_xmin(pg_current_snapshot()) as caught_up
       from usage_fold where id = 1 for update skip locked`,
    );
    const state = rows[0] as { mark: string; horizon: string; caught_up: boolean } | undefined;
    if (!state) return null;
    if (state.caught_up) return 0;
    // The chunk ends after its last event's transaction (all of that transaction's events go in).
    const { rows: bound } = await trx.raw(
      `select count(*)::int as n, (max(ingest_xid)::text::numeric + 1)::text as after_last
       from (select ingest_xid from events where ingest_xid >= ?::xid8 and ingest_xid < ?::xid8 order by ingest_xid limit ?) as head`,
      [state.mark, state.horizon, chunk],
    );
    const head = bound[0] as { n: number; after_last: string | null };
    if (head.n === 0) {
      await trx.raw("update usage_fold set folded_below = ?::xid8 where id = 1", [state.horizon]);
      return 0;
    }
    const upper = head.n < chunk ? state.horizon : head.after_last!;
    const orgs: string[] = (
      await trx.raw("select distinct organization_id from events where ingest_xid >= ?::xid8 and ingest_xid < ?::xid8 order by 1", [state.mark, upper])
    ).rows.map((r: { organization_id: string }) => r.organization_id);
    let folded = 0;
    for (const org of orgs) {
      await lockUsageShared(trx, org);
      const meters = await ofOrganizationById(trx, org);
      const source: Sql = {
        sql: "(select * from events where organization_id = ? and ingest_xid >= ?::xid8 and ingest_xid < ?::xid8)",
        bindings: [org, state.mark, upper],
      };
      for (const meter of meters.filter(hasRollups)) {
        const upsert = rollupUpsertSql(meter, source, "customers");
        await trx.raw(upsert.sql, upsert.bindings);
      }
      if (meters.length) {
        const pairs = meters.map((m) => matchedCustomersSql(m, source));
        await trx.raw(
          `insert into customer_meters (organization_id, customer_id, meter_id)
           select distinct ?::uuid, p.customer_id, p.meter_id from (${pairs.map((p) => p.sql).join(" union all ")}) as p
           join customers on customers.id = p.customer_id
           order by 2, 3 on conflict (customer_id, meter_id) do nothing`,
          [org, ...pairs.flatMap((p) => p.bindings)],
        );
      }
    }
    const { rows: counted } = await trx.raw("select count(*)::int as n from events where ingest_xid >= ?::xid8 and ingest_xid < ?::xid8", [state.mark, upper]);
    folded = (counted[0] as { n: number }).n;
    await trx.raw("update usage_fold set folded_below = ?::xid8 where id = 1", [upper]);
    return folded;
  });
}

/** Folds everything foldable now, chunk by chunk; the number of events folded. */
export async function foldUsage(knex: Knex, opts: { chunk?: number } = {}): Promise<number> {
  const chunk = opts.chunk ?? DEFAULT_FOLD_CHUNK;
  let total = 0;
  for (;;) {
    const n = await foldChunk(knex, chunk);
    if (n === null || n === 0) return total;
    total += n;
    if (n < chunk) return total;
  }
}
