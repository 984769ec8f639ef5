// Stripe Tax's record and reversal happen after the commit, in the worker: an order
// paid with a Stripe calculation is due to be recorded, a refund of a recorded Stripe order due
// to be reverted, until the provider's id is stored. The backstop sweep starts what is due.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("alter table orders add column tax_record_due_at timestamptz");
  await knex.raw("create index orders_tax_record_due on orders (tax_record_due_at) where tax_record_due_at is not null");
  await knex.raw("alter table refunds add column tax_revert_due_at timestamptz");
  await knex.raw("create index refunds_tax_revert_due on refunds (tax_revert_due_at) where tax_revert_due_at is not null");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("alter table refunds drop column if exists tax_revert_due_at");
  await knex.raw("alter table orders drop column if exists tax_record_due_at");
}
