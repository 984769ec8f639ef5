// Customers (soft-deleted; email and external id unique per organization among live rows,
// case-insensitively for email), the customer sessions that authenticate the portal (token
// hashes, expiring, revocable), and discounts with their product restrictions.
import type { Knex } from "knex";

const ts = (t: Knex.CreateTableBuilder, knex: Knex) => {
  t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  t.timestamp("modified_at", { useTz: true }).nullable();
};

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("customers", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    ts(t, knex);
    t.uuid("organization_id").notNullable().references("organizations.id");
    t.text("email").notNullable();
    t.boolean("email_verified").notNullable().defaultTo(false);
    t.text("name");
    t.text("billing_name");
    t.text("external_id");
    t.jsonb("billing_address");
    // [value, type] as the API carries it.
    t.jsonb("tax_id");
    t.jsonb("metadata").notNullable().defaultTo("{}");
    t.timestamp("deleted_at", { useTz: true });
    t.index(["organization_id", "created_at"]);
  });
  // A deleted customer frees its email and external id for a new customer.
  await knex.raw("create unique index customers_org_email on customers (organization_id, lower(email)) where deleted_at is null");
  await knex.raw(
    "create unique index customers_org_external_id on customers (organization_id, external_id) where deleted_at is null and external_id is not null",
  );

  await knex.schema.createTable("customer_sessions", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    ts(t, knex);
    t.uuid("customer_id").notNullable().references("customers.id").onDelete("cascade");
    t.text("token_hash").notNullable().unique();
    t.timestamp("expires_at", { useTz: true }).notNullable();
    t.timestamp("revoked_at", { useTz: true });
    t.index(["customer_id"]);
  });

  await knex.schema.createTable("discounts", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    ts(t, knex);
    t.uuid("organization_id").notNullable().references("organizations.id");
    t.text("name").notNullable();
    t.text("code");
    t.text("type").notNullable();
    t.bigInteger("amount");
    t.text("currency");
    t.integer("basis_points");
    t.text("duration").notNullable();
    t.integer("duration_in_months");
    t.timestamp("starts_at", { useTz: true });
    t.timestamp("ends_at", { useTz: true });
    t.integer("max_redemptions");
    t.integer("redemptions_count").notNullable().defaultTo(0);
    t.jsonb("metadata").notNullable().defaultTo("{}");
    t.timestamp("deleted_at", { useTz: true });
    t.index(["organization_id", "created_at"]);
  });
  await knex.raw(
    "create unique index discounts_org_code on discounts (organization_id, lower(code)) where deleted_at is null and code is not null",
  );

  await knex.schema.createTable("discount_products", (t) => {
    t.uuid("discount_id").notNullable().references("discounts.id").onDelete("cascade");
    t.uuid("product_id").notNullable().references("products.id").onDelete("cascade");
    t.primary(["discount_id", "product_id"]);
    t.index(["product_id"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ["discount_products", "discounts", "customer_sessions", "customers"]) {
    await knex.schema.dropTableIfExists(table);
  }
}
