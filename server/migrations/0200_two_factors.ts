// better-auth's twoFactor plugin: a user's flag and their TOTP secret and backup codes (both
// encrypted by better-auth with BETTER_AUTH_SECRET), one row per user.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("users", (t) => {
    t.boolean("two_factor_enabled").defaultTo(false);
  });
  await knex.schema.createTable("two_factors", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    t.text("secret").notNullable().index();
    t.text("backup_codes").notNullable();
    t.uuid("user_id").notNullable().references("users.id").onDelete("cascade").index();
    t.boolean("verified").defaultTo(true);
    t.integer("failed_verification_count").defaultTo(0);
    t.timestamp("locked_until", { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("two_factors");
  await knex.schema.alterTable("users", (t) => {
    t.dropColumn("two_factor_enabled");
  });
}
