// Tax invoices: the buyer's tax id as it was when the order was made, [value, type], so
// that an invoice generated later prints it even after the customer changed theirs.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("alter table orders add column customer_tax_id jsonb");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("alter table orders drop column if exists customer_tax_id");
}
