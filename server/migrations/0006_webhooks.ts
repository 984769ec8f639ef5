// Webhooks: the merchants' endpoints (soft-deleted, disabled by a 410), one webhook event per
// outbox row and subscribed endpoint (the payload as sent, pending until delivered or given up),
// and one delivery row per HTTP attempt.
import type { Knex } from "knex";

const ts = (t: Knex.CreateTableBuilder, knex: Knex) => {
  t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  t.timestamp("modified_at", { useTz: true }).nullable();
};

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("webhook_endpoints", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    ts(t, knex);
    t.uuid("organization_id").notNullable().references("organizations.id");
    t.text("url").notNullable();
    t.text("format").notNullable();
    t.text("secret").notNullable();
    t.specificType("events", "text[]").notNullable().defaultTo("{}");
    t.boolean("enabled").notNullable().defaultTo(true);
    t.timestamp("deleted_at", { useTz: true });
    t.index(["organization_id", "created_at"]);
  });

  await knex.schema.createTable("webhook_events", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    ts(t, knex);
    t.uuid("organization_id").notNullable().references("organizations.id");
    t.uuid("endpoint_id").notNullable().references("webhook_endpoints.id");
    t.bigInteger("outbox_id").notNullable().references("outbox.id");
    t.text("type").notNullable();
    // The exact body bytes signed and sent (discord / slack bodies are derived from it).
    t.text("payload").notNullable();
    t.integer("last_http_code");
    t.boolean("succeeded");
    t.boolean("is_archived").notNullable().defaultTo(false);
    // Queued for the endpoint's delivery workflow: set by the fan-out and by a redelivery,
    // cleared when delivered or when the retry schedule is exhausted.
    t.boolean("pending").notNullable().defaultTo(true);
    // Times queued (fan-out, then each redelivery): settling names the queueing it finished, so a
    // redelivery requested while an attempt runs is not cleared by that attempt's settling.
    t.integer("queued").notNullable().defaultTo(1);
    // One event per outbox row and endpoint, however often a fan-out is retried.
    t.unique(["endpoint_id", "outbox_id"]);
  });
  await knex.raw("create index webhook_events_pending on webhook_events (endpoint_id, outbox_id) where pending");

  await knex.schema.createTable("webhook_deliveries", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    ts(t, knex);
    t.uuid("organization_id").notNullable().references("organizations.id");
    t.uuid("endpoint_id").notNullable().references("webhook_endpoints.id");
    t.uuid("webhook_event_id").notNullable().references("webhook_events.id");
    t.integer("http_code");
    t.text("response");
    t.boolean("succeeded").notNullable();
    t.index(["endpoint_id", "created_at"]);
    t.index(["organization_id", "created_at"]);
    t.index(["webhook_event_id"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ["webhook_deliveries", "webhook_events", "webhook_endpoints"]) {
    await knex.schema.dropTableIfExists(table);
  }
}
