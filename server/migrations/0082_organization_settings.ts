// Organization settings the newest clients read: single sign-on enforcement (never, as there is
// none), the default presentment currency and tax behavior, and which emails customers get
// (customer_email_settings, merged over its defaults when read, like the other settings).
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table organizations
      add column sso_enforced boolean not null default false,
      add column default_presentment_currency text not null default 'usd',
      add column default_tax_behavior text not null default 'location' check (default_tax_behavior in ('location', 'inclusive', 'exclusive')),
      add column customer_email_settings jsonb not null default '{}'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table organizations
      drop column if exists sso_enforced, drop column if exists default_presentment_currency,
      drop column if exists default_tax_behavior, drop column if exists customer_email_settings`);
}
