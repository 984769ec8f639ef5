// A webhook endpoint's name, to tell it apart from the organization's others.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("alter table webhook_endpoints add column name text");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("alter table webhook_endpoints drop column if exists name");
}
