// A portal customer's pending email change (customer_portal:customers:request_email_update): the
// new address and the SHA-256 hash of the code sent to it. One per customer; the code works once,
// until it expires, and its row goes when it is used or a new one is asked for.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("customer_email_verifications", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.uuid("organization_id").notNullable().references("organizations.id").onDelete("CASCADE");
    t.uuid("customer_id").notNullable().unique().references("customers.id").onDelete("CASCADE");
    t.text("email").notNullable();
    t.text("token_hash").notNullable().unique();
    t.timestamp("expires_at", { useTz: true }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("customer_email_verifications");
}
