// Organizations, access tokens, the catalog tables products point at, products and prices,
// and the outbox that every state change writes its webhook events into.
import type { Knex } from "knex";

const ts = (t: Knex.CreateTableBuilder, knex: Knex) => {
  t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  t.timestamp("modified_at", { useTz: true }).nullable();
};

export async function up(knex: Knex): Promise<void> {
  await knex.raw('create extension if not exists "pgcrypto"');

  await knex.schema.createTable("organizations", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    ts(t, knex);
    t.text("name").notNullable();
    t.text("slug").notNullable().unique();
    t.text("avatar_url");
    t.text("email");
    t.text("website");
    t.jsonb("socials").notNullable().defaultTo("[]");
    t.text("status").notNullable().defaultTo("created");
    t.timestamp("details_submitted_at", { useTz: true });
    t.jsonb("details");
    t.jsonb("feature_settings").notNullable();
    t.jsonb("subscription_settings").notNullable();
    t.jsonb("notification_settings").notNullable();
  });

  await knex.schema.createTable("organization_access_tokens", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    ts(t, knex);
    t.uuid("organization_id").notNullable().references("organizations.id").onDelete("cascade");
    t.text("comment").notNullable().defaultTo("");
    t.text("token_hash").notNullable().unique();
    t.specificType("scopes", "text[]").notNullable();
    t.timestamp("expires_at", { useTz: true });
    t.timestamp("last_used_at", { useTz: true });
    t.timestamp("revoked_at", { useTz: true });
  });

  await knex.schema.createTable("files", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    ts(t, knex);
    t.uuid("organization_id").notNullable().references("organizations.id");
    t.text("name").notNullable();
    t.text("path").notNullable();
    t.text("mime_type").notNullable();
    t.bigInteger("size").notNullable();
    t.text("storage_version");
    t.text("checksum_etag");
    t.text("checksum_sha256_base64");
    t.text("checksum_sha256_hex");
    t.timestamp("last_modified_at", { useTz: true });
    t.text("version");
    t.text("service").notNullable();
    t.boolean("is_uploaded").notNullable().defaultTo(false);
    t.timestamp("deleted_at", { useTz: true });
    t.index(["organization_id"]);
  });

  await knex.schema.createTable("custom_fields", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    ts(t, knex);
    t.uuid("organization_id").notNullable().references("organizations.id");
    t.text("type").notNullable();
    t.text("slug").notNullable();
    t.text("name").notNullable();
    t.jsonb("metadata").notNullable().defaultTo("{}");
    t.jsonb("properties").notNullable().defaultTo("{}");
    t.timestamp("deleted_at", { useTz: true });
  });
  await knex.raw("create unique index custom_fields_org_slug on custom_fields (organization_id, lower(slug)) where deleted_at is null");

  await knex.schema.createTable("benefits", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    ts(t, knex);
    t.uuid("organization_id").notNullable().references("organizations.id");
    t.text("type").notNullable();
    t.text("description").notNullable();
    t.boolean("selectable").notNullable().defaultTo(true);
    t.boolean("deletable").notNullable().defaultTo(true);
    t.jsonb("metadata").notNullable().defaultTo("{}");
    t.jsonb("properties").notNullable().defaultTo("{}");
    t.timestamp("deleted_at", { useTz: true });
    t.index(["organization_id"]);
  });

  await knex.schema.createTable("meters", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    ts(t, knex);
    t.uuid("organization_id").notNullable().references("organizations.id");
    t.text("name").notNullable();
    t.jsonb("filter").notNullable();
    t.jsonb("aggregation").notNullable();
    t.jsonb("metadata").notNullable().defaultTo("{}");
    t.timestamp("archived_at", { useTz: true });
    t.index(["organization_id"]);
  });

  await knex.schema.createTable("products", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    ts(t, knex);
    t.uuid("organization_id").notNullable().references("organizations.id");
    t.text("name").notNullable();
    t.text("description");
    t.text("recurring_interval");
    t.boolean("is_archived").notNullable().defaultTo(false);
    t.jsonb("metadata").notNullable().defaultTo("{}");
    t.index(["organization_id", "created_at"]);
  });

  await knex.schema.createTable("product_prices", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    ts(t, knex);
    t.uuid("product_id").notNullable().references("products.id").onDelete("cascade");
    t.text("amount_type").notNullable();
    t.text("price_currency");
    t.integer("price_amount");
    t.integer("minimum_amount");
    t.integer("maximum_amount");
    t.integer("preset_amount");
    t.decimal("unit_amount", 24, 12);
    t.integer("cap_amount");
    t.uuid("meter_id").references("meters.id");
    t.boolean("is_archived").notNullable().defaultTo(false);
    t.integer("position").notNullable().defaultTo(0);
    t.index(["product_id"]);
  });

  await knex.schema.createTable("product_benefits", (t) => {
    t.uuid("product_id").notNullable().references("products.id").onDelete("cascade");
    t.uuid("benefit_id").notNullable().references("benefits.id").onDelete("cascade");
    t.integer("order").notNullable();
    t.primary(["product_id", "benefit_id"]);
    t.index(["benefit_id"]);
  });

  await knex.schema.createTable("product_medias", (t) => {
    t.uuid("product_id").notNullable().references("products.id").onDelete("cascade");
    t.uuid("file_id").notNullable().references("files.id").onDelete("cascade");
    t.integer("order").notNullable();
    t.primary(["product_id", "file_id"]);
  });

  await knex.schema.createTable("product_custom_fields", (t) => {
    t.uuid("product_id").notNullable().references("products.id").onDelete("cascade");
    t.uuid("custom_field_id").notNullable().references("custom_fields.id").onDelete("cascade");
    t.integer("order").notNullable();
    t.boolean("required").notNullable();
    t.primary(["product_id", "custom_field_id"]);
  });

  await knex.schema.createTable("outbox", (t) => {
    t.bigIncrements("id").primary();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.uuid("organization_id").notNullable().references("organizations.id");
    t.text("type").notNullable();
    t.jsonb("payload").notNullable();
    t.timestamp("published_at", { useTz: true });
  });
  await knex.raw("create index outbox_unpublished on outbox (id) where published_at is null");
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    "outbox",
    "product_custom_fields",
    "product_medias",
    "product_benefits",
    "product_prices",
    "products",
    "meters",
    "benefits",
    "custom_fields",
    "files",
    "organization_access_tokens",
    "organizations",
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
