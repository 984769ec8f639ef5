// Processor webhook events already applied (processed_events): each one is applied once.
import type { Knex } from "knex";

/** Records the event as processed; false when it already was. */
export async function insertProcessed(knex: Knex, processor: string, event: { id: string; type: string }): Promise<boolean> {
  const rows = await knex("processed_events")
    .insert({ processor, event_id: event.id, type: event.type })
    .onConflict(["processor", "event_id"])
    .ignore()
    .returning("event_id");
  return rows.length === 1;
}

export async function isProcessed(knex: Knex, processor: string, eventId: string): Promise<boolean> {
  return Boolean(await knex("processed_events").where({ processor, event_id: eventId }).first());
}
