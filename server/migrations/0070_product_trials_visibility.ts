// Products: a trial (interval and count), the number of intervals a billing period spans (1 for
// a one-time product, which has none: the API shows null), and a visibility (draft, private,
// public). Prices: a tax behavior, and free prices become fixed
// prices of 0 in the product's currency (one kind of free price, as the newest clients know it);
// a custom price without a minimum gets the minimum it always had in effect.
import type { Knex } from "knex";

const INTERVALS = "('day', 'week', 'month', 'year')";

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table products
      add column trial_interval text check (trial_interval in ${INTERVALS}),
      add column trial_interval_count integer check (trial_interval_count between 1 and 1000),
      add column recurring_interval_count integer not null default 1 check (recurring_interval_count between 1 and 999),
      add column visibility text not null default 'public' check (visibility in ('draft', 'private', 'public')),
      add constraint products_trial_complete check ((trial_interval is null) = (trial_interval_count is null))`);

  await knex.raw("alter table product_prices add column tax_behavior text check (tax_behavior in ('location', 'inclusive', 'exclusive'))");
  await knex.raw(`
    update product_prices p
       set amount_type = 'fixed', price_amount = 0,
           price_currency = coalesce(p.price_currency,
             (select o.price_currency from product_prices o where o.product_id = p.product_id and o.price_currency is not null order by o.position limit 1),
             'usd')
     where p.amount_type = 'free'`);
  await knex.raw("update product_prices set minimum_amount = 50 where amount_type = 'custom' and minimum_amount is null");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("alter table product_prices drop column if exists tax_behavior");
  await knex.raw(`
    alter table products
      drop column if exists trial_interval, drop column if exists trial_interval_count,
      drop column if exists recurring_interval_count, drop column if exists visibility`);
}
