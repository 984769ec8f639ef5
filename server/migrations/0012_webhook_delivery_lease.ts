// Which run may deliver an endpoint's queued events right now: the lease of a run of first
// attempts (the fan-out's direct run in a worker, or the endpoint workflow's own run), so two
// runs, in one worker process or in two, never work one endpoint's queue at once (event order).
// A lease expires by itself: a run lost with its worker holds the endpoint only that long.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("webhook_endpoints", (t) => {
    t.uuid("delivery_lease").nullable();
    t.timestamp("delivery_lease_until", { useTz: true }).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("webhook_endpoints", (t) => {
    t.dropColumn("delivery_lease_until");
    t.dropColumn("delivery_lease");
  });
}
