// The registry of email kinds the pipeline sends: each entry names the outbox events that trigger
// it and builds its message at send time (server/emails/kinds/). One entry per kind.
import { notificationNewSale, orderConfirmation, subscriptionCycled } from "./kinds/orders.js";
import { notificationNewSubscription, subscriptionConfirmation } from "./kinds/subscriptions.js";
import type { EmailDefinition } from "./models.js";

export const EMAILS: readonly EmailDefinition[] = [
  orderConfirmation,
  subscriptionConfirmation,
  subscriptionCycled,
  notificationNewSale,
  notificationNewSubscription,
];
