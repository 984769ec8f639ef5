// The tax provider's reversal of a refund's tax: Stripe Tax's reversal id, or the
// built-in provider's. Null when the order carried no recorded tax.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("alter table refunds add column tax_reversal_id text");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("alter table refunds drop column if exists tax_reversal_id");
}
