// The catalog around products: benefit grants (written by the subscriptions issue, listed here),
// the usage events meters aggregate (ingestion is the events issue; the table is created here
// when it does not exist yet), and the multipart-upload bookkeeping of files.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("benefit_grants", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("modified_at", { useTz: true }).nullable();
    t.uuid("benefit_id").notNullable().references("benefits.id");
    // customers, subscriptions and orders arrive with their own migrations: plain uuids here.
    t.uuid("customer_id").notNullable();
    t.uuid("subscription_id");
    t.uuid("order_id");
    t.timestamp("granted_at", { useTz: true });
    t.timestamp("revoked_at", { useTz: true });
    t.jsonb("properties").notNullable().defaultTo("{}");
    t.jsonb("error");
    t.index(["benefit_id", "created_at"]);
    t.index(["customer_id"]);
  });
  // One grant per benefit, customer and granting scope: granting twice is impossible.
  await knex.raw(
    "create unique index benefit_grants_subscription_scope on benefit_grants (benefit_id, customer_id, subscription_id) where subscription_id is not null",
  );
  await knex.raw(
    "create unique index benefit_grants_order_scope on benefit_grants (benefit_id, customer_id, order_id) where order_id is not null",
  );

  if (!(await knex.schema.hasTable("events"))) {
    await knex.schema.createTable("events", (t) => {
      t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
      t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.timestamp("timestamp", { useTz: true }).notNullable();
      t.uuid("organization_id").notNullable().references("organizations.id");
      t.uuid("customer_id");
      t.text("external_customer_id");
      t.text("name").notNullable();
      t.text("source").notNullable().defaultTo("user");
      t.jsonb("metadata").notNullable().defaultTo("{}");
      t.index(["organization_id", "timestamp"]);
      t.index(["organization_id", "name"]);
      t.index(["customer_id"]);
      t.index(["organization_id", "external_customer_id"]);
    });
  }

  await knex.schema.alterTable("files", (t) => {
    // The storage's multipart upload id and the parts declared at creation (number, range,
    // sha256), checked again when the upload completes.
    t.text("upload_id");
    t.jsonb("upload_parts");
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("files", (t) => {
    t.dropColumn("upload_id");
    t.dropColumn("upload_parts");
  });
  await knex.schema.dropTableIfExists("benefit_grants");
  // events is left in place: the events issue owns it from here on.
}
