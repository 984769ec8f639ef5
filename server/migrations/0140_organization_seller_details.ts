// Tax invoices: the seller as its invoices name it, its legal name, address and tax id.
// Null until the organization gives them.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("alter table organizations add column seller_details jsonb");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("alter table organizations drop column if exists seller_details");
}
