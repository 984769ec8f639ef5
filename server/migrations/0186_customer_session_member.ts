// A portal session can be a team member's: the member the merchant opened it for (null: the
// customer's own session, which acts as its owner).
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("alter table customer_sessions add column member_id uuid references customer_members (id) on delete cascade");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("alter table customer_sessions drop column if exists member_id");
}
