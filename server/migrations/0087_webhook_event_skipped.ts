// A webhook event recorded while its endpoint was disabled, and so not sent: skipped (until a
// replay queues it).
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("alter table webhook_events add column skipped boolean not null default false");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("alter table webhook_events drop column if exists skipped");
}
