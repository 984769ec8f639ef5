// License keys: one per license_keys benefit grant (key unique per organization), with their
// status, limits, usage and validation counters, and the activations (instances) of a key,
// soft-deleted on deactivation so a deactivated instance is gone for every read.
import type { Knex } from "knex";

const ts = (t: Knex.CreateTableBuilder, knex: Knex) => {
  t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  t.timestamp("modified_at", { useTz: true }).nullable();
};

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("license_keys", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    ts(t, knex);
    t.uuid("organization_id").notNullable().references("organizations.id");
    t.uuid("customer_id").notNullable().references("customers.id");
    t.uuid("benefit_id").notNullable().references("benefits.id");
    t.text("key").notNullable();
    t.text("display_key").notNullable();
    t.text("status").notNullable().defaultTo("granted");
    t.integer("limit_activations");
    t.integer("usage").notNullable().defaultTo(0);
    t.integer("limit_usage");
    t.integer("validations").notNullable().defaultTo(0);
    t.timestamp("last_validated_at", { useTz: true });
    t.timestamp("expires_at", { useTz: true });
    t.unique(["organization_id", "key"]);
    t.index(["organization_id", "created_at"]);
    t.index(["customer_id"]);
    t.index(["benefit_id"]);
  });
  await knex.raw("alter table license_keys add constraint license_keys_status check (status in ('granted', 'revoked', 'disabled'))");

  await knex.schema.createTable("license_key_activations", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    ts(t, knex);
    t.uuid("license_key_id").notNullable().references("license_keys.id").onDelete("cascade");
    t.text("label").notNullable();
    t.jsonb("conditions").notNullable().defaultTo("{}");
    t.jsonb("meta").notNullable().defaultTo("{}");
    t.timestamp("deleted_at", { useTz: true });
    t.index(["license_key_id", "created_at"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("license_key_activations");
  await knex.schema.dropTableIfExists("license_keys");
}
