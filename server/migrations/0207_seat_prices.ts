// A seat-based price's tiers: { seat_tier_type: volume | graduated, tiers: [{ min_seats, max_seats,
// price_per_seat }] }, contiguous and sorted; a checkout buys `seats` of it.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("alter table product_prices add column seat_tiers jsonb");
  await knex.raw("alter table checkouts add column seats integer check (seats is null or seats >= 1)");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("alter table checkouts drop column if exists seats");
  await knex.raw("alter table product_prices drop column if exists seat_tiers");
}
