// A refund takes back, from the customer's positive wallet balance, up to what it returns in cash
// (as Polar's refunds do): a `refund` ledger entry naming the refund and its order, one per refund.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("alter table wallet_transactions drop constraint wallet_transactions_kind_check");
  await knex.raw(
    "alter table wallet_transactions add constraint wallet_transactions_kind_check check (kind in ('credit', 'order', 'refund'))",
  );
  await knex.raw("alter table wallet_transactions add column refund_id uuid references refunds(id)");
  // An order spends from a wallet once; a refund takes from it once.
  await knex.raw("drop index wallet_transactions_order");
  await knex.raw("create unique index wallet_transactions_order on wallet_transactions (order_id) where kind = 'order'");
  await knex.raw("create unique index wallet_transactions_refund on wallet_transactions (refund_id) where refund_id is not null");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("delete from wallet_transactions where kind = 'refund'");
  await knex.raw("drop index wallet_transactions_refund");
  await knex.raw("drop index wallet_transactions_order");
  await knex.raw("create unique index wallet_transactions_order on wallet_transactions (order_id) where order_id is not null");
  await knex.raw("alter table wallet_transactions drop column refund_id");
  await knex.raw("alter table wallet_transactions drop constraint wallet_transactions_kind_check");
  await knex.raw("alter table wallet_transactions add constraint wallet_transactions_kind_check check (kind in ('credit', 'order'))");
}
