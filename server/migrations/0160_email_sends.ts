// The send log of every email the pipeline sends: one row per logical email, unique by
// what makes it one email (kind, dedupe key, recipient), so a trigger that runs twice inserts
// nothing the second time. The Message-ID is fixed at insert: a resend after a crash repeats it.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table email_sends (
      id uuid primary key,
      organization_id uuid not null references organizations(id) on delete cascade,
      kind text not null,
      recipient text not null,
      customer_id uuid references customers(id) on delete set null,
      user_id uuid references users(id) on delete set null,
      dedupe_key text not null,
      data jsonb not null default '{}'::jsonb,
      subject text,
      message_id text not null,
      status text not null default 'pending' check (status in ('pending', 'sent', 'failed', 'skipped')),
      attempts integer not null default 0,
      last_error text,
      created_at timestamptz not null default now(),
      sent_at timestamptz
    )`);
  await knex.raw("create unique index email_sends_one on email_sends (organization_id, kind, dedupe_key, recipient)");
  await knex.raw("create index email_sends_pending on email_sends (created_at) where status = 'pending'");
  await knex.raw("create index email_sends_customer on email_sends (organization_id, customer_id, created_at desc)");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop table if exists email_sends");
}
