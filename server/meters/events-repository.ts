// Every statement on the events table and its name statistics (event_names): the usage ledger,
// owned by the meters. The events API (server/events/) stands above the meters
// (.dependency-cruiser.cjs, meters-below-events) and reads and writes events through this module;
// the usage engine's statements on events live here too.
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Knex } from "knex";
import { numberOf, rowsOf } from "../kit/rows.js";
import { from as copyFrom } from "pg-copy-streams";
import { customersLike, externalIdsOf, idsWithExternalIds, namedByEvents, type CustomerRow } from "../customers/repository.js";
import { isUuid } from "../kit/ids.js";
import type { Sql } from "./filter.js";
import type { MeterRow } from "./models.js";
import { ADD_ROLLUPS, rollupUpsertSql } from "./rollups-repository.js";

export interface EventRow {
  id: string;
  created_at: Date;
  ingested_at: Date;
  timestamp: Date;
  organization_id: string;
  customer_id: string | null;
  external_customer_id: string | null;
  external_id: string | null;
  name: string;
  source: "user" | "system";
  metadata: Record<string, string | number | boolean>;
}

export interface EventNameRow {
  name: string;
  source: "user" | "system";
  occurrences: number;
  first_seen: Date;
  last_seen: Date;
}

/** The organization's events (a source for rollupUpsertSql and matchedCustomersSql). */
export const organizationEvents = (organizationId: string): Sql => ({
  sql: "(select * from events where organization_id = ?)",
  bindings: [organizationId],
});

/** The organization's events of transactions below `xid` (those folded already). */
export const organizationEventsBelow = (organizationId: string, xid: string): Sql => ({
  sql: "(select * from events where organization_id = ? and ingest_xid < ?::xid8)",
  bindings: [organizationId, xid],
});

/** The organization's events of transactions from `from` to before `to` (a fold's chunk). */
export const organizationEventsIn = (organizationId: string, from: string, to: string): Sql => ({
  sql: "(select * from events where organization_id = ? and ingest_xid >= ?::xid8 and ingest_xid < ?::xid8)",
  bindings: [organizationId, from, to],
});

/** The customer's events (by its id). */
export const customerEvents = (customerId: string): Sql => ({
  sql: "(select * from events where customer_id = ?)",
  bindings: [customerId],
});

/**
 * The head of the events from `mark` to before `horizon` (transaction ids), at most `chunk` of
 * them: how many, and the transaction id just after the last one's (all of its events go in).
 */
export async function foldChunkBound(
  trx: Knex.Transaction,
  mark: string,
  horizon: string,
  chunk: number,
): Promise<{ n: number; after_last: string | null }> {
  const [bound] = await rowsOf<{ n: number; after_last: string | null }>(
    trx.raw(
      `select count(*)::int as n, (max(ingest_xid)::text::numeric + 1)::text as after_last
       from (select ingest_xid from events where ingest_xid >= ?::xid8 and ingest_xid < ?::xid8 order by ingest_xid limit ?) as head`,
      [mark, horizon, chunk],
    ),
  );
  return bound;
}

/** The organizations with events of transactions from `from` to before `to`, in id order. */
export async function organizationsWithEventsIn(trx: Knex.Transaction, from: string, to: string): Promise<string[]> {
  const rows = await rowsOf<{ organization_id: string }>(
    trx.raw("select distinct organization_id from events where ingest_xid >= ?::xid8 and ingest_xid < ?::xid8 order by 1", [from, to]),
  );
  return rows.map((r) => r.organization_id);
}

/** The number of events of transactions from `from` to before `to`. */
export async function countEventsIn(trx: Knex.Transaction, from: string, to: string): Promise<number> {
  return numberOf(trx.raw("select count(*)::int as v from events where ingest_xid >= ?::xid8 and ingest_xid < ?::xid8", [from, to]));
}

/**
 * The events known only by `externalId` become the customer's (its id filled in): how many did,
 * and when the earliest user event among them happened.
 */
export async function attributeEvents(
  trx: Knex.Transaction,
  customer: { id: string; organization_id: string },
  externalId: string,
): Promise<{ attributed: number; firstUserEvent: Date | null }> {
  const [row] = await rowsOf<{ attributed: number; first: Date | null }>(
    trx.raw(
      `with a as (
       update events set customer_id = ? where organization_id = ? and external_customer_id = ? and customer_id is null
       returning timestamp, source
     )
     select count(*)::int as attributed, min(timestamp) filter (where source = 'user') as first from a`,
      [customer.id, customer.organization_id, externalId],
    ),
  );
  return { attributed: row.attributed, firstUserEvent: row.first };
}

export interface CreditKey {
  i: number;
  customer_id: string;
  meter_id: string;
  until: string | null;
}

/**
 * Per key: the customer's last meter.reset of the meter (at or before `until`), and the units
 * meter.credited since (before `until`), of which those given with rollover.
 */
export async function resetsAndCredits(
  db: Knex,
  keys: CreditKey[],
): Promise<{ i: number; last_reset: Date | null; credited: number; rollover: number }[]> {
  return rowsOf<{ i: number; last_reset: Date | null; credited: number; rollover: number }>(
    db.raw(
      `select k.i, r.last_reset, coalesce(c.credited, 0)::float8 as credited, coalesce(c.rollover, 0)::float8 as rollover
     from jsonb_to_recordset(?::jsonb) as k(i int, customer_id uuid, meter_id text, until timestamptz)
     left join lateral (
       select max(e.timestamp) as last_reset from events e
       where e.customer_id = k.customer_id and e.source = 'system' and e.name = 'meter.reset'
         and e.metadata ->> 'meter_id' = k.meter_id and (k.until is null or e.timestamp <= k.until)
     ) r on true
     left join lateral (
       select sum((e.metadata ->> 'units')::numeric) as credited,
              sum((e.metadata ->> 'units')::numeric) filter (where (e.metadata ->> 'rollover')::boolean) as rollover
       from events e
       where e.customer_id = k.customer_id and e.source = 'system' and e.name = 'meter.credited'
         and e.metadata ->> 'meter_id' = k.meter_id
         and (r.last_reset is null or e.timestamp >= r.last_reset) and (k.until is null or e.timestamp < k.until)
     ) c on true`,
      [JSON.stringify(keys)],
    ),
  );
}

/**
 * The organization's events a meter reads (through its filter, with the aggregated property
 * present) in [start, end), as `bucket` and `quantity` columns; grouping is the caller's.
 */
export function meterEventsIn(
  db: Knex,
  organizationId: string,
  read: { filter: Sql; where: Sql; value: Sql },
  range: { start: Sql; end: Sql },
  bucket: string,
): Knex.QueryBuilder {
  return db("events")
    .where("events.organization_id", organizationId)
    .whereRaw(read.filter.sql, read.filter.bindings)
    .whereRaw(read.where.sql, read.where.bindings)
    .whereRaw(`events.timestamp >= ${range.start.sql}`, range.start.bindings)
    .whereRaw(`events.timestamp < ${range.end.sql}`, range.end.bindings)
    .select(db.raw(`${bucket} as bucket`), db.raw(`${read.value.sql} as quantity`, read.value.bindings));
}

/**
 * An event's customer: its id, else the live customer with its external id (`rc`, joined), else
 * that external id (a customer the organization has not created yet).
 */
const CUSTOMER_OF_EVENT = "coalesce(events.customer_id::text, rc.id::text, events.external_customer_id)";

/** Each aggregate function over a column's values (`unique`: how many distinct ones). */
const AGGREGATE: Record<"count" | "sum" | "max" | "min" | "avg" | "unique", (column: string) => string> = {
  count: (c) => `count(${c})`,
  sum: (c) => `sum(${c})`,
  max: (c) => `max(${c})`,
  min: (c) => `min(${c})`,
  avg: (c) => `avg(${c})`,
  unique: (c) => `count(distinct ${c})`,
};
export type AggregateFunction = keyof typeof AGGREGATE;

/**
 * A meter's quantities computed per customer first, as Polar's customer_aggregation_function:
 * `events` (meterEventsIn, narrowed) aggregated per bucket and customer, then `perBucket` over the
 * customers of each bucket; and the total (a null bucket): `total` over the buckets' quantities,
 * or, "events", the meter's aggregate (`value`) over all the events. Rows: `bucket`, `quantity`.
 */
export function perCustomerQuantities(
  db: Knex,
  events: Knex.QueryBuilder,
  opts: { bucket: string; perBucket: AggregateFunction; total: AggregateFunction | "events"; value: Sql },
): Knex.QueryBuilder {
  const perCustomer = events
    .clone()
    .leftJoin("customers as rc", (j) =>
      j
        .on("rc.organization_id", "events.organization_id")
        .andOn("rc.external_id", "events.external_customer_id")
        .andOnNull("rc.deleted_at"),
    )
    .select(db.raw(`${CUSTOMER_OF_EVENT} as customer`))
    .groupByRaw(`${opts.bucket}, ${CUSTOMER_OF_EVENT}`);
  const buckets = db
    .from(perCustomer.as("c"))
    .groupBy("c.bucket")
    .select("c.bucket", db.raw(`${AGGREGATE[opts.perBucket]("c.quantity")}::float8 as quantity`));
  const total =
    opts.total === "events"
      ? events
          .clone()
          .clearSelect()
          .select(db.raw("null::timestamptz as bucket"), db.raw(`(${opts.value.sql})::float8 as quantity`, opts.value.bindings))
      : db
          .from(buckets.clone().as("b"))
          .select(db.raw("null::timestamptz as bucket"), db.raw(`${AGGREGATE[opts.total]("b.quantity")}::float8 as quantity`));
  return db.from(buckets.as("pb")).select("pb.bucket", "pb.quantity").unionAll(total, true);
}

/** Narrows `q` (over `events`) to the events of these customers of the organization. */
export function whereCustomers(q: Knex.QueryBuilder, db: Knex, organizationId: string, customerIds: string[]): Knex.QueryBuilder {
  const ids = customerIds.filter(isUuid);
  return q.where((w) =>
    w
      .whereIn("events.customer_id", ids)
      .orWhere((u) => u.whereNull("events.customer_id").whereIn("events.external_customer_id", externalIdsOf(db, organizationId, ids))),
  );
}

/**
 * Narrows `q` (over `events`) to a search's events: their name, source or metadata matches `like`
 * (an ilike pattern), or their customer does (customersLike), by id or by external id.
 */
export function whereSearch(q: Knex.QueryBuilder, db: Knex, organizationId: string, like: string): Knex.QueryBuilder {
  return q.where((w) =>
    w
      .whereRaw("events.name ilike ?", [like])
      .orWhereRaw("events.source ilike ?", [like])
      .orWhereRaw("events.metadata::text ilike ?", [like])
      .orWhereIn("events.customer_id", customersLike(db, organizationId, like, "id"))
      .orWhereIn("events.external_customer_id", customersLike(db, organizationId, like, "external_id")),
  );
}

/** Narrows `q` to the events of these external customer ids: by the id they carry, or their customer's. */
export function whereExternalCustomers(q: Knex.QueryBuilder, db: Knex, organizationId: string, externalIds: string[]): Knex.QueryBuilder {
  return q.where((w) =>
    w
      .whereIn("events.external_customer_id", externalIds)
      .orWhereIn("events.customer_id", idsWithExternalIds(db, organizationId, externalIds)),
  );
}

// The events API's reads and ingestion's writes (server/events/).

export function readable(db: Knex, organizationId: string): Knex.QueryBuilder {
  return db("events").where("events.organization_id", organizationId);
}

export async function findReadable(db: Knex, organizationId: string, id: string): Promise<EventRow | undefined> {
  if (!isUuid(id)) return undefined;
  return (await readable(db, organizationId).where("events.id", id).first("events.*")) as EventRow | undefined;
}

/**
 * The customers the events name: by id, or (not attributed yet) by live customers' external ids.
 * Keyed by customer id and by `ext:<external id>`.
 */
export async function customersOf(db: Knex, organizationId: string, rows: EventRow[]): Promise<Map<string, CustomerRow>> {
  const ids = [...new Set(rows.map((r) => r.customer_id).filter((v): v is string => v !== null))];
  const external = [
    ...new Set(rows.filter((r) => r.customer_id === null && r.external_customer_id !== null).map((r) => r.external_customer_id!)),
  ];
  const out = new Map<string, CustomerRow>();
  if (ids.length === 0 && external.length === 0) return out;
  const customers = await namedByEvents(db, organizationId, ids, external);
  for (const c of customers) {
    out.set(c.id, c);
    if (c.external_id !== null && c.deleted_at === null) out.set(`ext:${c.external_id}`, c);
  }
  return out;
}

export function customerOf(row: EventRow, customers: Map<string, CustomerRow>): CustomerRow | undefined {
  if (row.customer_id !== null) return customers.get(row.customer_id);
  return row.external_customer_id !== null ? customers.get(`ext:${row.external_customer_id}`) : undefined;
}

/** The organization's event names with their counts (kept up to date as events are stored). */
export function eventNames(db: Knex, organizationId: string): Knex.QueryBuilder {
  return db("event_names").where("organization_id", organizationId).select("*");
}

/** The name statistics of `source` (eventNames or countNames) as a query to filter, sort and page. */
export function namesOf(db: Knex, source: Knex.QueryBuilder): Knex.QueryBuilder {
  return db.from(source.as("names")).select("names.name", "names.source", "names.occurrences", "names.first_seen", "names.last_seen");
}

/** Counts each event name of a query of events. */
export function countNames(db: Knex, events: Knex.QueryBuilder): Knex.QueryBuilder {
  return events
    .select("events.organization_id", "events.name", "events.source")
    .select(db.raw("count(*) as occurrences, min(events.timestamp) as first_seen, max(events.timestamp) as last_seen"))
    .groupBy("events.organization_id", "events.name", "events.source");
}

/** What COPY writes of an event (store.ts's NewEvent). */
export interface CopiedEvent {
  timestamp: Date;
  name: string;
  source: string;
  customerId: string | null;
  externalCustomerId: string | null;
  metadata: Record<string, unknown>;
}

type Connection = { query: (q: unknown) => NodeJS.WritableStream };
type TransactionClient = { acquireConnection(): Promise<Connection>; releaseConnection(c: Connection): Promise<void> };

/** COPY text format: tab-separated, `\N` for null, backslashes and control characters escaped. */
const copyField = (v: string | null) =>
  v === null ? "\\N" : v.replace(/\\/g, "\\\\").replace(/\t/g, "\\t").replace(/\n/g, "\\n").replace(/\r/g, "\\r");

/** The events as one COPY into the table, on the transaction's own connection. */
export async function copyEvents(trx: Knex.Transaction, organizationId: string, events: CopiedEvent[]): Promise<void> {
  const client = trx.client as TransactionClient;
  const conn = await client.acquireConnection();
  try {
    const sink = conn.query(
      copyFrom("COPY events (organization_id, timestamp, name, source, customer_id, external_customer_id, metadata) FROM STDIN"),
    );
    let text = "";
    for (const e of events) {
      text +=
        [organizationId, e.timestamp.toISOString(), e.name, e.source, e.customerId, e.externalCustomerId, JSON.stringify(e.metadata)]
          .map(copyField)
          .join("\t") + "\n";
    }
    await pipeline(Readable.from([text]), sink);
  } finally {
    await client.releaseConnection(conn);
  }
}

/** A batch's meter totals per hour and event name statistics, added up by store.ts. */
export interface Totals {
  rollups: { meter_id: string; bucket: string; events: number; n: number; sum: number; min: number | null; max: number | null }[];
  names: { name: string; source: string; occurrences: number; first_seen: string; last_seen: string }[];
}

/** Totals and name statistics added up already, upserted in key order (as the SQL path locks them). */
export async function addTotals(trx: Knex.Transaction, organizationId: string, totals: Totals): Promise<void> {
  await trx.raw(
    `with rollups as (
       insert into meter_rollups (meter_id, customer_key, bucket, events, n, sum, min, max)
       select meter_id, '', bucket, events, n, sum, min, max
       from jsonb_to_recordset(?::jsonb) as x(meter_id uuid, bucket timestamptz, events bigint, n bigint, sum float8, min float8, max float8)
       order by meter_id, bucket
       on conflict (meter_id, customer_key, bucket) do update set ${ADD_ROLLUPS}
     )
     insert into event_names (organization_id, name, source, occurrences, first_seen, last_seen)
     select ?::uuid, name, source, occurrences, first_seen, last_seen
     from jsonb_to_recordset(?::jsonb) as x(name text, source text, occurrences bigint, first_seen timestamptz, last_seen timestamptz)
     order by name, source
     on conflict (organization_id, name, source) do update set
       occurrences = event_names.occurrences + excluded.occurrences,
       first_seen = least(event_names.first_seen, excluded.first_seen),
       last_seen = greatest(event_names.last_seen, excluded.last_seen)`,
    [JSON.stringify(totals.rollups), organizationId, JSON.stringify(totals.names)],
  );
}

/**
 * Inserts the events of `input` (JSON rows; with `copied`, COPYed already, so only read here), and in
 * the same statement adds them to the totals of `rollupMeters`, gives customers the meters of the
 * `meterEvents` (credits and resets) among them, and counts their names; answers how many were
 * inserted (an external id stored already in the organization is skipped) and, per customer, when
 * the earliest user event inserted happened.
 */
export async function insertEvents(
  trx: Knex.Transaction,
  organizationId: string,
  input: string,
  opts: { copied: boolean; rollupMeters: MeterRow[]; meterEvents: string[] | null },
): Promise<{ inserted: number; firsts: { customer_id: string; first: string }[] }> {
  const { copied } = opts;
  const inserted: Sql = { sql: "inserted", bindings: [] };
  const ctes: Sql[] = [];
  for (const meter of opts.rollupMeters) ctes.push(rollupUpsertSql(meter, inserted, "total"));
  if (opts.meterEvents) {
    ctes.push({
      sql: `insert into customer_meters (organization_id, customer_id, meter_id)
        select distinct ?::uuid, inserted.customer_id, meters.id from inserted join meters on meters.id::text = inserted.metadata ->> 'meter_id'
        where inserted.source = 'system' and inserted.name = any(?::text[]) and inserted.customer_id is not null and meters.organization_id = ?
        order by 2, 3
        on conflict (customer_id, meter_id) do nothing`,
      bindings: [organizationId, opts.meterEvents, organizationId],
    });
  }
  ctes.push({
    sql: `insert into event_names (organization_id, name, source, occurrences, first_seen, last_seen)
      select ?::uuid, name, source, count(*), min(timestamp), max(timestamp) from inserted group by name, source order by name, source
      on conflict (organization_id, name, source) do update set
        occurrences = event_names.occurrences + excluded.occurrences,
        first_seen = least(event_names.first_seen, excluded.first_seen),
        last_seen = greatest(event_names.last_seen, excluded.last_seen)`,
    bindings: [organizationId],
  });
  const insert = copied
    ? "select ?::uuid as organization_id, timestamp, name, source, customer_id, external_customer_id, coalesce(metadata, '{}'::jsonb) as metadata from input"
    : `insert into events (organization_id, timestamp, name, source, customer_id, external_customer_id, external_id, metadata)
      select ?::uuid, timestamp, name, source, customer_id, external_customer_id, external_id, coalesce(metadata, '{}'::jsonb) from input
      on conflict (organization_id, external_id) where external_id is not null do nothing
      returning timestamp, name, source, customer_id, external_customer_id, metadata`;
  const sql = `with input as (
      select * from jsonb_to_recordset(?::jsonb) as x(timestamp timestamptz, name text, source text, customer_id uuid,
        external_customer_id text, external_id text, metadata jsonb)
    ), inserted as materialized (${insert})${ctes.map((c, i) => `, w${i} as (${c.sql})`).join("")}
    select count(*)::int as inserted,
      (select coalesce(json_agg(f), '[]') from (select customer_id, min(timestamp) as first from inserted
        where source = 'user' and customer_id is not null group by customer_id) f) as firsts
    from inserted`;
  const [result] = await rowsOf<{ inserted: number; firsts: { customer_id: string; first: string }[] }>(
    trx.raw(sql, [input, organizationId, ...ctes.flatMap((c) => c.bindings)]),
  );
  return result;
}
