// What a paid order's tax was: the rate with its jurisdiction, Polar's taxability
// reason, and the tax provider's transaction that recorded it. Null on orders made without a
// computed tax (the provider `none`, a trial's first order, orders made before).
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table orders
      add column tax_rate jsonb,
      add column taxability_reason text,
      add column tax_transaction_id text`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(
    "alter table orders drop column if exists tax_rate, drop column if exists taxability_reason, drop column if exists tax_transaction_id",
  );
}
