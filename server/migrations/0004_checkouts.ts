// Checkout links (with their product lists), checkout sessions (with theirs), the payment
// processor's customer ids per Borealis customer, and the processor webhook events already
// applied (a replayed event is skipped).
import type { Knex } from "knex";

const ts = (t: Knex.CreateTableBuilder, knex: Knex) => {
  t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  t.timestamp("modified_at", { useTz: true }).nullable();
};

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("checkout_links", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    ts(t, knex);
    t.uuid("organization_id").notNullable().references("organizations.id");
    t.text("client_secret").notNullable().unique();
    t.text("payment_processor").notNullable().defaultTo("stripe");
    t.text("label");
    t.text("success_url");
    t.boolean("allow_discount_codes").notNullable().defaultTo(true);
    t.boolean("require_billing_address").notNullable().defaultTo(false);
    t.uuid("discount_id").references("discounts.id");
    // A link made from one price keeps it: the checkout it opens starts on that price.
    t.uuid("product_price_id").references("product_prices.id");
    t.jsonb("metadata").notNullable().defaultTo("{}");
    t.timestamp("deleted_at", { useTz: true });
    t.index(["organization_id", "created_at"]);
  });
  await knex.schema.createTable("checkout_link_products", (t) => {
    t.uuid("checkout_link_id").notNullable().references("checkout_links.id").onDelete("cascade");
    t.uuid("product_id").notNullable().references("products.id").onDelete("cascade");
    t.integer("order").notNullable();
    t.primary(["checkout_link_id", "product_id"]);
  });

  await knex.schema.createTable("checkouts", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    ts(t, knex);
    t.uuid("organization_id").notNullable().references("organizations.id");
    t.text("client_secret").notNullable().unique();
    t.text("payment_processor").notNullable().defaultTo("stripe");
    // open → confirmed → succeeded | failed; "expired" is computed from expires_at on read.
    t.text("status").notNullable().defaultTo("open");
    t.timestamp("expires_at", { useTz: true }).notNullable();
    t.text("success_url");
    t.text("embed_origin");
    t.bigInteger("amount").notNullable().defaultTo(0);
    t.text("currency").notNullable();
    t.uuid("product_id").notNullable().references("products.id");
    t.uuid("product_price_id").notNullable().references("product_prices.id");
    t.uuid("discount_id").references("discounts.id");
    // Whether the discount was put there by the merchant (the buyer can't remove it then).
    t.boolean("discount_locked").notNullable().defaultTo(false);
    t.boolean("allow_discount_codes").notNullable().defaultTo(true);
    t.boolean("require_billing_address").notNullable().defaultTo(false);
    t.uuid("customer_id").references("customers.id");
    t.boolean("is_business_customer").notNullable().defaultTo(false);
    t.text("customer_name");
    t.text("customer_email");
    t.text("customer_ip_address");
    t.text("customer_billing_name");
    t.jsonb("customer_billing_address");
    t.jsonb("customer_tax_id");
    t.text("external_customer_id");
    t.uuid("subscription_id");
    t.uuid("checkout_link_id").references("checkout_links.id");
    t.jsonb("payment_processor_metadata").notNullable().defaultTo("{}");
    t.jsonb("metadata").notNullable().defaultTo("{}");
    t.jsonb("customer_metadata").notNullable().defaultTo("{}");
    t.jsonb("custom_field_data").notNullable().defaultTo("{}");
    // The processor's reference of the charge, once made.
    t.text("payment_ref");
    t.index(["organization_id", "created_at"]);
    t.index(["customer_id"]);
  });
  await knex.schema.createTable("checkout_products", (t) => {
    t.uuid("checkout_id").notNullable().references("checkouts.id").onDelete("cascade");
    t.uuid("product_id").notNullable().references("products.id").onDelete("cascade");
    t.integer("order").notNullable();
    t.primary(["checkout_id", "product_id"]);
  });

  await knex.schema.createTable("processor_customers", (t) => {
    t.uuid("customer_id").notNullable().references("customers.id").onDelete("cascade");
    t.text("processor").notNullable();
    t.text("processor_customer_id").notNullable();
    ts(t, knex);
    t.primary(["customer_id", "processor"]);
  });

  await knex.schema.createTable("processed_events", (t) => {
    t.text("processor").notNullable();
    t.text("event_id").notNullable();
    t.text("type").notNullable();
    t.timestamp("processed_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(["processor", "event_id"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    "processed_events",
    "processor_customers",
    "checkout_products",
    "checkouts",
    "checkout_link_products",
    "checkout_links",
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
