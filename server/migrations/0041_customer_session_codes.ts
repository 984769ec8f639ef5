// Sign-in codes of the customer portal (POST /v1/customer-portal/customer-session/request and
// /authenticate): each code is kept as its SHA-256 hash, works once until it expires. Every
// request is a row (with no code when the email is nobody's), so requests per email and per client
// can be counted; failed code attempts per client are rows of their own.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("customer_session_codes", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.uuid("organization_id").notNullable().references("organizations.id").onDelete("CASCADE");
    t.uuid("customer_id").nullable().references("customers.id").onDelete("CASCADE");
    t.text("email").notNullable();
    t.text("client_ip").nullable();
    t.text("code_hash").nullable().unique();
    t.timestamp("expires_at", { useTz: true }).notNullable();
    t.timestamp("used_at", { useTz: true }).nullable();
  });
  await knex.raw("create index customer_session_codes_email_idx on customer_session_codes (organization_id, lower(email), created_at)");
  await knex.raw("create index customer_session_codes_ip_idx on customer_session_codes (client_ip, created_at)");
  await knex.schema.createTable("customer_session_code_failures", (t) => {
    t.bigIncrements("id");
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.text("client_ip").notNullable();
    t.index(["client_ip", "created_at"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("customer_session_code_failures");
  await knex.schema.dropTable("customer_session_codes");
}
