// Whether a product can be deleted asks whether any order or subscription refers to it: indexed.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("create index if not exists orders_product_id on orders (product_id)");
  await knex.raw("create index if not exists subscriptions_product_id on subscriptions (product_id)");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop index if exists orders_product_id");
  await knex.raw("drop index if exists subscriptions_product_id");
}
