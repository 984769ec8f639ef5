// Replaying an endpoint's failed events (POST /v1/webhooks/endpoints/{id}/replay) finds them by
// endpoint and creation time among the failed ones not queued: a partial index keeps that a
// small range read however many events the endpoint has delivered.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    "create index webhook_events_failed on webhook_events (endpoint_id, created_at) where succeeded = false and not pending and not is_archived",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop index if exists webhook_events_failed");
}
