// Every migration, in order. New migrations are appended here.
import * as core from "./0001_core.js";
import * as catalog from "./0002_catalog.js";
import * as customers from "./0003_customers.js";
import * as checkouts from "./0004_checkouts.js";
import * as orders from "./0005_orders.js";
import * as webhooks from "./0006_webhooks.js";
import * as webhooksFailing from "./0007_webhooks_failing.js";
import * as subscriptions from "./0008_subscriptions.js";
import * as licenseKeys from "./0009_license_keys.js";
import * as benefitGrantJobs from "./0010_benefit_grant_jobs.js";
import * as outboxNotify from "./0011_outbox_notify.js";
import * as webhookDeliveryLease from "./0012_webhook_delivery_lease.js";
import * as checkoutQuote from "./0013_checkout_quote.js";
import * as auth from "./0020_auth.js";
import * as organizationAccessTokens from "./0021_organization_access_tokens.js";
import * as oauth from "./0022_oauth.js";
import * as usage from "./0030_usage.js";
import * as customerPortalSettings from "./0040_customer_portal_settings.js";
import * as customerSessionCodes from "./0041_customer_session_codes.js";
import * as webhookFailedEvents from "./0050_webhook_failed_events.js";
import * as idempotencyKeys from "./0060_idempotency_keys.js";
import * as checkoutConfirmRecovery from "./0061_checkout_confirm_recovery.js";
import * as rateLimits from "./0062_rate_limits.js";
import * as traceContext from "./0063_trace_context.js";
import * as checkoutSessions from "./0064_checkout_sessions.js";
import * as checkoutConfirmLease from "./0065_checkout_confirm_lease.js";
import * as outboxPayloadJson from "./0066_outbox_payload_json.js";
import * as webhookSetAside from "./0067_webhook_set_aside.js";
import * as productTrialsVisibility from "./0070_product_trials_visibility.js";
import * as subscriptionTerms from "./0071_subscription_terms.js";
import * as checkoutTrials from "./0072_checkout_trials.js";
import * as customerType from "./0080_customer_type.js";
import * as orderNumbers from "./0081_order_numbers.js";
import * as organizationSettings from "./0082_organization_settings.js";
import * as meterUnits from "./0083_meter_units.js";
import * as webhookEndpointName from "./0084_webhook_endpoint_name.js";
import * as paymentTrigger from "./0085_payment_trigger.js";
import * as benefitVisibility from "./0086_benefit_visibility.js";
import * as webhookEventSkipped from "./0087_webhook_event_skipped.js";
import * as customerSessionReturnUrl from "./0088_customer_session_return_url.js";
import * as orderInvoiceNumbers from "./0089_order_invoice_numbers.js";
import * as customerFirstUserEvent from "./0095_customer_first_user_event.js";
import * as productReferences from "./0096_product_references.js";
import * as discountPerCustomer from "./0097_discount_per_customer.js";
import * as checkoutPaymentMethodType from "./0098_checkout_payment_method_type.js";
import * as orderItemPeriods from "./0099_order_item_periods.js";
import * as webhookApiVersion from "./0100_webhook_api_version.js";
import * as organizationEmbedHosts from "./0101_organization_embed_hosts.js";
import * as taxSettings from "./0110_tax_settings.js";
import * as checkoutTaxCalculation from "./0111_checkout_tax_calculation.js";
import * as orderTax from "./0112_order_tax.js";
import * as orderTaxCalculation from "./0120_order_tax_calculation.js";
import * as refundTaxReversal from "./0121_refund_tax_reversal.js";
import * as customerTaxIdCheck from "./0130_customer_tax_id_check.js";
import * as organizationSellerDetails from "./0140_organization_seller_details.js";
import * as orderCustomerTaxId from "./0141_order_customer_tax_id.js";
import * as taxSyncDue from "./0150_tax_sync_due.js";
import * as emailSends from "./0160_email_sends.js";
import * as emailPreferences from "./0165_email_preferences.js";
import * as disputes from "./0170_disputes.js";
import * as metricDashboards from "./0175_metric_dashboards.js";
import * as eventTypes from "./0176_event_types.js";
import * as customerEmailVerifications from "./0180_customer_email_verifications.js";
import * as customerMembers from "./0185_customer_members.js";
import * as customerSessionMember from "./0186_customer_session_member.js";
import * as draftOrders from "./0190_draft_orders.js";
import * as wallets from "./0193_wallets.js";
import * as customerSeats from "./0195_customer_seats.js";
import * as twoFactors from "./0200_two_factors.js";
import * as seatPrices from "./0207_seat_prices.js";
import * as subscriptionPendingUpdate from "./0209_subscription_pending_update.js";
import * as walletRefunds from "./0211_wallet_refunds.js";

export const migrations = [
  { name: "0001_core", ...core },
  { name: "0002_catalog", ...catalog },
  { name: "0003_customers", ...customers },
  { name: "0004_checkouts", ...checkouts },
  { name: "0005_orders", ...orders },
  { name: "0006_webhooks", ...webhooks },
  { name: "0007_webhooks_failing", ...webhooksFailing },
  { name: "0008_subscriptions", ...subscriptions },
  { name: "0009_license_keys", ...licenseKeys },
  { name: "0010_benefit_grant_jobs", ...benefitGrantJobs },
  { name: "0011_outbox_notify", ...outboxNotify },
  { name: "0012_webhook_delivery_lease", ...webhookDeliveryLease },
  { name: "0013_checkout_quote", ...checkoutQuote },
  { name: "0020_auth", ...auth },
  { name: "0021_organization_access_tokens", ...organizationAccessTokens },
  { name: "0022_oauth", ...oauth },
  { name: "0030_usage", ...usage },
  { name: "0040_customer_portal_settings", ...customerPortalSettings },
  { name: "0041_customer_session_codes", ...customerSessionCodes },
  { name: "0050_webhook_failed_events", ...webhookFailedEvents },
  { name: "0060_idempotency_keys", ...idempotencyKeys },
  { name: "0061_checkout_confirm_recovery", ...checkoutConfirmRecovery },
  { name: "0062_rate_limits", ...rateLimits },
  { name: "0063_trace_context", ...traceContext },
  { name: "0064_checkout_sessions", ...checkoutSessions },
  { name: "0065_checkout_confirm_lease", ...checkoutConfirmLease },
  { name: "0066_outbox_payload_json", ...outboxPayloadJson },
  { name: "0067_webhook_set_aside", ...webhookSetAside },
  { name: "0070_product_trials_visibility", ...productTrialsVisibility },
  { name: "0071_subscription_terms", ...subscriptionTerms },
  { name: "0072_checkout_trials", ...checkoutTrials },
  { name: "0080_customer_type", ...customerType },
  { name: "0081_order_numbers", ...orderNumbers },
  { name: "0082_organization_settings", ...organizationSettings },
  { name: "0083_meter_units", ...meterUnits },
  { name: "0084_webhook_endpoint_name", ...webhookEndpointName },
  { name: "0085_payment_trigger", ...paymentTrigger },
  { name: "0086_benefit_visibility", ...benefitVisibility },
  { name: "0087_webhook_event_skipped", ...webhookEventSkipped },
  { name: "0088_customer_session_return_url", ...customerSessionReturnUrl },
  { name: "0089_order_invoice_numbers", ...orderInvoiceNumbers },
  { name: "0095_customer_first_user_event", ...customerFirstUserEvent },
  { name: "0096_product_references", ...productReferences },
  { name: "0097_discount_per_customer", ...discountPerCustomer },
  { name: "0098_checkout_payment_method_type", ...checkoutPaymentMethodType },
  { name: "0099_order_item_periods", ...orderItemPeriods },
  { name: "0100_webhook_api_version", ...webhookApiVersion },
  { name: "0101_organization_embed_hosts", ...organizationEmbedHosts },
  { name: "0110_tax_settings", ...taxSettings },
  { name: "0111_checkout_tax_calculation", ...checkoutTaxCalculation },
  { name: "0112_order_tax", ...orderTax },
  { name: "0120_order_tax_calculation", ...orderTaxCalculation },
  { name: "0121_refund_tax_reversal", ...refundTaxReversal },
  { name: "0130_customer_tax_id_check", ...customerTaxIdCheck },
  { name: "0140_organization_seller_details", ...organizationSellerDetails },
  { name: "0141_order_customer_tax_id", ...orderCustomerTaxId },
  { name: "0150_tax_sync_due", ...taxSyncDue },
  { name: "0160_email_sends", ...emailSends },
  { name: "0165_email_preferences", ...emailPreferences },
  { name: "0170_disputes", ...disputes },
  { name: "0175_metric_dashboards", ...metricDashboards },
  { name: "0176_event_types", ...eventTypes },
  { name: "0180_customer_email_verifications", ...customerEmailVerifications },
  { name: "0185_customer_members", ...customerMembers },
  { name: "0186_customer_session_member", ...customerSessionMember },
  { name: "0190_draft_orders", ...draftOrders },
  { name: "0193_wallets", ...wallets },
  { name: "0195_customer_seats", ...customerSeats },
  { name: "0200_two_factors", ...twoFactors },
  { name: "0207_seat_prices", ...seatPrices },
  { name: "0209_subscription_pending_update", ...subscriptionPendingUpdate },
  { name: "0211_wallet_refunds", ...walletRefunds },
];
