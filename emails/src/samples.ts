// Realistic sample messages, one per kind: the console's live preview and the tests render them.
import {
  DEFAULT_BRAND_COLOR,
  type Brand,
  type EmailKind,
  type EmailMessageOf,
  type EmailProps,
  type OrderSummary,
  type SubscriptionSummary,
} from "./messages.js";

/** The brand the samples wear when the caller has none. */
export const SAMPLE_BRAND: Brand = { name: "Acme", logo_url: null, color: DEFAULT_BRAND_COLOR };

const PORTAL = "https://pay.example.com/acme/portal";
const CONSOLE = "https://pay.example.com/dashboard";
const ORDER_ID = "5c1f2a8e-7d43-4b6e-9a0c-2f8d61e4b7a1";
const SUBSCRIPTION_ID = "9e2b7c14-3a5f-4d8e-b1c6-7f0a2d9e5b38";

const customer = {
  customer_name: "Jane Doe",
  customer_email: "jane@example.com",
  portal_url: PORTAL,
};

const reminder = Object.assign({}, customer, { preferences_url: `${PORTAL}/emails` });

const member = { notification_settings_url: `${CONSOLE}/settings/emails` };

/** A merchant notification about Jane's purchase of Acme Pro. */
const sale = Object.assign({}, member, { customer_name: "Jane Doe", customer_email: "jane@example.com", product_name: "Acme Pro" });

const monthly: SubscriptionSummary = {
  product_name: "Acme Pro",
  amount: 2000,
  currency: "usd",
  recurring_interval: "month",
  recurring_interval_count: 1,
  current_period_end: "2027-04-03T09:30:00Z",
  manage_url: `${PORTAL}/subscriptions/${SUBSCRIPTION_ID}`,
};

const yearly: SubscriptionSummary = Object.assign({}, monthly, {
  product_name: "Acme Pro (yearly)",
  amount: 20000,
  recurring_interval: "year" as const,
  current_period_end: "2027-03-10T09:30:00Z",
});

function order(invoiceNumber: string, createdAt: string): OrderSummary {
  return {
    invoice_number: invoiceNumber,
    created_at: createdAt,
    currency: "usd",
    items: [{ label: "Acme Pro (monthly)", amount: 2000 }],
    subtotal_amount: 2000,
    discount_amount: 400,
    discount_name: "LAUNCH20",
    tax_amount: 320,
    tax_label: "VAT",
    tax_rate: 20,
    total_amount: 1920,
    order_url: `${PORTAL}/orders/${ORDER_ID}`,
    invoice_url: `${PORTAL}/orders/${ORDER_ID}/invoice.pdf`,
  };
}

const SAMPLE_PROPS: EmailProps = {
  order_confirmation: Object.assign({}, customer, { product_name: "Acme Pro", order: order("ACME-0042", "2027-03-03T09:30:00Z") }),
  subscription_confirmation: Object.assign({}, customer, {
    subscription: monthly,
    trial_end: null,
    order: order("ACME-0042", "2027-03-03T09:30:00Z"),
  }),
  subscription_cycled: Object.assign({}, customer, { subscription: monthly, order: order("ACME-0057", "2027-04-03T09:30:00Z") }),
  subscription_renewal_reminder: Object.assign({}, reminder, { subscription: yearly, renews_at: "2027-03-10T09:30:00Z" }),
  subscription_payment_failed: Object.assign({}, customer, {
    subscription: monthly,
    amount: 1920,
    currency: "usd",
    attempt_number: 1,
    next_attempt_at: "2027-04-06T09:30:00Z",
    update_payment_method_url: `${PORTAL}/payment-methods`,
  }),
  subscription_past_due: Object.assign({}, customer, {
    subscription: monthly,
    amount: 1920,
    currency: "usd",
    update_payment_method_url: `${PORTAL}/payment-methods`,
  }),
  subscription_cancellation: Object.assign({}, customer, { subscription: monthly, ends_at: "2027-04-03T09:30:00Z" }),
  subscription_uncanceled: Object.assign({}, customer, { subscription: monthly }),
  subscription_revoked: Object.assign({}, customer, { product_name: "Acme Pro", ended_at: "2027-04-03T09:30:00Z" }),
  subscription_updated: Object.assign({}, customer, {
    previous_product_name: "Acme Starter",
    subscription: monthly,
    effective_at: "2027-03-15T12:00:00Z",
  }),
  benefit_granted: Object.assign({}, customer, {
    product_name: "Acme Pro",
    benefit: {
      type: "license_keys" as const,
      description: "Acme Pro license",
      key: "ACME-4F2A-9C1D-77E0-B3K8",
      expires_at: null,
      activations_limit: 3,
    },
    benefits_url: `${PORTAL}/benefits`,
  }),
  order_refunded: Object.assign({}, customer, {
    product_name: "Acme Pro",
    invoice_number: "ACME-0042",
    refund_amount: 1920,
    currency: "usd",
    order_total_amount: 1920,
    refunded_at: "2027-03-05T14:00:00Z",
    order_url: `${PORTAL}/orders/${ORDER_ID}`,
  }),
  payment_method_expiration_reminder: Object.assign({}, reminder, {
    card_brand: "visa",
    last4: "4242",
    exp_month: 4,
    exp_year: 2027,
    update_payment_method_url: `${PORTAL}/payment-methods`,
  }),
  notification_new_sale: Object.assign({}, sale, {
    amount: 1920,
    currency: "usd",
    order_url: `${CONSOLE}/orders/${ORDER_ID}/show`,
  }),
  notification_new_subscription: Object.assign({}, sale, {
    amount: 2000,
    currency: "usd",
    recurring_interval: "month" as const,
    recurring_interval_count: 1,
    subscription_url: `${CONSOLE}/subscriptions/${SUBSCRIPTION_ID}/show`,
  }),
  notification_subscription_cancellation: Object.assign({}, sale, {
    ends_at: "2027-04-03T09:30:00Z",
    reason: "too_expensive",
    comment: "I only needed it for one project.",
    subscription_url: `${CONSOLE}/subscriptions/${SUBSCRIPTION_ID}/show`,
  }),
  notification_refund: Object.assign({}, sale, {
    refund_amount: 1920,
    currency: "usd",
    reason: "customer_request",
    order_url: `${CONSOLE}/orders/${ORDER_ID}/show`,
  }),
  seat_invitation: Object.assign({}, customer, {
    customer_name: null,
    product_name: "Pro Team",
    inviter: "Initech",
    claim_url: `${PORTAL}/claim?token=hV2v0n3C8xQm1pT7yLr5sWk9aD4fGj6b`,
    expires_at: "2027-03-08T09:00:00Z",
  }),
  customer_email_update_verification: Object.assign({}, customer, {
    customer_email: "jane.doe@work.example.com",
    current_email: "jane@example.com",
    verify_url: `${PORTAL}/verify-email?token=polar_cev_Qm1pT7yLr5sWk9aD4fGj6bhV2v0n3C8xR7tY2uWq`,
    expires_in_minutes: 30,
    expires_at: "2027-03-08T09:30:00Z",
  }),
  webhook_endpoint_disabled: Object.assign({}, member, {
    endpoint_url: "https://hooks.acme.example/borealis/webhooks",
    webhook_url: `${CONSOLE}/webhooks-endpoints/3d7e1b90-6c2a-4f85-a4e3-1b9c0d8f2e67/show`,
    disabled_at: "2027-03-07T02:15:00Z",
  }),
};

/** A sample message of the kind, wearing the brand. */
export function sampleMessage<K extends EmailKind>(kind: K, brand: Brand = SAMPLE_BRAND): EmailMessageOf<K> {
  return { kind, brand, props: structuredClone(SAMPLE_PROPS[kind]) };
}
