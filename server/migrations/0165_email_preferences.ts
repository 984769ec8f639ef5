// Who gets which email: the organization's branding and reminder lead time
// (email_settings, merged over its defaults when read), each customer's choice of the
// non-essential emails (email_preferences, likewise), and the merchant notifications each member
// muted for themselves (one row per muted kind).
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("alter table organizations add column email_settings jsonb not null default '{}'");
  await knex.raw("alter table customers add column email_preferences jsonb not null default '{}'");
  await knex.raw(`
    create table member_notification_mutes (
      organization_id uuid not null,
      user_id uuid not null,
      kind text not null,
      created_at timestamptz not null default now(),
      primary key (organization_id, user_id, kind),
      foreign key (organization_id, user_id) references members (organization_id, user_id) on delete cascade
    )`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop table if exists member_notification_mutes");
  await knex.raw("alter table customers drop column if exists email_preferences");
  await knex.raw("alter table organizations drop column if exists email_settings");
}
