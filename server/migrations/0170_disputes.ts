// Disputes (chargebacks) on an order's payment, as the processor reports them: one row per
// processor dispute (unique by processor and its id), so a redelivered event updates, never adds.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table disputes (
      id uuid primary key default gen_random_uuid(),
      created_at timestamptz not null default now(),
      modified_at timestamptz,
      organization_id uuid not null references organizations(id),
      order_id uuid not null references orders(id),
      payment_id uuid not null references payments(id),
      customer_id uuid not null references customers(id),
      status text not null check (status in ('prevented', 'early_warning', 'needs_response', 'under_review', 'lost', 'won')),
      amount bigint not null,
      tax_amount bigint not null default 0,
      currency text not null,
      reason text,
      evidence_due_by timestamptz,
      past_due boolean not null default false,
      processor text not null,
      processor_ref text not null
    )`);
  await knex.raw("create unique index disputes_processor_ref on disputes (processor, processor_ref)");
  await knex.raw("create index disputes_organization_created on disputes (organization_id, created_at desc)");
  await knex.raw("create index disputes_order on disputes (order_id)");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop table if exists disputes");
}
