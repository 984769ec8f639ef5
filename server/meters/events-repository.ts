// The queries on the events table that the usage engine runs: the fold's ranges of events, the
// attribution of events known by an external customer id, a customer's credits and resets, a
// meter's events per bucket, and which events are a customer's. Here and not in
// events/repository.ts because events stand above meters (.dependency-cruiser.cjs,
// meters-below-events: ingestion evaluates meters); the events API's own queries are there.
import type { Knex } from "knex";
import { externalIdsOf, idsWithExternalIds } from "../customers/repository.js";
import { isUuid } from "../kit/ids.js";
import type { Sql } from "./filter.js";

/** The organization's events (a source for rollupUpsertSql and matchedCustomersSql). */
export const organizationEvents = (organizationId: string): Sql => ({ sql: "(select * from events where organization_id = ?)", bindings: [organizationId] });

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
export const customerEvents = (customerId: string): Sql => ({ sql: "(select * from events where customer_id = ?)", bindings: [customerId] });

/**
 * The head of the events from `mark` to before `horizon` (transaction ids), at most `chunk` of
 * them: how many, and the transaction id just after the last one's (all of its events go in).
 */
export async function foldChunkBound(trx: Knex.Transaction, mark: string, horizon: string, chunk: number): Promise<{ n: number; after_last: string | null }> {
  const { rows: bound } = await trx.raw(
    `select count(*)::int as n, (max(ingest_xid)::text::numeric + 1)::text as after_last
       from (select ingest_xid from events where ingest_xid >= ?::xid8 and ingest_xid < ?::xid8 order by ingest_xid limit ?) as head`,
    [mark, horizon, chunk],
  );
  return bound[0] as { n: number; after_last: string | null };
}

/** The organizations with events of transactions from `from` to before `to`, in id order. */
export async function organizationsWithEventsIn(trx: Knex.Transaction, from: string, to: string): Promise<string[]> {
  return (
    await trx.raw("select distinct organization_id from events where ingest_xid >= ?::xid8 and ingest_xid < ?::xid8 order by 1", [from, to])
  ).rows.map((r: { organization_id: string }) => r.organization_id);
}

/** The number of events of transactions from `from` to before `to`. */
export async function countEventsIn(trx: Knex.Transaction, from: string, to: string): Promise<number> {
  const { rows: counted } = await trx.raw("select count(*)::int as n from events where ingest_xid >= ?::xid8 and ingest_xid < ?::xid8", [from, to]);
  return (counted[0] as { n: number }).n;
}

/** The events known only by `externalId` become the customer's (its id filled in); how many did. */
export async function attributeEvents(trx: Knex.Transaction, customer: { id: string; organization_id: string }, externalId: string): Promise<number> {
  return trx("events")
    .where({ organization_id: customer.organization_id, external_customer_id: externalId })
    .whereNull("customer_id")
    .update({ customer_id: customer.id });
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
export async function resetsAndCredits(db: Knex, keys: CreditKey[]): Promise<{ i: number; last_reset: Date | null; credited: number; rollover: number }[]> {
  const { rows } = await db.raw(
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
  );
  return rows as { i: number; last_reset: Date | null; credited: number; rollover: number }[];
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

/** Narrows `q` (over `events`) to the events of these customers of the organization. */
export function whereCustomers(q: Knex.QueryBuilder, db: Knex, organizationId: string, customerIds: string[]): Knex.QueryBuilder {
  const ids = customerIds.filter(isUuid);
  return q.where((w) =>
    w.whereIn("events.customer_id", ids).orWhere((u) =>
      u
        .whereNull("events.customer_id")
        .whereIn("events.external_customer_id", externalIdsOf(db, organizationId, ids)),
    ),
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
