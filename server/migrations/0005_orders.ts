// Orders with their line items, the payments recorded against them, refunds, customers' saved
// payment methods, and the per-organization invoice counter (one row locked FOR UPDATE while a
// number is taken, so numbers are gapless and never repeat).
import type { Knex } from "knex";

const ts = (t: Knex.CreateTableBuilder, knex: Knex) => {
  t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  t.timestamp("modified_at", { useTz: true }).nullable();
};

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("orders", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    ts(t, knex);
    t.uuid("organization_id").notNullable().references("organizations.id");
    // pending → paid → partially_refunded → refunded
    t.text("status").notNullable().defaultTo("pending");
    t.text("billing_reason").notNullable();
    t.text("currency").notNullable();
    t.bigInteger("subtotal_amount").notNullable().defaultTo(0);
    t.bigInteger("discount_amount").notNullable().defaultTo(0);
    t.bigInteger("tax_amount").notNullable().defaultTo(0);
    t.bigInteger("refunded_amount").notNullable().defaultTo(0);
    t.bigInteger("refunded_tax_amount").notNullable().defaultTo(0);
    t.text("billing_name");
    t.jsonb("billing_address");
    t.integer("invoice_number");
    t.boolean("is_invoice_generated").notNullable().defaultTo(false);
    t.text("invoice_path");
    t.uuid("customer_id").notNullable().references("customers.id");
    t.uuid("user_id");
    t.uuid("product_id").notNullable().references("products.id");
    t.uuid("product_price_id").references("product_prices.id");
    t.uuid("discount_id").references("discounts.id");
    t.uuid("subscription_id");
    t.uuid("checkout_id");
    t.jsonb("metadata").notNullable().defaultTo("{}");
    t.jsonb("custom_field_data").notNullable().defaultTo("{}");
    t.index(["organization_id", "created_at"]);
    t.index(["customer_id"]);
    t.index(["checkout_id"]);
    t.unique(["organization_id", "invoice_number"]);
  });
  // One order per checkout: a confirm that races another can never create a second.
  await knex.raw("create unique index orders_checkout_id_unique on orders (checkout_id) where checkout_id is not null");

  await knex.schema.createTable("order_items", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    ts(t, knex);
    t.uuid("order_id").notNullable().references("orders.id").onDelete("cascade");
    t.text("label").notNullable();
    t.bigInteger("amount").notNullable();
    t.bigInteger("tax_amount").notNullable().defaultTo(0);
    t.boolean("proration").notNullable().defaultTo(false);
    t.uuid("product_price_id").references("product_prices.id");
    t.integer("position").notNullable().defaultTo(0);
    t.index(["order_id"]);
  });

  await knex.schema.createTable("invoice_counters", (t) => {
    t.uuid("organization_id").primary().references("organizations.id");
    t.integer("last_number").notNullable().defaultTo(0);
  });

  await knex.schema.createTable("payments", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    ts(t, knex);
    t.uuid("organization_id").notNullable().references("organizations.id");
    t.text("processor").notNullable().defaultTo("stripe");
    // pending | succeeded | failed
    t.text("status").notNullable();
    t.bigInteger("amount").notNullable();
    t.text("currency").notNullable();
    t.text("method").notNullable();
    t.jsonb("method_metadata");
    t.text("decline_reason");
    t.text("decline_message");
    t.jsonb("processor_metadata").notNullable().defaultTo("{}");
    t.text("processor_ref");
    t.uuid("checkout_id");
    t.uuid("order_id").references("orders.id");
    t.index(["organization_id", "created_at"]);
    t.index(["order_id"]);
    t.index(["checkout_id"]);
  });

  await knex.schema.createTable("refunds", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    ts(t, knex);
    t.uuid("organization_id").notNullable().references("organizations.id");
    // pending | succeeded | failed | canceled
    t.text("status").notNullable();
    t.text("reason").notNullable();
    t.bigInteger("amount").notNullable();
    t.bigInteger("tax_amount").notNullable().defaultTo(0);
    t.text("currency").notNullable();
    t.uuid("order_id").notNullable().references("orders.id");
    t.uuid("subscription_id");
    t.uuid("customer_id").notNullable().references("customers.id");
    t.uuid("payment_id").references("payments.id");
    t.boolean("revoke_benefits").notNullable().defaultTo(false);
    t.text("comment");
    t.text("processor_ref");
    t.jsonb("metadata").notNullable().defaultTo("{}");
    t.index(["organization_id", "created_at"]);
    t.index(["order_id"]);
  });

  await knex.schema.createTable("payment_methods", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    ts(t, knex);
    t.uuid("organization_id").notNullable().references("organizations.id");
    t.uuid("customer_id").notNullable().references("customers.id");
    t.text("processor").notNullable().defaultTo("stripe");
    t.text("type").notNullable().defaultTo("card");
    t.jsonb("method_metadata").notNullable().defaultTo("{}");
    t.text("processor_ref").notNullable();
    t.boolean("is_default").notNullable().defaultTo(false);
    t.timestamp("deleted_at", { useTz: true });
    t.index(["customer_id", "created_at"]);
  });
  await knex.raw(
    "create unique index payment_methods_one_default on payment_methods (customer_id) where is_default and deleted_at is null",
  );
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ["payment_methods", "refunds", "payments", "invoice_counters", "order_items", "orders"]) {
    await knex.schema.dropTableIfExists(table);
  }
}
