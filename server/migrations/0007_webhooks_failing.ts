// Webhook endpoints that keep failing: when the current run of failed attempts began (cleared by
// a success), and the organization's notifications, where "this endpoint was disabled" is told.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("webhook_endpoints", (t) => {
    t.timestamp("failing_since", { useTz: true }).nullable();
  });
  await knex.schema.createTable("organization_notifications", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.uuid("organization_id").notNullable().references("organizations.id");
    t.text("type").notNullable();
    t.jsonb("payload").notNullable();
    t.index(["organization_id", "created_at"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("organization_notifications");
  await knex.schema.alterTable("webhook_endpoints", (t) => {
    t.dropColumn("failing_since");
  });
}
