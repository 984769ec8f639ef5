// A customer session minted by a checkout's confirm shows that purchase only: checkout_id names
// it. Null for a session the merchant made or an emailed code opened (the whole portal).
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("alter table customer_sessions add column checkout_id uuid references checkouts(id) on delete cascade");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("alter table customer_sessions drop column if exists checkout_id");
}
