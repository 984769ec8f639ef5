// The records of the authentication layer (better-auth) under our names (server/auth/tables.ts):
// users, sessions, accounts, verifications, members, invitations, teams, device codes and rate
// limit counters. better-auth's organization is our `organizations` row, so its settings columns
// get defaults and it gains better-auth's metadata. test/auth/schema.test.ts checks the fit.
import type { Knex } from "knex";
import { DEFAULT_FEATURE_SETTINGS, DEFAULT_NOTIFICATION_SETTINGS, DEFAULT_SUBSCRIPTION_SETTINGS } from "../organizations/models.js";

const id = (t: Knex.CreateTableBuilder, knex: Knex) => t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
const createdAt = (t: Knex.CreateTableBuilder, knex: Knex) =>
  t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("users", (t) => {
    id(t, knex);
    t.text("name").notNullable();
    t.text("email").notNullable().unique();
    t.boolean("email_verified").notNullable().defaultTo(false);
    t.text("image");
    createdAt(t, knex);
    t.timestamp("updated_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // username plugin (stored lowercased; display_username keeps the case the user typed)
    t.text("username").unique();
    t.text("display_username");
    // admin plugin
    t.text("role");
    t.boolean("banned").defaultTo(false);
    t.text("ban_reason");
    t.timestamp("ban_expires", { useTz: true });
  });

  await knex.schema.createTable("sessions", (t) => {
    id(t, knex);
    t.timestamp("expires_at", { useTz: true }).notNullable();
    t.text("token").notNullable().unique();
    createdAt(t, knex);
    t.timestamp("updated_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.text("ip_address");
    t.text("user_agent");
    t.uuid("user_id").notNullable().references("users.id").onDelete("cascade").index();
    // organization plugin
    t.text("active_organization_id");
    t.text("active_team_id");
    // admin plugin
    t.text("impersonated_by");
  });

  await knex.schema.createTable("accounts", (t) => {
    id(t, knex);
    t.text("account_id").notNullable();
    t.text("provider_id").notNullable();
    t.uuid("user_id").notNullable().references("users.id").onDelete("cascade").index();
    t.text("access_token");
    t.text("refresh_token");
    t.text("id_token");
    t.timestamp("access_token_expires_at", { useTz: true });
    t.timestamp("refresh_token_expires_at", { useTz: true });
    t.text("scope");
    t.text("password");
    createdAt(t, knex);
    t.timestamp("updated_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable("verifications", (t) => {
    id(t, knex);
    t.text("identifier").notNullable().index();
    t.text("value").notNullable();
    t.timestamp("expires_at", { useTz: true }).notNullable();
    createdAt(t, knex);
    t.timestamp("updated_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  // The organization plugin writes name, slug, avatar_url, created_at and metadata; the rest of an
  // organization starts from the same defaults POST /v1/organizations/ applies.
  await knex.schema.alterTable("organizations", (t) => {
    t.text("metadata");
    t.jsonb("feature_settings").notNullable().defaultTo(JSON.stringify(DEFAULT_FEATURE_SETTINGS)).alter();
    t.jsonb("subscription_settings").notNullable().defaultTo(JSON.stringify(DEFAULT_SUBSCRIPTION_SETTINGS)).alter();
    t.jsonb("notification_settings").notNullable().defaultTo(JSON.stringify(DEFAULT_NOTIFICATION_SETTINGS)).alter();
  });

  await knex.schema.createTable("members", (t) => {
    id(t, knex);
    t.uuid("organization_id").notNullable().references("organizations.id").onDelete("cascade").index();
    t.uuid("user_id").notNullable().references("users.id").onDelete("cascade").index();
    t.text("role").notNullable().defaultTo("member");
    createdAt(t, knex);
    t.unique(["organization_id", "user_id"]);
  });

  await knex.schema.createTable("invitations", (t) => {
    id(t, knex);
    t.uuid("organization_id").notNullable().references("organizations.id").onDelete("cascade").index();
    t.text("email").notNullable().index();
    t.text("role");
    t.text("team_id");
    t.text("status").notNullable().defaultTo("pending");
    t.timestamp("expires_at", { useTz: true }).notNullable();
    createdAt(t, knex);
    t.uuid("inviter_id").notNullable().references("users.id").onDelete("cascade");
  });

  await knex.schema.createTable("teams", (t) => {
    id(t, knex);
    t.text("name").notNullable();
    t.integer("member_count").notNullable().defaultTo(0);
    t.uuid("organization_id").notNullable().references("organizations.id").onDelete("cascade").index();
    createdAt(t, knex);
    t.timestamp("updated_at", { useTz: true });
  });

  await knex.schema.createTable("team_members", (t) => {
    id(t, knex);
    t.uuid("team_id").notNullable().references("teams.id").onDelete("cascade").index();
    t.uuid("user_id").notNullable().references("users.id").onDelete("cascade").index();
    t.text("membership_key").unique();
    t.timestamp("created_at", { useTz: true }).defaultTo(knex.fn.now());
  });

  await knex.schema.createTable("device_codes", (t) => {
    id(t, knex);
    t.text("device_code").notNullable();
    t.text("user_code").notNullable();
    t.text("user_id");
    t.timestamp("expires_at", { useTz: true }).notNullable();
    t.text("status").notNullable();
    t.timestamp("last_polled_at", { useTz: true });
    t.integer("polling_interval");
    t.text("client_id");
    t.text("scope");
    // Index names as better-auth declares them (its schema check compares them by name).
    t.unique(["device_code"], { indexName: "device_codes_device_code_uidx" });
    t.unique(["user_code"], { indexName: "device_codes_user_code_uidx" });
  });

  await knex.schema.createTable("rate_limits", (t) => {
    id(t, knex);
    t.text("key").notNullable().unique();
    t.integer("count").notNullable();
    t.bigInteger("last_request").notNullable().index();
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    "rate_limits",
    "device_codes",
    "team_members",
    "teams",
    "invitations",
    "members",
    "verifications",
    "accounts",
    "sessions",
    "users",
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
  await knex.raw(`alter table organizations drop column metadata,
    alter column feature_settings drop default,
    alter column subscription_settings drop default,
    alter column notification_settings drop default`);
}
