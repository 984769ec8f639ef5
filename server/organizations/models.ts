// The Organization wire shape, and the defaults its settings are merged over (a row written before
// a setting existed reads as its default).
import type { components } from "../../generated/types.js";
import { DEFAULT_BRAND_COLOR, type Brand } from "../../emails/src/index.js";
import { setting } from "../config.js";
import { iso, isoRequired } from "../kit/time.js";
import type { OrganizationRow, StoredPortalSettings } from "./repository.js";
import { taxSettingsOf } from "./tax-settings.js";

export type OrganizationOut = components["schemas"]["Organization"];
/** What a buyer may see of the organization: its public profile and the settings the checkout and portal follow. */
export type PublicOrganizationOut = components["schemas"]["CheckoutOrganization"];
type SubscriptionSettings = OrganizationOut["subscription_settings"];

type FeatureSettings = components["schemas"]["OrganizationFeatureSettings"];
export const DEFAULT_FEATURE_SETTINGS: FeatureSettings = {
  issue_funding_enabled: false,
  member_model_enabled: false,
  seat_based_pricing_enabled: false,
  reset_proration_behavior_enabled: false,
};
export const DEFAULT_SUBSCRIPTION_SETTINGS: Omit<SubscriptionSettings, "benefit_revocation_grace_period"> = {
  allow_multiple_subscriptions: false,
  allow_customer_updates: true,
  proration_behavior: "prorate",
  prevent_trial_abuse: false,
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
/** Every customer email on unless the merchant switches one off. */
export const DEFAULT_CUSTOMER_EMAIL_SETTINGS: OrganizationOut["customer_email_settings"] = {
  order_confirmation: true,
  subscription_cancellation: true,
  subscription_confirmation: true,
  subscription_cycled: true,
  subscription_cycled_after_trial: true,
  subscription_past_due: true,
  subscription_paused: true,
  subscription_resumed: true,
  subscription_renewal_reminder: true,
  subscription_revoked: true,
  subscription_trial_conversion_reminder: true,
  subscription_uncanceled: true,
  subscription_updated: true,
  payment_method_expiration_reminder: true,
  subscription_payment_failed: true,
  benefit_granted: true,
  order_refunded: true,
};
/** The emails' brand colour and the renewal reminder's lead time until the merchant sets them. */
export const DEFAULT_EMAIL_SETTINGS: OrganizationOut["email_settings"] = { brand_color: DEFAULT_BRAND_COLOR, renewal_reminder_days: 7 };

/** Which emails the organization's customers get: the stored switches over their defaults. */
export function customerEmailSettings(row: Pick<OrganizationRow, "customer_email_settings">): OrganizationOut["customer_email_settings"] {
  return Object.assign({}, DEFAULT_CUSTOMER_EMAIL_SETTINGS, row.customer_email_settings);
}

/** The organization's email branding and timing: the stored settings over their defaults. */
export function emailSettings(row: Pick<OrganizationRow, "email_settings">): OrganizationOut["email_settings"] {
  return Object.assign({}, DEFAULT_EMAIL_SETTINGS, row.email_settings);
}

/** The organization's name, logo and colour (its `email_settings.brand_color`, Borealis blue until set): what its emails wear. */
export function brandOf(organization: Pick<OrganizationRow, "name" | "avatar_url" | "email_settings">): Brand {
  return { name: organization.name, logo_url: organization.avatar_url, color: emailSettings(organization).brand_color };
}

/**
 * How long a past-due subscription keeps its benefits: through its payment retries, until it is
 * canceled after the last one (SUBSCRIPTION_DUNNING_DAYS), when they are revoked.
 */
export function benefitRevocationGracePeriod(): number {
  return setting("SUBSCRIPTION_DUNNING_DAYS").reduce((sum, days) => sum + days, 0);
}

/** The subscription settings with the defaults of those the row does not hold. */
export function subscriptionSettings(row: Pick<OrganizationRow, "subscription_settings">): SubscriptionSettings {
  return Object.assign({}, DEFAULT_SUBSCRIPTION_SETTINGS, row.subscription_settings, {
    benefit_revocation_grace_period: benefitRevocationGracePeriod(),
  });
}

/** What an organization may do by its status: a denied one takes no payment (checkouts/confirm.ts). */
export function capabilitiesOf(status: OrganizationRow["status"]): OrganizationOut["capabilities"] {
  const paying = status !== "denied";
  return {
    checkout_payments: paying,
    subscription_renewals: true,
    // Payments go straight to the platform's processor account: nothing is paid out.
    payouts: false,
    refunds: true,
    api_access: true,
    dashboard_access: true,
  };
}

/** Whether the organization's customers may change their email in the portal (off unless switched on, as Polar's). */
export function allowsEmailChange(stored: Partial<StoredPortalSettings> | null): boolean {
  return stored?.customer?.allow_email_change === true;
}

/** The portal settings as the API shows them: the stored sections, `usage` as `{ show }`, and the subscription part. */
function portalSettingsOut(
  stored: Partial<StoredPortalSettings> | null,
  subscription: SubscriptionSettings,
): OrganizationOut["customer_portal_settings"] {
  const s = Object.assign({}, DEFAULT_CUSTOMER_PORTAL_SETTINGS, stored);
  return {
    orders: s.orders,
    subscriptions: s.subscriptions,
    benefits: s.benefits,
    usage: { show: s.usage },
    payment_methods: s.payment_methods,
    billing_details: s.billing_details,
    subscription: { update_seats: s.subscription?.update_seats ?? true, update_plan: subscription.allow_customer_updates },
    customer: { allow_email_change: allowsEmailChange(stored) },
  };
}

/** The feature settings the contract declares (a newer client sends Polar's others too: they are not shown). */
function featureSettingsOut(stored: Partial<FeatureSettings>): FeatureSettings {
  return {
    issue_funding_enabled: stored.issue_funding_enabled ?? DEFAULT_FEATURE_SETTINGS.issue_funding_enabled,
    member_model_enabled: stored.member_model_enabled ?? DEFAULT_FEATURE_SETTINGS.member_model_enabled,
    seat_based_pricing_enabled: stored.seat_based_pricing_enabled ?? DEFAULT_FEATURE_SETTINGS.seat_based_pricing_enabled,
    reset_proration_behavior_enabled: stored.reset_proration_behavior_enabled ?? DEFAULT_FEATURE_SETTINGS.reset_proration_behavior_enabled,
  };
}

/** The organization as a buyer sees it (CheckoutOrganization); the merchant's Organization adds the rest. */
export function toPublicOrganization(row: OrganizationRow): PublicOrganizationOut {
  const subscription = subscriptionSettings(row);
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
    feature_settings: row.feature_settings && featureSettingsOut(row.feature_settings),
    subscription_settings: subscription,
    notification_settings: row.notification_settings,
    customer_portal_settings: portalSettingsOut(row.customer_portal_settings, subscription),
    proration_behavior: subscription.proration_behavior,
    allow_customer_updates: subscription.allow_customer_updates,
  };
}

export function toOrganization(row: OrganizationRow): OrganizationOut {
  return Object.assign(toPublicOrganization(row), {
    sso_enforced: row.sso_enforced,
    default_presentment_currency: row.default_presentment_currency,
    default_tax_behavior: row.default_tax_behavior,
    customer_email_settings: customerEmailSettings(row),
    email_settings: emailSettings(row),
    // No onboarding is reviewed, so none is ever asked to be resubmitted.
    onboarding_resubmission_requested_at: null,
    // Disputes are not handled yet: none is conceded automatically.
    dispute_settings: { auto_accept_below_amount: null },
    embed_hosts: row.embed_hosts,
    tax_settings: taxSettingsOf(row.tax_settings),
    seller_details: row.seller_details ?? null,
    account_id: null,
    payout_account_id: null,
    capabilities: capabilitiesOf(row.status),
  });
}
