// The lease a confirm holds on its checkout from its claim to its outcome (server/checkouts/lease.ts):
// who may write the outcome (confirm_lease_id) and until when its holder is known alive
// (confirm_lease_until, renewed while the charge step runs). The worker's recovery takes over a
// confirmed checkout once its lease lapsed. Checkouts claimed without one keep the former rule:
// taken over 2 minutes after their claim.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("checkouts", (t) => {
    t.uuid("confirm_lease_id");
    t.timestamp("confirm_lease_until", { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("checkouts", (t) => {
    t.dropColumn("confirm_lease_until");
    t.dropColumn("confirm_lease_id");
  });
}
