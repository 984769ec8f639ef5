// The API version a webhook endpoint's event payloads are in, and the one each event was recorded
// in (its endpoint's then). Existing endpoints and events are in the default version.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("alter table webhook_endpoints add column api_version text not null default '2026-04'");
  await knex.raw("alter table webhook_events add column api_version text not null default '2026-04'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("alter table webhook_events drop column if exists api_version");
  await knex.raw("alter table webhook_endpoints drop column if exists api_version");
}
