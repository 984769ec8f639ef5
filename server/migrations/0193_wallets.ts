// Prepaid wallets: a customer's balance per currency (one wallet each) and its ledger. The balance
// is the sum of its transactions, kept on the wallet row under its lock; it never goes below zero.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table wallets (
      id uuid primary key default gen_random_uuid(),
      created_at timestamptz not null default now(),
      modified_at timestamptz,
      organization_id uuid not null references organizations(id),
      customer_id uuid not null references customers(id) on delete cascade,
      currency text not null,
      balance bigint not null default 0 check (balance >= 0)
    )`);
  await knex.raw("create unique index wallets_customer_currency on wallets (customer_id, currency)");
  await knex.raw("create index wallets_organization on wallets (organization_id, created_at desc)");
  await knex.raw(`
    create table wallet_transactions (
      id uuid primary key default gen_random_uuid(),
      created_at timestamptz not null default now(),
      wallet_id uuid not null references wallets(id) on delete cascade,
      organization_id uuid not null references organizations(id),
      kind text not null check (kind in ('credit', 'order')),
      amount bigint not null check (amount <> 0),
      balance_after bigint not null check (balance_after >= 0),
      order_id uuid references orders(id),
      description text
    )`);
  await knex.raw("create index wallet_transactions_wallet on wallet_transactions (wallet_id, created_at desc)");
  // An order spends from a wallet once.
  await knex.raw("create unique index wallet_transactions_order on wallet_transactions (order_id) where order_id is not null");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop table if exists wallet_transactions");
  await knex.raw("drop table if exists wallets");
}
