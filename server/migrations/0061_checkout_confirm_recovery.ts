// A confirm that died between its claim and its outcome (the API killed, the processor's answer
// lost) leaves its checkout confirmed. The worker's recovery (server/checkouts/recover.ts) takes
// such checkouts over after a while and runs the charge step again with the same processor
// idempotency key and the buyer's confirmation token, kept here by the claim.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("checkouts", (t) => {
    t.text("confirmation_token_id");
    t.timestamp("confirmed_at", { useTz: true });
  });
  await knex.raw("create index checkouts_confirmed_at on checkouts (confirmed_at) where status = 'confirmed'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop index if exists checkouts_confirmed_at");
  await knex.schema.alterTable("checkouts", (t) => {
    t.dropColumn("confirmed_at");
    t.dropColumn("confirmation_token_id");
  });
}
