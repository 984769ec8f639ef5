// The payment method type a buyer chose in a checkout's form (`card`, `upi`…), as they send it.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("alter table checkouts add column payment_method_type text");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("alter table checkouts drop column if exists payment_method_type");
}
