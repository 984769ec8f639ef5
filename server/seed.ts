// The demo organization `make run` starts with: a few products covering every price type.
// Idempotent: an existing demo organization is kept as it is; a fresh token is minted each time.
import type { Knex } from "knex";
import { mintOrganizationToken, type OrganizationCaller } from "./kit/auth.js";
import { createOrganization } from "./organizations/service.js";
import { createProduct } from "./products/service.js";

export const DEMO_SLUG = "demo";

export async function seedDemo(knex: Knex): Promise<{ organization: { id: string; slug: string }; token: string }> {
  let org = await knex("organizations").where({ slug: DEMO_SLUG }).first("id", "slug");
  if (!org) {
    const created = await createOrganization(knex, {
      name: "Demo Inc.",
      slug: DEMO_SLUG,
      email: "billing@demo.example",
      website: "https://demo.example",
      socials: [{ platform: "github", url: "https://github.com/demo" }],
      details: {
        about: "A demo seller of developer tools.",
        product_description: "Subscriptions and one-time licenses for developer tools.",
        intended_use: "Selling software.",
        customer_acquisition: ["website"],
        future_annual_revenue: 100_000_00,
        switching: false,
        previous_annual_revenue: 0,
      },
      subscription_settings: { allow_multiple_subscriptions: false, allow_customer_updates: true, proration_behavior: "prorate" },
      notification_settings: { new_order: true, new_subscription: true },
    });
    org = { id: created.id, slug: created.slug };
    const caller: OrganizationCaller = { kind: "organization", organizationId: org.id, tokenId: "seed", scopes: new Set() };
    const [meter] = await knex("meters")
      .insert({
        organization_id: org.id,
        name: "API calls",
        filter: JSON.stringify({ conjunction: "and", clauses: [{ property: "name", operator: "eq", value: "api_call" }] }),
        aggregation: JSON.stringify({ func: "count" }),
      })
      .returning("id");
    await createProduct(knex, caller, {
      name: "Pro (monthly)",
      description: "Everything, billed monthly.",
      recurring_interval: "month",
      prices: [{ amount_type: "fixed", price_amount: 1900, price_currency: "usd" }],
      metadata: { tier: "pro" },
    });
    await createProduct(knex, caller, {
      name: "Pro (yearly)",
      description: "Everything, billed yearly.",
      recurring_interval: "year",
      prices: [{ amount_type: "fixed", price_amount: 19000, price_currency: "usd" }],
      metadata: { tier: "pro" },
    });
    await createProduct(knex, caller, {
      name: "Lifetime license",
      description: "Pay once, use forever.",
      recurring_interval: null,
      prices: [{ amount_type: "fixed", price_amount: 9900, price_currency: "usd" }],
    });
    await createProduct(knex, caller, {
      name: "Pay what you want",
      recurring_interval: null,
      prices: [{ amount_type: "custom", price_currency: "usd", minimum_amount: 500, maximum_amount: 50000, preset_amount: 1500 }],
    });
    await createProduct(knex, caller, {
      name: "API (usage based)",
      recurring_interval: "month",
      prices: [
        { amount_type: "free" },
        { amount_type: "metered_unit", meter_id: meter.id, unit_amount: "0.5", cap_amount: 100000, price_currency: "usd" },
      ],
    });
  }
  const token = await mintOrganizationToken(knex, org.id, { comment: "demo token (make run)" });
  return { organization: org, token };
}
