// Why each payment was attempted (a checkout, a subscription's charge, a dunning retry, the
// customer paying again, a retry after a new card, the merchant's retry); null for payments made
// before it was recorded. An order's next attempt says why it is made when it is not the dunning
// schedule's own (a new card moves it to now).
import type { Knex } from "knex";

const TRIGGERS = "('purchase', 'subscription_cycle', 'retry_dunning', 'retry_customer', 'retry_payment_method_update', 'retry_admin')";

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table payments add column trigger text check (trigger in ${TRIGGERS})`);
  await knex.raw(
    "alter table orders add column next_payment_trigger text check (next_payment_trigger in ('retry_payment_method_update', 'retry_admin'))",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("alter table orders drop column if exists next_payment_trigger");
  await knex.raw("alter table payments drop column if exists trigger");
}
