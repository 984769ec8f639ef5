// The emails the organization's settings name: its customers' and its members' notifications.
import type { EmailKind, Organization, OrganizationNotificationPreferences } from "../api";

type CustomerEmailKey = keyof Organization["customer_email_settings"];

/** The customer emails Borealis sends, in the order the form lists them. */
export const CUSTOMER_EMAILS: [CustomerEmailKey & EmailKind, string][] = [
  ["order_confirmation", "Order receipt"],
  ["subscription_confirmation", "Subscription started"],
  ["subscription_cycled", "Renewal receipt"],
  ["subscription_renewal_reminder", "Renewal soon (yearly plans)"],
  ["subscription_payment_failed", "Payment failed"],
  ["subscription_past_due", "Past due"],
  ["subscription_cancellation", "Cancellation scheduled"],
  ["subscription_uncanceled", "Cancellation withdrawn"],
  ["subscription_revoked", "Subscription ended"],
  ["subscription_updated", "Plan changed"],
  ["benefit_granted", "Benefit granted"],
  ["order_refunded", "Refund issued"],
  ["payment_method_expiration_reminder", "Card expiring soon"],
];

export const MERCHANT_EMAILS: [keyof OrganizationNotificationPreferences & EmailKind, string][] = [
  ["notification_new_sale", "New sale"],
  ["notification_new_subscription", "New subscription"],
  ["notification_subscription_cancellation", "Subscription canceled"],
  ["notification_refund", "Refund"],
  ["webhook_endpoint_disabled", "Webhook endpoint disabled"],
];

export const PREVIEW_KINDS: [EmailKind, string][] = [...CUSTOMER_EMAILS, ...MERCHANT_EMAILS];

export const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;
