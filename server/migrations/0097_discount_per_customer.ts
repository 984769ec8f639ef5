// How many times one buyer may redeem a discount (none: no limit), held when a checkout confirms.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("alter table discounts add column max_redemptions_per_customer integer check (max_redemptions_per_customer >= 1)");
  await knex.raw("create index checkouts_discount_id on checkouts (discount_id) where discount_id is not null");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop index if exists checkouts_discount_id");
  await knex.raw("alter table discounts drop column if exists max_redemptions_per_customer");
}
