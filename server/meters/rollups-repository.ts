// Queries on meter_rollups (a meter's totals per hour and per customer per day) and usage_fold
// (the fold's mark) and the organization's usage lock that guards them. The statements are the
// usage engine's hand-tuned ones (rollups.ts, fold.ts, usage.ts, quantities.ts), unchanged. An
// ingested batch adds to the totals in the statement that inserts it (events-repository.ts), with
// rollupUpsertSql and ADD_ROLLUPS from here.
import type { Knex } from "knex";
import { rowsOf } from "../kit/rows.js";
import { filterSql, numericValueSql, type Sql } from "./filter.js";
import type { MeterRow } from "./models.js";

/** The customer key of an event row (alias `events`): its customer's id, else `ext:<external id>` (`-` for neither). */
export const CUSTOMER_KEY_SQL = "coalesce(events.customer_id::text, 'ext:' || events.external_customer_id)";

const lockKey = (organizationId: string) => `usage:${organizationId}`;

/** Shared usage lock of an organization, until the transaction ends (every event write). */
export async function lockUsageShared(trx: Knex.Transaction, organizationId: string): Promise<void> {
  await trx.raw("select pg_advisory_xact_lock_shared(hashtextextended(?, 0))", [lockKey(organizationId)]);
}

/** Exclusive usage lock (rollup rebuilds, attribution): waits for the event writes in flight. */
export async function lockUsageExclusive(trx: Knex.Transaction, organizationId: string): Promise<void> {
  await trx.raw("select pg_advisory_xact_lock(hashtextextended(?, 0))", [lockKey(organizationId)]);
}

export type RollupLevel = "total" | "customers";

/** The bucket of a rollup level: hours for the totals (any whole-hour time zone adds up), days per customer. */
export const ROLLUP_BUCKET: Record<RollupLevel, "hour" | "day"> = { total: "hour", customers: "day" };

/**
 * `insert into meter_rollups … select … from <source> as events …` adding the matched events of
 * `source` to the meter's rows of one level, in key order so that concurrent writers lock rows in
 * one order.
 */
export function rollupUpsertSql(meter: MeterRow, source: Sql, level: RollupLevel): Sql {
  const filter = filterSql(meter.filter);
  const value = numericValueSql(meter.aggregation);
  const key = level === "total" ? "''" : CUSTOMER_KEY_SQL;
  return {
    sql: `insert into meter_rollups (meter_id, customer_key, bucket, events, n, sum, min, max)
      select ?::uuid, k, h, count(*), count(v), coalesce(sum(v), 0), min(v), max(v)
      from (select date_trunc('${ROLLUP_BUCKET[level]}', events.timestamp, 'UTC') as h, coalesce(${key}, '-') as k, ${value.sql} as v
            from ${source.sql} as events where ${filter.sql}) as matched
      group by k, h
      order by k, h
      on conflict (meter_id, customer_key, bucket) do update set ${ADD_ROLLUPS}`,
    bindings: [meter.id, ...value.bindings, ...source.bindings, ...filter.bindings],
  };
}

export const ADD_ROLLUPS = `events = meter_rollups.events + excluded.events, n = meter_rollups.n + excluded.n, sum = meter_rollups.sum + excluded.sum,
  min = least(meter_rollups.min, excluded.min), max = greatest(meter_rollups.max, excluded.max)`;

/** Adds the matched events of `source` to the meter's rollups of one level (rollupUpsertSql). */
export async function addRollups(trx: Knex.Transaction, meter: MeterRow, source: Sql, level: RollupLevel): Promise<void> {
  const upsert = rollupUpsertSql(meter, source, level);
  await trx.raw(upsert.sql, upsert.bindings);
}

/** Every rollup of the meter removed (before a rebuild). */
export async function deleteMeterRollups(trx: Knex.Transaction, meterId: string): Promise<void> {
  await trx("meter_rollups").where({ meter_id: meterId }).delete();
}

/** The per-customer rollups of these meters kept under `fromKey` added to the customer's own, then removed. */
export async function moveCustomerRollups(trx: Knex.Transaction, meterIds: string[], fromKey: string, customerId: string): Promise<void> {
  await trx.raw(
    `insert into meter_rollups (meter_id, customer_key, bucket, events, n, sum, min, max)
     select meter_id, ?, bucket, events, n, sum, min, max from meter_rollups
     where meter_id = any(?::uuid[]) and customer_key = ? order by meter_id, bucket
     on conflict (meter_id, customer_key, bucket) do update set ${ADD_ROLLUPS}`,
    [customerId, meterIds, fromKey],
  );
  await trx("meter_rollups").whereIn("meter_id", meterIds).where({ customer_key: fromKey }).delete();
}

/** The events of transactions below this id are in the per-customer rollups (as text, for xid8). */
export async function foldedBelow(trx: Knex.Transaction, opts: { lock?: "share" | "update" } = {}): Promise<string> {
  const lock = opts.lock === "update" ? " for update" : opts.lock === "share" ? " for share" : "";
  const [row] = await rowsOf<{ folded_below: string }>(
    trx.raw(`select folded_below::text as folded_below from usage_fold where id = 1${lock}`),
  );
  return row.folded_below;
}

export interface FoldState {
  /** The fold's mark: events of transactions below it are folded. */
  mark: string;
  /** The oldest transaction of this database still running: events below it can be folded. */
  horizon: string;
  caught_up: boolean;
}

/**
 * The fold's horizon: the oldest transaction id running in this statement's snapshot, those seen
 * in another database of the server left out (they never write these events), else the snapshot's
 * xmax. Leaving out others' ids (rather than keeping ours) errs towards holding back: a
 * transaction not found, or hidden from this role, counts. Running ids lie within 2^31 of each
 * other, so a 32-bit backend_xid names one xid8. Kept on transaction ids, as the readers are: a
 * sequence in commit order would need every writer under one lock.
 */
const FOLD_HORIZON_SQL = `select least(pg_snapshot_xmax(s),
    (select min(x) from pg_snapshot_xip(s) as x
     where not exists (select from pg_stat_activity a where a.datname <> current_database() and a.backend_xid = xid(x))
       and not exists (select from pg_prepared_xacts p where p.database <> current_database() and p.transaction = xid(x)))) as horizon
  from pg_current_snapshot() as s`;

/** The fold's mark, locked for this fold; undefined when another folder holds it. */
export async function claimFoldMark(trx: Knex.Transaction): Promise<FoldState | undefined> {
  // pg_stat_activity is read once per transaction: read it after the claim's snapshot.
  await trx.raw("select pg_stat_clear_snapshot()");
  const rows = await rowsOf<FoldState>(
    trx.raw(
      `select folded_below::text as mark, h.horizon::text as horizon, folded_below >= h.horizon as caught_up
       from usage_fold, (${FOLD_HORIZON_SQL}) as h
       where id = 1 for update of usage_fold skip locked`,
    ),
  );
  return rows.at(0);
}

/** Moves the fold's mark (the events of transactions below `xid` are folded). */
export async function setFoldedBelow(trx: Knex.Transaction, xid: string): Promise<void> {
  await trx.raw("update usage_fold set folded_below = ?::xid8 where id = 1", [xid]);
}

/** `select customer_id, meter_id` of the attributed events of `source` the meter matches. */
export function matchedCustomersSql(meter: MeterRow, source: Sql): Sql {
  const filter = filterSql(meter.filter);
  return {
    sql: `select distinct events.customer_id, ?::uuid as meter_id from ${source.sql} as events where events.customer_id is not null and ${filter.sql}`,
    bindings: [meter.id, ...source.bindings, ...filter.bindings],
  };
}

export interface ConsumptionKey {
  i: number;
  customer_id: string;
  external_id: string | null;
  /** The customer's rollup keys: its id, and `ext:<external id>` when it has one. */
  keys: string[];
  /** The range read from the rollups (whole UTC days), and the two edge ranges read from the events. */
  r_from: string;
  r_to: string;
  a_from: string;
  a_to: string;
  b_from: string;
  b_to: string;
}

/**
 * Per key, the parts of the meter's aggregation over the customer's usage (one statement): from
 * its daily rollups in the rollup range (`r_*` columns), and from its events in the edge ranges
 * and those of the rollup range not folded yet (`e_*`, and `uniq` for a unique meter).
 */
export async function consumptionParts(db: Knex, meter: MeterRow, keys: ConsumptionKey[]): Promise<Record<string, number | null>[]> {
  const filter = filterSql(meter.filter);
  const value = numericValueSql(meter.aggregation);
  const property = meter.aggregation.func === "unique" ? meter.aggregation.property : null;
  // The customer's events in the edge ranges, and those of the rollups' range not folded yet: by
  // its id, and by its external id if not attributed.
  const inEdges =
    "((events.timestamp >= k.a_from and events.timestamp < k.a_to) or (events.timestamp >= k.b_from and events.timestamp < k.b_to))";
  // (The not-folded events are found through their transaction id, the few above the fold's mark,
  // never through the window's timestamps: `offset 0` keeps the time range out of the index choice.)
  const notFolded = "events.ingest_xid >= (select folded_below from usage_fold where id = 1)";
  const inRollupRange = "(events.timestamp >= k.r_from and events.timestamp < k.r_to)";
  return rowsOf<Record<string, number | null>>(
    db.raw(
      `select k.i, coalesce(ro.events, 0)::float8 as r_events, coalesce(ro.n, 0)::float8 as r_n, coalesce(ro.sum, 0) as r_sum, ro.min as r_min, ro.max as r_max,
            ed.events::float8 as e_events, ed.n::float8 as e_n, coalesce(ed.sum, 0) as e_sum, ed.min as e_min, ed.max as e_max, ed.uniq::float8 as uniq
     from jsonb_to_recordset(?::jsonb) as k(i int, customer_id uuid, external_id text, keys text[], r_from timestamptz, r_to timestamptz,
       a_from timestamptz, a_to timestamptz, b_from timestamptz, b_to timestamptz)
     left join lateral (
       select sum(r.events) as events, sum(r.n) as n, sum(r.sum) as sum, min(r.min) as min, max(r.max) as max from meter_rollups r
       where r.meter_id = ? and r.customer_key = any(k.keys) and r.bucket >= k.r_from and r.bucket < k.r_to
     ) ro on true
     left join lateral (
       select count(*) as events, count(v) as n, sum(v) as sum, min(v) as min, max(v) as max, count(distinct u) as uniq
       from (
         select ${value.sql} as v, ${property !== null ? "events.metadata -> ?" : "null::jsonb"} as u from (
           select * from events where events.customer_id = k.customer_id and ${inEdges}
           union all
           select * from (select * from events where events.customer_id = k.customer_id and ${notFolded} offset 0) as events where ${inRollupRange}
           union all
           select * from events where events.organization_id = ? and events.customer_id is null and events.external_customer_id = k.external_id
             and (${inEdges} or (${notFolded} and ${inRollupRange}))
         ) as events
         where ${filter.sql}
       ) as matched
     ) ed on true`,
      [
        JSON.stringify(keys),
        meter.id,
        ...value.bindings,
        ...(property !== null ? [property] : []),
        meter.organization_id,
        ...filter.bindings,
      ],
    ),
  );
}

/** The meter's hourly totals in [start, end), as `bucket` and `quantity` columns; grouping is the caller's. */
export function meterTotalsIn(
  db: Knex,
  meterId: string,
  range: { start: Sql; end: Sql },
  bucket: string,
  aggregate: string,
): Knex.QueryBuilder {
  const grouped = db("meter_rollups as r")
    .where("r.meter_id", meterId)
    .whereRaw(`r.bucket >= ${range.start.sql}`, range.start.bindings)
    .whereRaw(`r.bucket < ${range.end.sql}`, range.end.bindings)
    .select(db.raw(`${bucket} as bucket`), db.raw(`${aggregate} as quantity`));
  grouped.where("r.customer_key", "");
  return grouped;
}

/**
 * The quantities of `grouped` (meterTotalsIn or events/meterEventsIn, grouped by bucket and in
 * total) over every bucket of `series` (the total: the row with a null timestamp).
 */
export async function quantitiesOver(
  db: Knex,
  series: Sql,
  grouped: Knex.QueryBuilder,
  unit: string,
  tz: string,
): Promise<{ timestamp: Date | null; quantity: number | null }[]> {
  const rows: { timestamp: Date | null; quantity: number | null }[] = await db
    .with("series", db.raw(series.sql, series.bindings))
    .with("grouped", grouped)
    .from("series")
    .leftJoin("grouped", (j) => j.on(db.raw(`grouped.bucket = date_trunc('${unit}', series.timestamp, ?)`, [tz])))
    .select("series.timestamp", "grouped.quantity")
    .unionAll((u) => u.from("grouped").whereNull("grouped.bucket").select(db.raw("null::timestamptz as timestamp"), "grouped.quantity"));
  return rows;
}
