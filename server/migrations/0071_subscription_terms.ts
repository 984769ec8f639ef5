// Subscriptions: how many intervals a billing period spans (a period is anchor + n × count
// intervals), the trial's start and end (a trialing subscription's first period is its trial),
// and a current period end every subscription has.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table subscriptions
      add column recurring_interval_count integer not null default 1 check (recurring_interval_count between 1 and 999),
      add column trial_start timestamptz,
      add column trial_end timestamptz`);
  await knex.raw(`
    update subscriptions
       set current_period_end = current_period_start + ('1 ' || recurring_interval)::interval
     where current_period_end is null`);
  await knex.raw("alter table subscriptions alter column current_period_end set not null");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("alter table subscriptions alter column current_period_end drop not null");
  await knex.raw(`
    alter table subscriptions
      drop column if exists recurring_interval_count, drop column if exists trial_start, drop column if exists trial_end`);
}
