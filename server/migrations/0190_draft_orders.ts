// Draft orders (orders:create) have no invoice number until they are finalized, and a paid
// order's receipt PDF is rendered on its first request (orders:receipt).
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("alter table orders alter column invoice_number drop not null, add column receipt_path text");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("alter table orders drop column if exists receipt_path");
  await knex.raw("delete from orders where invoice_number is null");
  await knex.raw("alter table orders alter column invoice_number set not null");
}
