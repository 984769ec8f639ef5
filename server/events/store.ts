// The one way events are written, user (ingestion) and system (the platform's own) alike, in the
// caller's transaction and under the organization's shared usage lock: the rows (an external id
// already stored in the organization is skipped), every meter's hourly totals, the event name
// statistics, and the meter a credit or reset gives a customer. A batch without external ids is
// COPYed (nothing can conflict) and its totals added up here when the meters' filters can be
// evaluated outside the database (meters/evaluate.ts); otherwise one statement does it all.
// Per-customer rollups and the customer meters of usage are folded in after (meters/fold.ts).
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Knex } from "knex";
import { from as copyFrom } from "pg-copy-streams";
import { metadataKeys, type Sql } from "../meters/filter.js";
import type { MeterRow } from "../meters/models.js";
import { ofOrganizationById } from "../meters/repository.js";
import { matches, NotEvaluable, numericValue } from "../meters/evaluate.js";
import { ADD_ROLLUPS, hasRollups, lockUsageShared, rollupUpsertSql } from "../meters/rollups.js";

export interface NewEvent {
  timestamp: Date;
  name: string;
  source: "user" | "system";
  customerId: string | null;
  externalCustomerId: string | null;
  externalId?: string | null;
  metadata: Record<string, unknown>;
}

/** System events that credit or reset a customer's meter (metadata.meter_id names it). */
const METER_SYSTEM_EVENTS = ["meter.credited", "meter.reset"];

/** Batches at least this large and without external ids are written with COPY (no conflict to check). */
const COPY_FROM = 50;
const HOUR = 3_600_000;

type Connection = { query: (q: unknown) => NodeJS.WritableStream };
type TransactionClient = { acquireConnection(): Promise<Connection>; releaseConnection(c: Connection): Promise<void> };

/** COPY text format: tab-separated, `\N` for null, backslashes and control characters escaped. */
const copyField = (v: string | null) => (v === null ? "\\N" : v.replace(/\\/g, "\\\\").replace(/\t/g, "\\t").replace(/\n/g, "\\n").replace(/\r/g, "\\r"));

/** The events as one COPY into the table, on the transaction's own connection. */
async function copyEvents(trx: Knex.Transaction, organizationId: string, events: NewEvent[]): Promise<void> {
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

interface Totals {
  rollups: { meter_id: string; bucket: string; events: number; n: number; sum: number; min: number | null; max: number | null }[];
  names: { name: string; source: string; occurrences: number; first_seen: string; last_seen: string }[];
}

/** The batch's meter totals per hour and name statistics, added up here (null: the SQL must decide). */
function totalsOf(meters: MeterRow[], events: NewEvent[]): Totals | null {
  const rollups = new Map<string, Totals["rollups"][number]>();
  const names = new Map<string, Totals["names"][number]>();
  try {
    for (const meter of meters.filter(hasRollups)) {
      for (const e of events) {
        if (!matches(meter.filter, e)) continue;
        const hour = new Date(Math.floor(e.timestamp.getTime() / HOUR) * HOUR).toISOString();
        const key = `${meter.id} ${hour}`;
        const r = rollups.get(key) ?? { meter_id: meter.id, bucket: hour, events: 0, n: 0, sum: 0, min: null, max: null };
        r.events++;
        const v = numericValue(meter.aggregation, e);
        if (v !== null) {
          r.n++;
          r.sum += v;
          r.min = r.min === null ? v : Math.min(r.min, v);
          r.max = r.max === null ? v : Math.max(r.max, v);
        }
        rollups.set(key, r);
      }
    }
  } catch (err) {
    if (err instanceof NotEvaluable) return null;
    throw err;
  }
  for (const e of events) {
    const key = `${e.name}\u0000${e.source}`;
    const at = e.timestamp.toISOString();
    const n = names.get(key) ?? { name: e.name, source: e.source, occurrences: 0, first_seen: at, last_seen: at };
    n.occurrences++;
    if (at < n.first_seen) n.first_seen = at;
    if (at > n.last_seen) n.last_seen = at;
    names.set(key, n);
  }
  return { rollups: [...rollups.values()], names: [...names.values()] };
}

/** Totals and name statistics added up already, upserted in key order (as the SQL path locks them). */
async function writeTotals(trx: Knex.Transaction, organizationId: string, totals: Totals): Promise<void> {
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

/** Stores the events; answers how many were inserted (those with an external id seen before are not). */
export async function storeEvents(trx: Knex.Transaction, organizationId: string, events: NewEvent[]): Promise<number> {
  if (events.length === 0) return 0;
  await lockUsageShared(trx, organizationId);
  const meters = await ofOrganizationById(trx, organizationId);
  // Without external ids nothing can conflict: a COPY writes the rows (as fast as the table takes
  // them), and the same statement below adds the batch itself to the totals.
  const copied = events.length >= COPY_FROM && events.every((e) => !e.externalId);
  if (copied) await copyEvents(trx, organizationId, events);
  const meterEvents = events.some((e) => e.source === "system" && METER_SYSTEM_EVENTS.includes(e.name));
  if (copied && !meterEvents) {
    const totals = totalsOf(meters, events);
    if (totals) {
      await writeTotals(trx, organizationId, totals);
      return events.length;
    }
  }
  // Copied rows are already stored: the statement below gets only what the totals, the name
  // statistics and the credits read of them (the metadata keys the meters name), less to parse.
  const keys = copied ? [...new Set([...meters.flatMap((m) => metadataKeys(m.filter, m.aggregation)), ...(meterEvents ? ["meter_id"] : [])])] : null;
  const pick = (metadata: Record<string, unknown>) => (keys ? Object.fromEntries(keys.filter((k) => k in metadata).map((k) => [k, metadata[k]])) : metadata);
  const input = JSON.stringify(
    events.map((e) => ({
      timestamp: e.timestamp.toISOString(),
      name: e.name,
      source: e.source,
      customer_id: copied && !meterEvents ? null : e.customerId,
      external_customer_id: copied ? null : e.externalCustomerId,
      external_id: e.externalId ?? null,
      metadata: pick(e.metadata),
    })),
  );
  const inserted: Sql = { sql: "inserted", bindings: [] };
  const ctes: Sql[] = [];
  for (const meter of meters.filter(hasRollups)) ctes.push(rollupUpsertSql(meter, inserted, "total"));
  if (meterEvents) {
    ctes.push({
      sql: `insert into customer_meters (organization_id, customer_id, meter_id)
        select distinct ?::uuid, inserted.customer_id, meters.id from inserted join meters on meters.id::text = inserted.metadata ->> 'meter_id'
        where inserted.source = 'system' and inserted.name = any(?::text[]) and inserted.customer_id is not null and meters.organization_id = ?
        order by 2, 3
        on conflict (customer_id, meter_id) do nothing`,
      bindings: [organizationId, METER_SYSTEM_EVENTS, organizationId],
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
