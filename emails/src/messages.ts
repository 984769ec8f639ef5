// The emails Borealis sends: each kind, the brand it wears and the props its template renders.
// Amounts are integer minor units with their ISO currency, dates ISO strings, and every link an
// absolute URL built by the sender (templates never build URLs).

/** Customer emails, each on or off per organization. */
export const CUSTOMER_EMAIL_KINDS = [
  "order_confirmation",
  "subscription_confirmation",
  "subscription_cycled",
  "subscription_renewal_reminder",
  "subscription_payment_failed",
  "subscription_past_due",
  "subscription_cancellation",
  "subscription_uncanceled",
  "subscription_revoked",
  "subscription_updated",
  "benefit_granted",
  "order_refunded",
  "payment_method_expiration_reminder",
  "seat_invitation",
  "customer_email_update_verification",
] as const;

/** Notifications to the organization's owners and admins; each member can mute them. */
export const MERCHANT_EMAIL_KINDS = [
  "notification_new_sale",
  "notification_new_subscription",
  "notification_subscription_cancellation",
  "notification_refund",
  "webhook_endpoint_disabled",
] as const;

/** Customer emails a customer may turn off in the portal; the others always go. */
export const NON_ESSENTIAL_EMAIL_KINDS = ["subscription_renewal_reminder", "payment_method_expiration_reminder"] as const;

export const EMAIL_KINDS = [...CUSTOMER_EMAIL_KINDS, ...MERCHANT_EMAIL_KINDS] as const;

export type CustomerEmailKind = (typeof CUSTOMER_EMAIL_KINDS)[number];
export type MerchantEmailKind = (typeof MERCHANT_EMAIL_KINDS)[number];
export type NonEssentialEmailKind = (typeof NON_ESSENTIAL_EMAIL_KINDS)[number];
export type EmailKind = CustomerEmailKind | MerchantEmailKind;

export function isEmailKind(value: string): value is EmailKind {
  return EMAIL_KINDS.some((k) => k === value);
}

/** The colour of an organization that chose none. */
export const DEFAULT_BRAND_COLOR = "#0062ff";

/** The organization's look: its name, its logo (avatar) and its colour. */
export interface Brand {
  name: string;
  logo_url: string | null;
  /** #rrggbb: buttons and the header's accent. */
  color: string;
}

export type RecurringInterval = "day" | "week" | "month" | "year";

/** What every customer email carries: whom it is for, and the portal that explains why. */
export interface CustomerEmailBase {
  customer_name: string | null;
  customer_email: string;
  /** The organization's customer portal. */
  portal_url: string;
}

/** Non-essential emails also link to the customer's email preferences in the portal. */
export interface NonEssentialEmailBase extends CustomerEmailBase {
  preferences_url: string;
}

/** What every merchant notification carries: where the member mutes these. */
export interface MerchantEmailBase {
  /** The member's notification settings in the console. */
  notification_settings_url: string;
}

export interface OrderLineItem {
  label: string;
  amount: number;
}

/** An order as its receipt shows it. */
export interface OrderSummary {
  /** The invoice number (e.g. "ACME-0042"), null before the invoice exists. */
  invoice_number: string | null;
  created_at: string;
  currency: string;
  items: OrderLineItem[];
  subtotal_amount: number;
  discount_amount: number;
  /** The discount's name when one applied. */
  discount_name: string | null;
  tax_amount: number;
  /** The tax's label (e.g. "VAT") when known. */
  tax_label: string | null;
  /** The tax rate in percent (e.g. 20 or 8.875) when one rate applied. */
  tax_rate: number | null;
  total_amount: number;
  /** The order in the portal. */
  order_url: string;
  /** The invoice PDF, null when there is none yet. */
  invoice_url: string | null;
}

/** A subscription's price and period. */
export interface SubscriptionSummary {
  product_name: string;
  amount: number;
  currency: string;
  recurring_interval: RecurringInterval;
  recurring_interval_count: number;
  current_period_end: string | null;
  /** Managing (changing, cancelling) the subscription in the portal. */
  manage_url: string;
}

export interface OrderConfirmationProps extends CustomerEmailBase {
  product_name: string;
  order: OrderSummary;
}

export interface SubscriptionConfirmationProps extends CustomerEmailBase {
  subscription: SubscriptionSummary;
  /** The trial's end when the subscription starts with one. */
  trial_end: string | null;
  /** The first order's receipt, null for a trial or a free plan. */
  order: OrderSummary | null;
}

export interface SubscriptionCycledProps extends CustomerEmailBase {
  subscription: SubscriptionSummary;
  order: OrderSummary;
}

export interface SubscriptionRenewalReminderProps extends NonEssentialEmailBase {
  subscription: SubscriptionSummary;
  renews_at: string;
}

export interface SubscriptionPaymentFailedProps extends CustomerEmailBase {
  subscription: SubscriptionSummary;
  /** What was due. */
  amount: number;
  currency: string;
  /** 1 for the first failed attempt. */
  attempt_number: number;
  /** When the card is tried again, null after the last attempt. */
  next_attempt_at: string | null;
  update_payment_method_url: string;
}

export interface SubscriptionPastDueProps extends CustomerEmailBase {
  subscription: SubscriptionSummary;
  amount: number;
  currency: string;
  update_payment_method_url: string;
}

export interface SubscriptionCancellationProps extends CustomerEmailBase {
  subscription: SubscriptionSummary;
  /** Access lasts until then. */
  ends_at: string;
}

export interface SubscriptionUncanceledProps extends CustomerEmailBase {
  subscription: SubscriptionSummary;
}

export interface SubscriptionRevokedProps extends CustomerEmailBase {
  product_name: string;
  ended_at: string;
}

export interface SubscriptionUpdatedProps extends CustomerEmailBase {
  previous_product_name: string;
  subscription: SubscriptionSummary;
  /** When the new plan took (or takes) effect. */
  effective_at: string;
}

export interface BenefitFile {
  name: string;
  /** Bytes. */
  size: number;
  /** A download link (signed, through the portal). */
  url: string;
}

/** What the customer got, per benefit type. */
export type GrantedBenefit =
  | { type: "license_keys"; description: string; key: string; expires_at: string | null; activations_limit: number | null }
  | { type: "downloadables"; description: string; files: BenefitFile[] }
  | { type: "github_repository"; description: string; repository_owner: string; repository_name: string; invitation_url: string }
  | { type: "discord"; description: string; guild_name: string | null; connect_url: string }
  | { type: "meter_credit"; description: string; meter_name: string; units: number }
  | { type: "custom"; description: string; note: string | null };

export type BenefitType = GrantedBenefit["type"];

export interface BenefitGrantedProps extends CustomerEmailBase {
  product_name: string;
  benefit: GrantedBenefit;
  /** The customer's benefits in the portal. */
  benefits_url: string;
}

export interface OrderRefundedProps extends CustomerEmailBase {
  product_name: string;
  invoice_number: string | null;
  refund_amount: number;
  currency: string;
  /** The order's total, to tell a partial refund. */
  order_total_amount: number;
  refunded_at: string;
  order_url: string;
}

export interface PaymentMethodExpirationReminderProps extends NonEssentialEmailBase {
  /** "visa", "mastercard"… */
  card_brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  update_payment_method_url: string;
}

export interface NotificationNewSaleProps extends MerchantEmailBase {
  customer_name: string | null;
  customer_email: string;
  product_name: string;
  amount: number;
  currency: string;
  /** The order in the console. */
  order_url: string;
}

export interface NotificationNewSubscriptionProps extends MerchantEmailBase {
  customer_name: string | null;
  customer_email: string;
  product_name: string;
  amount: number;
  currency: string;
  recurring_interval: RecurringInterval;
  recurring_interval_count: number;
  /** The subscription in the console. */
  subscription_url: string;
}

export interface NotificationSubscriptionCancellationProps extends MerchantEmailBase {
  customer_name: string | null;
  customer_email: string;
  product_name: string;
  ends_at: string;
  /** The customer's reason (e.g. "too_expensive"), null when none was given. */
  reason: string | null;
  comment: string | null;
  subscription_url: string;
}

export interface NotificationRefundProps extends MerchantEmailBase {
  customer_name: string | null;
  customer_email: string;
  product_name: string;
  refund_amount: number;
  currency: string;
  reason: string | null;
  order_url: string;
}

/** An invitation to claim a seat of a team's subscription (always sent: it carries the claim link). */
export interface SeatInvitationProps extends CustomerEmailBase {
  product_name: string;
  /** Who bought the seats: the team's name, else its email. */
  inviter: string;
  /** The portal's claim page, with the invitation token. */
  claim_url: string;
  expires_at: string | null;
}

/**
 * The link that confirms a portal customer's new email address (always sent: it carries the code).
 * `customer_email` is the new address, the one it goes to.
 */
export interface CustomerEmailUpdateVerificationProps extends CustomerEmailBase {
  /** The address the customer has now: who asked. */
  current_email: string;
  /** The portal's verify page, with the code. */
  verify_url: string;
  expires_in_minutes: number;
  expires_at: string;
}

export interface WebhookEndpointDisabledProps extends MerchantEmailBase {
  endpoint_url: string;
  /** The endpoint in the console. */
  webhook_url: string;
  disabled_at: string;
}

/** The props of each kind. */
export interface EmailProps {
  order_confirmation: OrderConfirmationProps;
  subscription_confirmation: SubscriptionConfirmationProps;
  subscription_cycled: SubscriptionCycledProps;
  subscription_renewal_reminder: SubscriptionRenewalReminderProps;
  subscription_payment_failed: SubscriptionPaymentFailedProps;
  subscription_past_due: SubscriptionPastDueProps;
  subscription_cancellation: SubscriptionCancellationProps;
  subscription_uncanceled: SubscriptionUncanceledProps;
  subscription_revoked: SubscriptionRevokedProps;
  subscription_updated: SubscriptionUpdatedProps;
  benefit_granted: BenefitGrantedProps;
  order_refunded: OrderRefundedProps;
  payment_method_expiration_reminder: PaymentMethodExpirationReminderProps;
  notification_new_sale: NotificationNewSaleProps;
  notification_new_subscription: NotificationNewSubscriptionProps;
  notification_subscription_cancellation: NotificationSubscriptionCancellationProps;
  notification_refund: NotificationRefundProps;
  webhook_endpoint_disabled: WebhookEndpointDisabledProps;
  seat_invitation: SeatInvitationProps;
  customer_email_update_verification: CustomerEmailUpdateVerificationProps;
}

/**
 * The message of one kind (of each, for a union of kinds). A mapped type over K, so that a generic
 * `{ kind: K, brand, props: EmailProps[K] }` is one.
 */
export type EmailMessageOf<K extends EmailKind> = { [P in K]: { kind: P; brand: Brand; props: EmailProps[P] } }[K];

/** One email to render: its kind, the organization's brand and the kind's props. */
export type EmailMessage = EmailMessageOf<EmailKind>;

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

// EmailProps has exactly one entry per kind (a compile error otherwise).
type SameKeys<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const PROPS_COVER_EVERY_KIND: SameKeys<keyof EmailProps, EmailKind> = true;
