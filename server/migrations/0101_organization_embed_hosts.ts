// The hosts allowed to embed an organization's checkout (server/organizations/embed-hosts.ts);
// empty, as every organization's is until it lists some, lets any origin embed it.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("alter table organizations add column embed_hosts jsonb not null default '[]'::jsonb");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("alter table organizations drop column if exists embed_hosts");
}
