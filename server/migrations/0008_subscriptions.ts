// Subscriptions and what keeps their billing exact: the subscription row (period, anchor, dunning
// state, the order being charged), its prices, the unique index that makes a second order for
// one period impossible, and billing test clocks (sandbox only) that customers can be bound to.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("test_clocks", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("modified_at", { useTz: true }).nullable();
    t.uuid("organization_id").notNullable().references("organizations.id");
    t.text("name");
    t.timestamp("frozen_time", { useTz: true }).notNullable();
    t.timestamp("deleted_at", { useTz: true });
    t.index(["organization_id", "created_at"]);
  });
  await knex.schema.alterTable("customers", (t) => {
    t.uuid("test_clock_id").references("test_clocks.id");
  });

  await knex.schema.createTable("subscriptions", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("modified_at", { useTz: true }).nullable();
    t.uuid("organization_id").notNullable().references("organizations.id");
    t.uuid("customer_id").notNullable().references("customers.id");
    t.uuid("product_id").notNullable().references("products.id");
    t.uuid("discount_id").references("discounts.id");
    // When the current discount was attached: its duration counts from here.
    t.timestamp("discount_applied_at", { useTz: true });
    t.uuid("checkout_id");
    // incomplete | incomplete_expired | trialing | active | past_due | canceled | unpaid
    t.text("status").notNullable();
    t.bigInteger("amount").notNullable();
    t.text("currency").notNullable();
    t.text("recurring_interval").notNullable();
    // Periods are anchor + n intervals (month ends clamped), never "previous end + 1 month".
    t.timestamp("billing_anchor", { useTz: true }).notNullable();
    t.integer("period_index").notNullable().defaultTo(0);
    t.timestamp("current_period_start", { useTz: true }).notNullable();
    t.timestamp("current_period_end", { useTz: true });
    t.boolean("cancel_at_period_end").notNullable().defaultTo(false);
    t.timestamp("canceled_at", { useTz: true });
    t.timestamp("started_at", { useTz: true });
    t.timestamp("ends_at", { useTz: true });
    t.timestamp("ended_at", { useTz: true });
    t.text("customer_cancellation_reason");
    t.text("customer_cancellation_comment");
    t.jsonb("metadata").notNullable().defaultTo("{}");
    t.jsonb("custom_field_data").notNullable().defaultTo("{}");
    t.uuid("payment_method_id").references("payment_methods.id");
    t.uuid("test_clock_id").references("test_clocks.id");
    // The order whose charge is in flight (a cycle or a proration invoice): set in the
    // transaction that creates the order, cleared in the one that records the outcome. While
    // set, changes answer SubscriptionLocked, and a restarted cycle resumes this charge.
    t.uuid("pending_order_id");
    // Dunning: failed attempts of the unpaid order so far (0 when nothing is owed).
    t.integer("dunning_attempts").notNullable().defaultTo(0);
    // Proration lines (prorate mode) waiting for the next cycle's order: [{label, amount, product_price_id}].
    t.jsonb("pending_prorations").notNullable().defaultTo("[]");
    // Set once the lifecycle workflow is known to run; a sweep starts the ones that are not.
    t.timestamp("workflow_started_at", { useTz: true });
    t.index(["organization_id", "created_at"]);
    t.index(["customer_id"]);
    t.index(["status", "current_period_end"]);
  });

  await knex.schema.createTable("subscription_prices", (t) => {
    t.uuid("subscription_id").notNullable().references("subscriptions.id").onDelete("cascade");
    t.uuid("product_price_id").notNullable().references("product_prices.id");
    t.integer("position").notNullable().defaultTo(0);
    t.primary(["subscription_id", "product_price_id"]);
  });

  await knex.schema.alterTable("orders", (t) => {
    // The period an order bills (cycles) and, while dunning, when its payment is tried next.
    t.timestamp("billing_period_start", { useTz: true });
    t.timestamp("next_payment_attempt_at", { useTz: true });
    t.index(["subscription_id"]);
  });
  // One renewal order per subscription and period: billing twice for one period is impossible.
  await knex.raw(
    `create unique index orders_subscription_period_unique on orders (subscription_id, billing_period_start)
     where billing_reason = 'subscription_cycle'`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop index if exists orders_subscription_period_unique");
  await knex.schema.alterTable("orders", (t) => {
    t.dropIndex(["subscription_id"]);
    t.dropColumn("billing_period_start");
    t.dropColumn("next_payment_attempt_at");
  });
  await knex.schema.dropTableIfExists("subscription_prices");
  await knex.schema.dropTableIfExists("subscriptions");
  await knex.schema.alterTable("customers", (t) => {
    t.dropColumn("test_clock_id");
  });
  await knex.schema.dropTableIfExists("test_clocks");
}
