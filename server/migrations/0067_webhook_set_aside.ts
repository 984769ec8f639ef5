// Ordered webhook delivery with a bounded hold: an event that failed for longer than its
// endpoint's hold (WEBHOOK_HOLD_MS) is set aside, out of the endpoint's ordered queue, and retried
// on its own (workflows/workflows/webhook-event.ts). `set_aside_at` says when; it stays pending
// until that schedule ends, and a redelivery clears it. The queue's partial index becomes two that
// split the pending rows: the ordered queue's (every head read), and the few set aside.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("alter table webhook_events add column set_aside_at timestamptz");
  await knex.raw("create index webhook_events_queue on webhook_events (endpoint_id, outbox_id) where pending and set_aside_at is null");
  await knex.raw(
    "create index webhook_events_set_aside on webhook_events (endpoint_id, outbox_id) where pending and set_aside_at is not null",
  );
  await knex.raw("drop index if exists webhook_events_pending");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("create index if not exists webhook_events_pending on webhook_events (endpoint_id, outbox_id) where pending");
  await knex.raw("drop index if exists webhook_events_set_aside");
  await knex.raw("drop index if exists webhook_events_queue");
  await knex.raw("alter table webhook_events drop column if exists set_aside_at");
}
