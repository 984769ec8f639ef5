// Checkouts: whether a trial is allowed, a trial of the checkout's own (over the product's), the
// trial's end as last quoted, and a return URL (the checkout's back button). Checkout links carry
// a trial and a return URL for the checkouts they open.
import type { Knex } from "knex";

const INTERVALS = "('day', 'week', 'month', 'year')";

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table checkouts
      add column allow_trial boolean not null default true,
      add column trial_interval text check (trial_interval in ${INTERVALS}),
      add column trial_interval_count integer check (trial_interval_count between 1 and 1000),
      add column trial_end timestamptz,
      add column return_url text,
      add constraint checkouts_trial_complete check ((trial_interval is null) = (trial_interval_count is null))`);
  await knex.raw(`
    alter table checkout_links
      add column trial_interval text check (trial_interval in ${INTERVALS}),
      add column trial_interval_count integer check (trial_interval_count between 1 and 1000),
      add column return_url text,
      add constraint checkout_links_trial_complete check ((trial_interval is null) = (trial_interval_count is null))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table checkout_links
      drop column if exists trial_interval, drop column if exists trial_interval_count, drop column if exists return_url`);
  await knex.raw(`
    alter table checkouts
      drop column if exists allow_trial, drop column if exists trial_interval, drop column if exists trial_interval_count,
      drop column if exists trial_end, drop column if exists return_url`);
}
