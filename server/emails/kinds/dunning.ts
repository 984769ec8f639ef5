// The emails of a declined renewal charge (the internal event email.subscription_payment_failed,
// written by server/subscriptions/billing.ts with each declined attempt): the customer's payment
// failed, with the next retry and the link to update their card, on every attempt; and past due,
// once, when the decline made the subscription past due.
import type { InternalEvents } from "../../kit/outbox.js";
import { readSubscription } from "../../subscriptions/service.js";
import { findSubscription } from "../../subscriptions/repository.js";
import { updatePaymentMethodLink } from "../links.js";
import type { EmailDefinition, OutboxEvent } from "../models.js";
import { customerEmailOn } from "../models.js";
import type { EmailSendInsert } from "../repository.js";
import type { Knex } from "knex";
import { customerBase, customerSend, subscriptionSummary } from "./common.js";

type PaymentFailed = InternalEvents["email.subscription_payment_failed"];

/** The customer's send of `kind` for a declined charge, with the subscription as it is now. */
async function declinedSend(trx: Knex.Transaction, kind: string, event: OutboxEvent): Promise<EmailSendInsert[]> {
  const failed: PaymentFailed = JSON.parse(event.data);
  const row = await findSubscription(trx, failed.subscription_id);
  if (!row) return [];
  const subscription = await readSubscription(trx, row);
  return customerSend(kind, event, subscription.customer, { subscription, payment_failed: failed });
}

export const subscriptionPaymentFailed: EmailDefinition = {
  kind: "subscription_payment_failed",
  trigger: {
    on: ["email.subscription_payment_failed"],
    sends: async (trx, event, organization) =>
      customerEmailOn(organization, "subscription_payment_failed") ? declinedSend(trx, "subscription_payment_failed", event) : [],
  },
  async message(_db, send, brand, organization) {
    const { subscription, payment_failed: failed } = send.data;
    if (!subscription || !failed) return null;
    return {
      kind: "subscription_payment_failed",
      brand,
      props: Object.assign(customerBase(organization, subscription.customer), {
        subscription: subscriptionSummary(organization, subscription, subscription.product.name),
        amount: failed.amount,
        currency: failed.currency,
        attempt_number: failed.attempt,
        next_attempt_at: failed.next_payment_attempt_at,
        update_payment_method_url: updatePaymentMethodLink(organization.slug),
      }),
    };
  },
};

export const subscriptionPastDue: EmailDefinition = {
  kind: "subscription_past_due",
  trigger: {
    on: ["email.subscription_payment_failed"],
    async sends(trx, event, organization) {
      const failed: PaymentFailed = JSON.parse(event.data);
      if (!failed.past_due || !customerEmailOn(organization, "subscription_past_due")) return [];
      return declinedSend(trx, "subscription_past_due", event);
    },
  },
  async message(_db, send, brand, organization) {
    const { subscription, payment_failed: failed } = send.data;
    if (!subscription || !failed) return null;
    return {
      kind: "subscription_past_due",
      brand,
      props: Object.assign(customerBase(organization, subscription.customer), {
        subscription: subscriptionSummary(organization, subscription, subscription.product.name),
        amount: failed.amount,
        currency: failed.currency,
        update_payment_method_url: updatePaymentMethodLink(organization.slug),
      }),
    };
  },
};
