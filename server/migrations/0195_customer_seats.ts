// Seats of a seat-based subscription or order: `seats` on the subscription (or order) is how many
// it bought; each customer_seats row is one assigned seat, pending (invited), claimed or revoked.
// A seat's holder is a customer of the organization; one live seat per holder and purchase.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("alter table subscriptions add column seats integer check (seats is null or seats >= 0)");
  await knex.raw("alter table orders add column seats integer check (seats is null or seats >= 0)");
  await knex.raw(`
    create table customer_seats (
      id uuid primary key default gen_random_uuid(),
      created_at timestamptz not null default now(),
      modified_at timestamptz,
      organization_id uuid not null references organizations (id) on delete cascade,
      subscription_id uuid references subscriptions (id) on delete cascade,
      order_id uuid references orders (id) on delete cascade,
      status text not null check (status in ('pending', 'claimed', 'revoked')),
      customer_id uuid references customers (id) on delete set null,
      member_id uuid references customer_members (id) on delete set null,
      email text,
      invitation_token text unique,
      invitation_token_expires_at timestamptz,
      claimed_at timestamptz,
      revoked_at timestamptz,
      seat_metadata jsonb not null default '{}',
      check ((subscription_id is null) <> (order_id is null))
    )`);
  await knex.raw(
    "create unique index customer_seats_subscription_holder on customer_seats (subscription_id, customer_id) where status <> 'revoked' and subscription_id is not null",
  );
  await knex.raw(
    "create unique index customer_seats_order_holder on customer_seats (order_id, customer_id) where status <> 'revoked' and order_id is not null",
  );
  await knex.raw("create index customer_seats_customer on customer_seats (customer_id) where status = 'claimed'");
  await knex.raw("create index customer_seats_organization on customer_seats (organization_id, created_at)");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop table if exists customer_seats");
  await knex.raw("alter table orders drop column if exists seats");
  await knex.raw("alter table subscriptions drop column if exists seats");
}
