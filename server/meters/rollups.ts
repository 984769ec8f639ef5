// Hourly meter rollups (table meter_rollups): per meter, UTC hour and customer key, the number of
// events the meter's filter matched, and the count, sum, min and max of the aggregated property.
// Kept exact in the transaction that writes events (events/store.ts), rebuilt from the events when a
// meter is created or its filter or aggregation changes, and moved to the customer's id when events
// known by an external customer id are attributed. Quantities, customer meters and billing read them
// instead of the events (docs/USAGE.md); unique meters have none (a distinct count does not add up).
//
// Writers of one organization's usage take its usage lock: event writes shared, rebuilds and
// attribution exclusive, so a rebuild never misses or double-counts events written meanwhile.
import type { Knex } from "knex";
import { filterSql, numericValueSql, type Sql } from "./filter.js";
import type { MeterRow } from "./models.js";

/** The customer key of an event row (alias `events`): its customer's id, else `ext:<external id>` (`-` for neither). */
export const CUSTOMER_KEY_SQL = "coalesce(events.customer_id::text, 'ext:' || events.external_customer_id)";
export const externalKey = (externalId: string) => `ext:${externalId}`;

/** Whether a meter has rollups (every aggregation but unique). */
export const hasRollups = (meter: Pick<MeterRow, "aggregation">) => meter.aggregation.func !== "unique";

const lockKey = (organizationId: string) => `usage:${organizationId}`;

/** Shared usage lock of an organization, until the transaction ends (every event write). */
export async function lockUsageShared(trx: Knex.Transaction, organizationId: string): Promise<void> {
  await trx.raw("select pg_advisory_xact_lock_shared(hashtextextended(?, 0))", [lockKey(organizationId)]);
}

/** Exclusive usage lock (rollup rebuilds, attribution): waits for the event writes in flight. */
export async function lockUsageExclusive(trx: Knex.Transaction, organizationId: string): Promise<void> {
  await trx.raw("select pg_advisory_xact_lock(hashtextextended(?, 0))", [lockKey(organizationId)]);
}

/**
 * `insert into meter_rollups … select … from <source> as events …` adding the matched events of
 * `source` to the meter's rows (per customer key and in total), in key order so that concurrent
 * writers lock rows in one order.
 */
export function rollupUpsertSql(meter: MeterRow, source: Sql): Sql {
  const filter = filterSql(meter.filter);
  const value = numericValueSql(meter.aggregation);
  return {
    sql: `insert into meter_rollups (meter_id, customer_key, hour, events, n, sum, min, max)
      select ?::uuid, case when grouping(k) = 1 then '' else coalesce(k, '-') end, h, count(*), count(v), coalesce(sum(v), 0), min(v), max(v)
      from (select date_trunc('hour', events.timestamp, 'UTC') as h, ${CUSTOMER_KEY_SQL} as k, ${value.sql} as v
            from ${source.sql} as events where ${filter.sql}) as matched
      group by grouping sets ((h, k), (h))
      order by 2, 3
      on conflict (meter_id, customer_key, hour) do update set
        events = meter_rollups.events + excluded.events,
        n = meter_rollups.n + excluded.n,
        sum = meter_rollups.sum + excluded.sum,
        min = least(meter_rollups.min, excluded.min),
        max = greatest(meter_rollups.max, excluded.max)`,
    bindings: [meter.id, ...value.bindings, ...source.bindings, ...filter.bindings],
  };
}

/** `select customer_id, meter_id` of the attributed events of `source` the meter matches. */
export function matchedCustomersSql(meter: MeterRow, source: Sql): Sql {
  const filter = filterSql(meter.filter);
  return {
    sql: `select distinct events.customer_id, ?::uuid as meter_id from ${source.sql} as events where events.customer_id is not null and ${filter.sql}`,
    bindings: [meter.id, ...source.bindings, ...filter.bindings],
  };
}

/**
 * The meter's rollups and customer meters rebuilt from every event of its organization, in the
 * caller's transaction (a new meter over existing events, or a changed filter or aggregation).
 */
export async function rebuildMeter(trx: Knex.Transaction, meter: MeterRow): Promise<void> {
  await lockUsageExclusive(trx, meter.organization_id);
  await trx("meter_rollups").where({ meter_id: meter.id }).delete();
  const scoped: Sql = { sql: "(select * from events where organization_id = ?)", bindings: [meter.organization_id] };
  if (hasRollups(meter)) {
    const upsert = rollupUpsertSql(meter, scoped);
    await trx.raw(upsert.sql, upsert.bindings);
  }
  const customers = matchedCustomersSql(meter, scoped);
  await trx.raw(
    `insert into customer_meters (organization_id, customer_id, meter_id)
     select ?::uuid, m.customer_id, m.meter_id from (${customers.sql}) as m
     join customers on customers.id = m.customer_id
     order by 2 on conflict (customer_id, meter_id) do nothing`,
    [meter.organization_id, ...customers.bindings],
  );
}

/**
 * A customer now has the external id `externalId`: the events known only by it become the
 * customer's (its id filled in), and so do their rollups and customer meters.
 */
export async function attributeExternalEvents(trx: Knex.Transaction, customer: { id: string; organization_id: string }, externalId: string): Promise<void> {
  await lockUsageExclusive(trx, customer.organization_id);
  const attributed = await trx("events")
    .where({ organization_id: customer.organization_id, external_customer_id: externalId })
    .whereNull("customer_id")
    .update({ customer_id: customer.id });
  if (!attributed) return;
  const meters = (await trx("meters").where({ organization_id: customer.organization_id })) as MeterRow[];
  if (meters.length === 0) return;
  const meterIds = meters.map((m) => m.id);
  await trx.raw(
    `insert into meter_rollups (meter_id, customer_key, hour, events, n, sum, min, max)
     select meter_id, ?, hour, events, n, sum, min, max from meter_rollups
     where meter_id = any(?::uuid[]) and customer_key = ? order by meter_id, hour
     on conflict (meter_id, customer_key, hour) do update set
       events = meter_rollups.events + excluded.events, n = meter_rollups.n + excluded.n, sum = meter_rollups.sum + excluded.sum,
       min = least(meter_rollups.min, excluded.min), max = greatest(meter_rollups.max, excluded.max)`,
    [customer.id, meterIds, externalKey(externalId)],
  );
  await trx("meter_rollups").whereIn("meter_id", meterIds).where({ customer_key: externalKey(externalId) }).delete();
  const own: Sql = { sql: "(select * from events where customer_id = ?)", bindings: [customer.id] };
  const parts = meters.map((m) => matchedCustomersSql(m, own));
  await trx.raw(
    `insert into customer_meters (organization_id, customer_id, meter_id)
     select distinct ?::uuid, m.customer_id, m.meter_id from (${parts.map((p) => p.sql).join(" union all ")}) as m
     order by 3 on conflict (customer_id, meter_id) do nothing`,
    [customer.organization_id, ...parts.flatMap((p) => p.bindings)],
  );
}
