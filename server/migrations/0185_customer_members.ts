// The members of a customer: a team's owner, billing managers and members (an individual
// customer's one member is its owner). A live member's email is unique in its customer (any case),
// its external id too, and a customer has at most one live owner.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table customer_members (
      id uuid primary key default gen_random_uuid(),
      created_at timestamptz not null default now(),
      modified_at timestamptz,
      organization_id uuid not null references organizations (id) on delete cascade,
      customer_id uuid not null references customers (id) on delete cascade,
      email text not null,
      name text,
      external_id text,
      role text not null check (role in ('owner', 'billing_manager', 'member')),
      deleted_at timestamptz
    )`);
  await knex.raw("create unique index customer_members_email on customer_members (customer_id, lower(email)) where deleted_at is null");
  await knex.raw(
    "create unique index customer_members_external_id on customer_members (customer_id, external_id) where deleted_at is null and external_id is not null",
  );
  await knex.raw(
    "create unique index customer_members_owner on customer_members (customer_id) where deleted_at is null and role = 'owner'",
  );
  await knex.raw("create index customer_members_organization on customer_members (organization_id, created_at) where deleted_at is null");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop table if exists customer_members");
}
