// The one way events are written, user (ingestion) and system (the platform's own) alike: one
// statement inserts the rows (an external id already stored in the organization is skipped),
// adds them to every meter's hourly rollups, to the event name statistics and to the customers'
// meters, in the caller's transaction and under the organization's shared usage lock.
import type { Knex } from "knex";
import type { Sql } from "../meters/filter.js";
import type { MeterRow } from "../meters/models.js";
import { hasRollups, lockUsageShared, matchedCustomersSql, rollupUpsertSql } from "../meters/rollups.js";

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

/** Stores the events; answers how many were inserted (those with an external id seen before are not). */
export async function storeEvents(trx: Knex.Transaction, organizationId: string, events: NewEvent[]): Promise<number> {
  if (events.length === 0) return 0;
  await lockUsageShared(trx, organizationId);
  const meters = (await trx("meters").where({ organization_id: organizationId }).orderBy("id")) as MeterRow[];
  const input = JSON.stringify(
    events.map((e, i) => ({
      i,
      timestamp: e.timestamp.toISOString(),
      name: e.name,
      source: e.source,
      customer_id: e.customerId,
      external_customer_id: e.externalCustomerId,
      external_id: e.externalId ?? null,
      metadata: e.metadata,
    })),
  );
  const inserted: Sql = { sql: "inserted", bindings: [] };
  const ctes: Sql[] = [];
  for (const meter of meters.filter(hasRollups)) ctes.push(rollupUpsertSql(meter, inserted));
  const matched = meters.map((m) => matchedCustomersSql(m, inserted));
  const credited: Sql = {
    sql: `select inserted.customer_id, meters.id as meter_id from inserted join meters on meters.id::text = inserted.metadata ->> 'meter_id'
          where inserted.source = 'system' and inserted.name = any(?::text[]) and inserted.customer_id is not null and meters.organization_id = ?`,
    bindings: [METER_SYSTEM_EVENTS, organizationId],
  };
  const pairs = [...matched, credited];
  ctes.push({
    sql: `insert into customer_meters (organization_id, customer_id, meter_id)
      select distinct ?::uuid, pairs.customer_id, pairs.meter_id from (${pairs.map((p) => p.sql).join(" union all ")}) as pairs
      order by 2, 3
      on conflict (customer_id, meter_id) do update set modified_at = now()`,
    bindings: [organizationId, ...pairs.flatMap((p) => p.bindings)],
  });
  ctes.push({
    sql: `insert into event_names (organization_id, name, source, occurrences, first_seen, last_seen)
      select ?::uuid, name, source, count(*), min(timestamp), max(timestamp) from inserted group by name, source order by name, source
      on conflict (organization_id, name, source) do update set
        occurrences = event_names.occurrences + excluded.occurrences,
        first_seen = least(event_names.first_seen, excluded.first_seen),
        last_seen = greatest(event_names.last_seen, excluded.last_seen)`,
    bindings: [organizationId],
  });
  const sql = `with input as (
      select * from jsonb_to_recordset(?::jsonb) as x(i int, timestamp timestamptz, name text, source text, customer_id uuid,
        external_customer_id text, external_id text, metadata jsonb)
    ), inserted as (
      insert into events (organization_id, timestamp, name, source, customer_id, external_customer_id, external_id, metadata)
      select ?::uuid, timestamp, name, source, customer_id, external_customer_id, external_id, coalesce(metadata, '{}'::jsonb) from input order by i
      on conflict (organization_id, external_id) where external_id is not null do nothing
      returning timestamp, name, source, customer_id, external_customer_id, metadata
    )${ctes.map((c, i) => `, w${i} as (${c.sql})`).join("")}
    select count(*)::int as inserted from inserted`;
  const result = await trx.raw(sql, [input, organizationId, ...ctes.flatMap((c) => c.bindings)]);
  return (result.rows[0] as { inserted: number }).inserted;
}
