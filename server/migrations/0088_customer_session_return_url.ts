// Where a customer session's portal links back to (the merchant's app), when its creator said.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("alter table customer_sessions add column return_url text");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("alter table customer_sessions drop column if exists return_url");
}
