// Every kind's template.
import type { Templates } from "../template.js";
import { benefitGranted } from "./benefits.js";
import {
  notificationNewSale,
  notificationNewSubscription,
  notificationRefund,
  notificationSubscriptionCancellation,
  webhookEndpointDisabled,
} from "./merchant.js";
import { orderConfirmation, orderRefunded } from "./orders.js";
import { paymentMethodExpirationReminder } from "./payment-methods.js";
import {
  subscriptionCancellation,
  subscriptionConfirmation,
  subscriptionCycled,
  subscriptionPastDue,
  subscriptionPaymentFailed,
  subscriptionRenewalReminder,
  subscriptionRevoked,
  subscriptionUncanceled,
  subscriptionUpdated,
} from "./subscriptions.js";
import { seatInvitation } from "./seats.js";
import { customerEmailUpdateVerification } from "./email-update.js";

export const TEMPLATES: Templates = {
  order_confirmation: orderConfirmation,
  subscription_confirmation: subscriptionConfirmation,
  subscription_cycled: subscriptionCycled,
  subscription_renewal_reminder: subscriptionRenewalReminder,
  subscription_payment_failed: subscriptionPaymentFailed,
  subscription_past_due: subscriptionPastDue,
  subscription_cancellation: subscriptionCancellation,
  subscription_uncanceled: subscriptionUncanceled,
  subscription_revoked: subscriptionRevoked,
  subscription_updated: subscriptionUpdated,
  benefit_granted: benefitGranted,
  order_refunded: orderRefunded,
  payment_method_expiration_reminder: paymentMethodExpirationReminder,
  notification_new_sale: notificationNewSale,
  notification_new_subscription: notificationNewSubscription,
  notification_subscription_cancellation: notificationSubscriptionCancellation,
  notification_refund: notificationRefund,
  webhook_endpoint_disabled: webhookEndpointDisabled,
  seat_invitation: seatInvitation,
  customer_email_update_verification: customerEmailUpdateVerification,
};
