// Event queries, always scoped to the caller's organization, and the statements that write events
// (store.ts: the rows, with the meters' totals and the event name statistics). Which events are a
// customer's (those carrying its id, and those known only by its external id that are not
// attributed yet) is meters/events-repository.ts's whereCustomers, shared with the meters'
// quantities, as are the other statements on events the usage engine runs (meters are below events).
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Knex } from "knex";
import { from as copyFrom } from "pg-copy-streams";
import { namedByEvents, type CustomerRow } from "../customers/repository.js";
import { isUuid } from "../kit/ids.js";
import type { Sql } from "../meters/filter.js";
import type { MeterRow } from "../meters/models.js";
import { ADD_ROLLUPS, rollupUpsertSql } from "../meters/rollups-repository.js";
import type { EventRow } from "./models.js";

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
  const external = [...new Set(rows.filter((r) => r.customer_id === null && r.external_customer_id !== null).map((r) => r.external_customer_id!))];
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
const copyField = (v: string | null) => (v === null ? "\\N" : v.replace(/\\/g, "\\\\").replace(/\t/g, "\\t").replace(/\n/g, "\\n").replace(/\r/g, "\\r"));

/** The events as one COPY into the table, on the transaction's own connection. */
export async function copyEvents(trx: Knex.Transaction, organizationId: string, events: CopiedEvent[]): Promise<void> {
  const client = trx.client as TransactionClient;
  const conn = await client.acquireConnection();
  try {
    const sink = conn.query(copyFrom("COPY events (organization_id, timestamp, name, source, customer_id, external_customer_id, metadata) FROM STDIN"));
    let text = "";
    for (const e of events) {
      text += [organizationId, e.timestamp.toISOString(), e.name, e.source, e.customerId, e.externalCustomerId, JSON.stringify(e.metadata)].map(copyField).join("\t") + "\n";
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
 * inserted (an external id stored already in the organization is skipped).
 */
export async function insertEvents(
  trx: Knex.Transaction,
  organizationId: string,
  input: string,
  opts: { copied: boolean; rollupMeters: MeterRow[]; meterEvents: string[] | null },
): Promise<number> {
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
    select count(*)::int as inserted from inserted`;
  const result = await trx.raw(sql, [input, organizationId, ...ctes.flatMap((c) => c.bindings)]);
  return (result.rows[0] as { inserted: number }).inserted;
}
