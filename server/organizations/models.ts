// The Organization wire shape.
import type { components } from "../../generated/types.js";
import { iso, isoRequired } from "../kit/time.js";
import type { OrganizationRow } from "./repository.js";

export type OrganizationOut = components["schemas"]["Organization"];

export const DEFAULT_FEATURE_SETTINGS: components["schemas"]["OrganizationFeatureSettings"] = { issue_funding_enabled: false };
export const DEFAULT_SUBSCRIPTION_SETTINGS: OrganizationOut["subscription_settings"] = {
  allow_multiple_subscriptions: false,
  allow_customer_updates: true,
  proration_behavior: "prorate",
};
export const DEFAULT_NOTIFICATION_SETTINGS: OrganizationOut["notification_settings"] = { new_order: true, new_subscription: true };
/** Every portal section on unless the merchant switches one off (also the column's default, migration 0040). */
export const DEFAULT_CUSTOMER_PORTAL_SETTINGS = {
  orders: true,
  subscriptions: true,
  benefits: true,
  usage: true,
  payment_methods: true,
  billing_details: true,
};

export function toOrganization(row: OrganizationRow): OrganizationOut {
  return {
    id: row.id,
    created_at: isoRequired(row.created_at),
    modified_at: iso(row.modified_at),
    name: row.name,
    slug: row.slug,
    avatar_url: row.avatar_url,
    email: row.email,
    website: row.website,
    socials: row.socials,
    status: row.status,
    details_submitted_at: iso(row.details_submitted_at),
    feature_settings: row.feature_settings,
    subscription_settings: row.subscription_settings,
    notification_settings: row.notification_settings,
    customer_portal_settings: Object.assign({}, DEFAULT_CUSTOMER_PORTAL_SETTINGS, row.customer_portal_settings),
  };
}
