// The OAuth2 / OpenID Connect provider's records (better-auth's oauth-provider and jwt plugins,
// under our names: server/auth/tables.ts): signing keys, clients, protected resources, refresh and
// access tokens (stored as hashes), consents, and the replay guard of signed client assertions.
// Lists of strings are jsonb, as better-auth keeps them. test/auth/schema.test.ts checks them.
import type { Knex } from "knex";

const id = (t: Knex.CreateTableBuilder, knex: Knex) => t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
const at = (t: Knex.CreateTableBuilder, name: string) => t.timestamp(name, { useTz: true });

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("jwks", (t) => {
    id(t, knex);
    t.text("public_key").notNullable();
    t.text("private_key").notNullable();
    at(t, "created_at").notNullable().defaultTo(knex.fn.now());
    at(t, "expires_at");
    t.text("alg");
    t.text("crv");
  });

  await knex.schema.createTable("oauth_clients", (t) => {
    id(t, knex);
    t.text("client_id").notNullable().unique();
    t.text("client_secret");
    t.text("client_discovery_id");
    t.boolean("disabled").defaultTo(false);
    t.boolean("skip_consent");
    t.boolean("enable_end_session");
    t.text("subject_type");
    t.jsonb("scopes");
    t.jsonb("client_credentials_scopes").defaultTo("[]");
    t.uuid("user_id").references("users.id").onDelete("set null").index();
    at(t, "created_at").defaultTo(knex.fn.now());
    at(t, "updated_at");
    t.text("name");
    t.text("uri");
    t.text("icon");
    t.jsonb("contacts");
    t.text("tos");
    t.text("policy");
    t.text("software_id");
    t.text("software_version");
    t.text("software_statement");
    t.jsonb("redirect_uris").notNullable();
    t.jsonb("post_logout_redirect_uris");
    t.text("backchannel_logout_uri");
    t.boolean("backchannel_logout_session_required");
    t.text("token_endpoint_auth_method");
    t.text("application_type");
    t.text("jwks");
    t.text("jwks_uri");
    t.jsonb("grant_types");
    t.jsonb("response_types");
    t.boolean("require_pkce");
    t.boolean("dpop_bound_access_tokens").defaultTo(false);
    // The organization the client belongs to (the one active when it was registered).
    t.text("reference_id").index();
    t.jsonb("metadata");
  });

  await knex.schema.createTable("oauth_resources", (t) => {
    id(t, knex);
    t.text("identifier").notNullable().unique();
    t.text("name").notNullable();
    t.integer("access_token_ttl");
    t.integer("refresh_token_ttl");
    t.text("signing_algorithm");
    t.text("signing_key_id");
    t.jsonb("allowed_scopes");
    t.jsonb("custom_claims");
    t.boolean("dpop_bound_access_tokens_required").defaultTo(false);
    t.boolean("disabled").defaultTo(false);
    at(t, "created_at").defaultTo(knex.fn.now());
    at(t, "updated_at");
    t.integer("policy_version").defaultTo(1);
    t.jsonb("metadata");
  });

  await knex.schema.createTable("oauth_client_resources", (t) => {
    id(t, knex);
    t.text("client_id").notNullable().references("oauth_clients.client_id").onDelete("cascade").index();
    t.text("resource_id").notNullable().references("oauth_resources.identifier").onDelete("cascade").index();
    t.jsonb("metadata");
    at(t, "created_at").defaultTo(knex.fn.now());
    t.unique(["client_id", "resource_id"], { indexName: "oauth_client_resources_client_id_resource_id_uidx" });
  });

  const tokenColumns = (t: Knex.CreateTableBuilder) => {
    id(t, knex);
    t.text("token").notNullable().unique();
    t.text("client_id").notNullable().references("oauth_clients.client_id").onDelete("cascade").index();
    t.uuid("session_id").references("sessions.id").onDelete("set null").index();
    t.text("reference_id");
    t.text("authorization_code_id").index();
    t.jsonb("resources");
    t.jsonb("requested_user_info_claims");
    at(t, "expires_at").notNullable();
    at(t, "created_at").notNullable().defaultTo(knex.fn.now());
    at(t, "revoked");
    t.jsonb("confirmation");
    t.jsonb("scopes").notNullable();
  };

  await knex.schema.createTable("oauth_refresh_tokens", (t) => {
    tokenColumns(t);
    t.uuid("user_id").notNullable().references("users.id").onDelete("cascade").index();
    at(t, "rotated_at");
    t.text("rotation_replay_response");
    at(t, "rotation_replay_expires_at");
    at(t, "auth_time");
  });

  await knex.schema.createTable("oauth_access_tokens", (t) => {
    tokenColumns(t);
    t.uuid("user_id").references("users.id").onDelete("cascade").index();
    t.uuid("refresh_id").references("oauth_refresh_tokens.id").onDelete("cascade").index();
  });

  await knex.schema.createTable("oauth_consents", (t) => {
    id(t, knex);
    t.text("client_id").notNullable().references("oauth_clients.client_id").onDelete("cascade").index();
    t.uuid("user_id").references("users.id").onDelete("cascade").index();
    t.text("reference_id");
    t.jsonb("resources");
    t.jsonb("requested_user_info_claims");
    t.jsonb("scopes").notNullable();
    at(t, "created_at").notNullable().defaultTo(knex.fn.now());
    at(t, "updated_at").notNullable().defaultTo(knex.fn.now());
  });

  // Its id is the assertion's jti (with its namespace), not a generated uuid.
  await knex.schema.createTable("oauth_client_assertions", (t) => {
    t.text("id").primary();
    at(t, "expires_at").notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    "oauth_client_assertions",
    "oauth_consents",
    "oauth_access_tokens",
    "oauth_refresh_tokens",
    "oauth_client_resources",
    "oauth_resources",
    "oauth_clients",
    "jwks",
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
