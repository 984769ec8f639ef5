// The period an order line bills (a subscription's period, the usage of the one that ended, a
// proration's span); null for a one-time purchase. Lines written before this have none recorded.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("alter table order_items add column start_timestamp timestamptz, add column end_timestamp timestamptz");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("alter table order_items drop column if exists start_timestamp, drop column if exists end_timestamp");
}
