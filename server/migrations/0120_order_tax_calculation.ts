// The tax calculation an order was charged with: what the provider records when the
// order is paid, and what a refund reverts in part. A checkout's order takes its checkout's.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("alter table orders add column tax_calculation jsonb");
  await knex.raw(`
    update orders o set tax_calculation = c.tax_calculation
      from checkouts c
     where o.checkout_id = c.id and o.tax_transaction_id is not null and c.tax_calculation is not null`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("alter table orders drop column if exists tax_calculation");
}
