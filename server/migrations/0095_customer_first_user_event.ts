// When a customer's first ingested (user) event happened: lowered as events arrive or are
// attributed to the customer, never raised. Existing customers get theirs from their events.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("alter table customers add column first_user_event_at timestamptz");
  await knex.raw(`
    update customers c set first_user_event_at = e.first
      from (select customer_id, min(timestamp) as first from events
             where source = 'user' and customer_id is not null group by customer_id) e
     where e.customer_id = c.id`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("alter table customers drop column if exists first_user_event_at");
}
