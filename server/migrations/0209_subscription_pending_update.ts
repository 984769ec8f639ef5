// A subscription's change waiting for its next period (a `next_period` product or seat change):
// { id, created_at, modified_at, applies_at, product_id, seats, proration_behavior }, applied and
// cleared by the renewal, or cleared by an immediate change.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("alter table subscriptions add column pending_update jsonb");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("alter table subscriptions drop column if exists pending_update");
}
