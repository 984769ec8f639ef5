// A customer is an individual or a team (an organization's account its members share). Every
// existing customer is an individual.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("alter table customers add column type text not null default 'individual' check (type in ('individual', 'team'))");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("alter table customers drop column if exists type");
}
