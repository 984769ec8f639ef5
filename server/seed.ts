// The demo organization `make run` starts with: a few products covering every price type, and a
// checkout link for the lifetime license (which grants a license key) that a new user opens and
// pays with a sandbox test card. Idempotent: an existing demo organization is kept as it is (its
// checkout link made if it has none); a fresh token is minted each time.
import type { Knex } from "knex";
import { type OrganizationCaller } from "./kit/auth.js";
import { mintOrganizationToken } from "./organization-access-tokens/service.js";
import { createOrganization } from "./organizations/service.js";
import { createBenefit } from "./benefits/service.js";
import { createCheckoutLink } from "./checkout-links/service.js";
import { checkoutLinkUrl } from "./checkout-links/models.js";
import { findSecretByLabel } from "./checkout-links/repository.js";
import { insert as insertMeter } from "./meters/repository.js";
import { findBySlug } from "./organizations/repository.js";
import { findUnarchivedByName } from "./products/repository.js";
import { createProduct, updateProductBenefits } from "./products/service.js";

export const DEMO_SLUG = "demo";
const DEMO_LINK_LABEL = "Demo: lifetime license";

/** The demo's checkout link (made once): the lifetime license, with a license key benefit. */
async function demoCheckoutLink(knex: Knex, organizationId: string): Promise<string> {
  const existing = await findSecretByLabel(knex, organizationId, DEMO_LINK_LABEL);
  if (existing) return checkoutLinkUrl(existing.client_secret);
  const caller: OrganizationCaller = { kind: "organization", organizationId, tokenId: "seed", scopes: new Set() };
  const product = await findUnarchivedByName(knex, organizationId, "Lifetime license");
  if (!product) throw new Error("the demo organization has no 'Lifetime license' product to link to");
  const license = await createBenefit(knex, caller, {
    type: "license_keys",
    description: "Lifetime license key",
    organization_id: organizationId,
    properties: { prefix: "DEMO", expires: null, activations: { limit: 3, enable_customer_admin: true }, limit_usage: null },
  });
  await updateProductBenefits(knex, caller, product.id, [license.id]);
  const link = await createCheckoutLink(knex, caller, {
    payment_processor: "stripe",
    product_id: product.id,
    label: DEMO_LINK_LABEL,
    allow_discount_codes: true,
    require_billing_address: false,
  });
  return link.url;
}

export async function seedDemo(
  knex: Knex,
): Promise<{ organization: { id: string; slug: string }; token: string; checkoutLinkUrl: string }> {
  let org = await findBySlug(knex, DEMO_SLUG);
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
    const meter = await insertMeter(knex, {
      organization_id: org.id,
      name: "API calls",
      filter: JSON.stringify({ conjunction: "and", clauses: [{ property: "name", operator: "eq", value: "api_call" }] }),
      aggregation: JSON.stringify({ func: "count" }),
    });
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
  return { organization: org, token, checkoutLinkUrl: await demoCheckoutLink(knex, org.id) };
}
