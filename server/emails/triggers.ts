// The registry of email kinds the pipeline sends: each entry names the outbox events that trigger
// it and builds its message at send time (server/emails/kinds/). One entry per kind.
import { notificationNewSale, orderConfirmation, subscriptionCycled } from "./kinds/orders.js";
import { notificationNewSubscription, subscriptionConfirmation } from "./kinds/subscriptions.js";
import { benefitGranted } from "./kinds/benefits.js";
import { subscriptionPastDue, subscriptionPaymentFailed } from "./kinds/dunning.js";
import {
  notificationSubscriptionCancellation,
  subscriptionCancellation,
  subscriptionRevoked,
  subscriptionUncanceled,
  subscriptionUpdated,
} from "./kinds/lifecycle.js";
import { notificationRefund, orderRefunded } from "./kinds/refunds.js";
import { paymentMethodExpirationReminder, subscriptionRenewalReminder } from "./kinds/reminders.js";
import { webhookEndpointDisabled } from "./kinds/webhooks.js";
import { seatInvitation } from "./kinds/seats.js";
import type { EmailDefinition } from "./models.js";

export const EMAILS: readonly EmailDefinition[] = [
  orderConfirmation,
  subscriptionConfirmation,
  subscriptionCycled,
  notificationNewSale,
  notificationNewSubscription,
  subscriptionPaymentFailed,
  subscriptionPastDue,
  subscriptionCancellation,
  subscriptionUncanceled,
  subscriptionRevoked,
  subscriptionUpdated,
  benefitGranted,
  orderRefunded,
  notificationSubscriptionCancellation,
  notificationRefund,
  webhookEndpointDisabled,
  subscriptionRenewalReminder,
  paymentMethodExpirationReminder,
  seatInvitation,
];
