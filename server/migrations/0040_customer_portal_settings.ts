// Which customer portal sections an organization's customers get (orders, subscriptions,
// benefits, usage, payment methods, billing details): all on unless the merchant switches one off.
import type { Knex } from "knex";
import { DEFAULT_CUSTOMER_PORTAL_SETTINGS } from "../organizations/models.js";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("organizations", (t) => {
    t.jsonb("customer_portal_settings").notNullable().defaultTo(JSON.stringify(DEFAULT_CUSTOMER_PORTAL_SETTINGS));
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("organizations", (t) => {
    t.dropColumn("customer_portal_settings");
  });
}
