// Usage-based billing (docs/USAGE.md): idempotent event ingestion, per-meter rollups (a meter's
// hourly totals kept in the ingesting transaction, daily per customer folded in shortly after), the
// customers' meters, event name statistics, and the unique key that makes billing a meter twice for
// one subscription period impossible.
import type { Knex } from "knex";
import type { MeterRow } from "../meters/models.js";
import { rebuildMeter } from "../meters/rollups.js";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("events", (t) => {
    // The merchant's own id of the event: the same one in one organization is stored once.
    t.text("external_id");
    t.timestamp("ingested_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // The writing transaction: events of transactions older than every running one can be folded
    // into the per-customer rollups without missing one that commits later.
    t.specificType("ingest_xid", "xid8").notNullable().defaultTo(knex.raw("pg_current_xact_id()"));
  });
  await knex.raw("create index events_ingest_xid on events (ingest_xid)");
  await knex.raw("create index events_customer_ingest_xid on events (customer_id, ingest_xid)");
  await knex.raw("create unique index events_org_external_id on events (organization_id, external_id) where external_id is not null");
  // A customer's events in a period (customer meters, billing edges), and events known only by
  // the merchant's customer id.
  await knex.raw("drop index if exists events_customer_id_index");
  await knex.raw("drop index if exists events_organization_id_external_customer_id_index");
  await knex.raw("create index events_customer_timestamp on events (customer_id, timestamp)");
  await knex.raw("create index events_org_external_customer_timestamp on events (organization_id, external_customer_id, timestamp)");
  // The system events that move a customer's meter window (meter.reset) and its credits.
  await knex.raw("create index events_system_customer on events (customer_id, name, timestamp) where source = 'system'");

  // What one meter counted in one bucket: per UTC hour in total (key '', kept by every event write),
  // per UTC day per customer key (the customer's id, or `ext:<id>` for events known only by an
  // external customer id; folded in from the events below usage_fold.folded_below). Unique meters
  // have none.
  await knex.schema.createTable("meter_rollups", (t) => {
    t.uuid("meter_id").notNullable().references("meters.id").onDelete("cascade");
    t.text("customer_key").notNullable();
    t.timestamp("bucket", { useTz: true }).notNullable();
    t.bigInteger("events").notNullable();
    // The events whose aggregated property is a number, their sum, min and max.
    t.bigInteger("n").notNullable();
    t.double("sum").notNullable();
    t.double("min");
    t.double("max");
    t.primary(["meter_id", "customer_key", "bucket"]);
  });

  // Every event written by a transaction below this id is in the per-customer rollups.
  await knex.schema.createTable("usage_fold", (t) => {
    t.smallint("id").primary();
    t.specificType("folded_below", "xid8").notNullable();
  });
  await knex.raw("alter table usage_fold add constraint usage_fold_one_row check (id = 1)");
  // Nothing folded yet: the events stored so far carry this transaction's id, and the worker folds
  // them in; the existing meters' totals are built from them below.
  await knex.raw("insert into usage_fold (id, folded_below) values (1, pg_current_xact_id())");

  await knex.schema.createTable("customer_meters", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("modified_at", { useTz: true });
    t.uuid("organization_id").notNullable().references("organizations.id");
    t.uuid("customer_id").notNullable().references("customers.id");
    t.uuid("meter_id").notNullable().references("meters.id").onDelete("cascade");
    t.unique(["customer_id", "meter_id"]);
    t.index(["organization_id", "created_at"]);
    t.index(["meter_id"]);
  });

  await knex.schema.createTable("event_names", (t) => {
    t.uuid("organization_id").notNullable().references("organizations.id");
    t.text("name").notNullable();
    t.text("source").notNullable();
    t.bigInteger("occurrences").notNullable();
    t.timestamp("first_seen", { useTz: true }).notNullable();
    t.timestamp("last_seen", { useTz: true }).notNullable();
    t.primary(["organization_id", "name", "source"]);
  });
  // Events stored before this migration: their names' statistics.
  await knex.raw(`
    insert into event_names (organization_id, name, source, occurrences, first_seen, last_seen)
    select organization_id, name, source, count(*), min(timestamp), max(timestamp) from events group by 1, 2, 3`);

  // One billing of one meter for one subscription period, with what it billed and on which order.
  await knex.schema.createTable("subscription_meter_billings", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.uuid("subscription_id").notNullable().references("subscriptions.id");
    t.uuid("meter_id").notNullable().references("meters.id");
    t.uuid("product_price_id").notNullable().references("product_prices.id");
    t.uuid("order_id").notNullable().references("orders.id");
    t.timestamp("period_start", { useTz: true }).notNullable();
    t.timestamp("period_end", { useTz: true }).notNullable();
    t.double("consumed_units").notNullable();
    t.bigInteger("credited_units").notNullable();
    t.double("billed_units").notNullable();
    t.bigInteger("amount").notNullable();
    t.unique(["subscription_id", "meter_id", "period_start"]);
    t.index(["order_id"]);
  });

  for (const meter of (await knex("meters")) as MeterRow[]) await rebuildMeter(knex as Knex.Transaction, meter);
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ["subscription_meter_billings", "event_names", "customer_meters", "usage_fold", "meter_rollups"]) {
    await knex.schema.dropTableIfExists(table);
  }
  await knex.raw("drop index if exists events_system_customer");
  await knex.raw("drop index if exists events_customer_ingest_xid");
  await knex.raw("drop index if exists events_ingest_xid");
  await knex.raw("drop index if exists events_org_external_customer_timestamp");
  await knex.raw("drop index if exists events_customer_timestamp");
  await knex.raw("drop index if exists events_org_external_id");
  await knex.raw("create index if not exists events_customer_id_index on events (customer_id)");
  await knex.raw(
    "create index if not exists events_organization_id_external_customer_id_index on events (organization_id, external_customer_id)",
  );
  await knex.schema.alterTable("events", (t) => {
    t.dropColumn("external_id");
    t.dropColumn("ingested_at");
    t.dropColumn("ingest_xid");
  });
}
