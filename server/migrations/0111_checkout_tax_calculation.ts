// The tax calculation a checkout last showed: its lines' rates, jurisdictions and
// taxability reasons, which the order records when the checkout is paid. Null when no tax is
// computed (the provider `none`, or the buyer's country not known yet).
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("alter table checkouts add column tax_calculation jsonb");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("alter table checkouts drop column if exists tax_calculation");
}
