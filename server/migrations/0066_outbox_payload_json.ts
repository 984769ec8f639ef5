// The outbox keeps each webhook body as it was written (json, not jsonb, which reorders keys and
// adds spaces): the fan-out copies that text to the deliveries, and it is what gets signed.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("alter table outbox alter column payload type json using payload::json");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("alter table outbox alter column payload type jsonb using payload::jsonb");
}
