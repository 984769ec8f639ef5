// Meter rollups (table meter_rollups): per meter and bucket, the number of events the meter's
// filter matched and the count, sum, min and max of the aggregated property; in total (customer key
// '') per UTC hour, and per customer key per UTC day. The totals are kept exact in the transaction
// that writes events (events/store.ts); the per-customer rows are folded in shortly after by the
// worker (fold.ts), since a batch of many customers' events would otherwise write about one row per
// event, and are daily so that customers with a few events an hour still fold into few rows.
// Readers of per-customer usage add the events not folded yet (usage.ts). Both levels are rebuilt
// from the events when a meter is created or its filter or aggregation changes; per-customer rows
// move to the customer's id when events known by an external customer id are attributed. Unique
// meters have none (a distinct count does not add up).
//
// Writers of one organization's usage take its usage lock: event writes and folds shared, rebuilds
// and attribution exclusive, so a rebuild never misses or double-counts events written meanwhile.
import type { Knex } from "knex";
import { filterSql, numericValueSql, type Sql } from "./filter.js";
import type { MeterRow } from "./models.js";
import { ofOrganization } from "./repository.js";

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

/** The events of transactions below this id are in the per-customer rollups (as text, for xid8). */
export async function foldedBelow(trx: Knex.Transaction, opts: { lock?: "share" | "update" } = {}): Promise<string> {
  const lock = opts.lock === "update" ? " for update" : opts.lock === "share" ? " for share" : "";
  const { rows } = await trx.raw(`select folded_below::text as folded_below from usage_fold where id = 1${lock}`);
  return (rows[0] as { folded_below: string }).folded_below;
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
 * caller's transaction (a new meter over existing events, or a changed filter or aggregation): its
 * totals from all of them, its per-customer rows from those folded already (the fold adds the rest).
 */
export async function rebuildMeter(trx: Knex.Transaction, meter: MeterRow): Promise<void> {
  // The fold's row first, then the usage lock (the fold takes them in this order too).
  const folded = await foldedBelow(trx, { lock: "share" });
  await lockUsageExclusive(trx, meter.organization_id);
  await trx("meter_rollups").where({ meter_id: meter.id }).delete();
  if (hasRollups(meter)) {
    const all: Sql = { sql: "(select * from events where organization_id = ?)", bindings: [meter.organization_id] };
    const total = rollupUpsertSql(meter, all, "total");
    await trx.raw(total.sql, total.bindings);
    const done: Sql = { sql: "(select * from events where organization_id = ? and ingest_xid < ?::xid8)", bindings: [meter.organization_id, folded] };
    const customers = rollupUpsertSql(meter, done, "customers");
    await trx.raw(customers.sql, customers.bindings);
  }
  const matched = matchedCustomersSql(meter, { sql: "(select * from events where organization_id = ?)", bindings: [meter.organization_id] });
  await trx.raw(
    `insert into customer_meters (organization_id, customer_id, meter_id)
     select ?::uuid, m.customer_id, m.meter_id from (${matched.sql}) as m
     join customers on customers.id = m.customer_id
     order by 2 on conflict (customer_id, meter_id) do nothing`,
    [meter.organization_id, ...matched.bindings],
  );
}

/**
 * A customer now has the external id `externalId`: the events known only by it become the
 * customer's (its id filled in), and so do their rollups and customer meters.
 */
export async function attributeExternalEvents(trx: Knex.Transaction, customer: { id: string; organization_id: string }, externalId: string): Promise<void> {
  await lockUsageExclusive(trx, customer.organization_id);
  // The events table's update, here and not in events/repository.ts: events sit above meters
  // (.dependency-cruiser.cjs, meters-below-events).
  const attributed: number = await trx("events")
    .where({ organization_id: customer.organization_id, external_customer_id: externalId })
    .whereNull("customer_id")
    .update({ customer_id: customer.id });
  if (!attributed) return;
  const meters = await ofOrganization(trx, customer.organization_id);
  if (meters.length === 0) return;
  const meterIds = meters.map((m) => m.id);
  await trx.raw(
    `insert into meter_rollups (meter_id, customer_key, bucket, events, n, sum, min, max)
     select meter_id, ?, bucket, events, n, sum, min, max from meter_rollups
     where meter_id = any(?::uuid[]) and customer_key = ? order by meter_id, bucket
     on conflict (meter_id, customer_key, bucket) do update set ${ADD_ROLLUPS}`,
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
