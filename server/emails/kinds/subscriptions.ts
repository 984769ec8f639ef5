// The emails a new subscription sends (on subscription.created, which fires once when it starts,
// with or without a trial): the customer's confirmation and the merchant's new subscription.
import type { SubscriptionOut } from "../../subscriptions/models.js";
import { consoleSubscriptionLink } from "../links.js";
import type { EmailDefinition } from "../models.js";
import { customerEmailOn, notificationOn } from "../models.js";
import { customerBase, customerSend, merchantBase, memberSends, subscriptionSummary } from "./common.js";

const createdSubscription = (data: string): SubscriptionOut => JSON.parse(data);

export const subscriptionConfirmation: EmailDefinition = {
  kind: "subscription_confirmation",
  trigger: {
    on: ["subscription.created"],
    async sends(_trx, event, organization) {
      const subscription = createdSubscription(event.data);
      if (!customerEmailOn(organization, "subscription_confirmation")) return [];
      return customerSend("subscription_confirmation", event, subscription.customer, { subscription });
    },
  },
  async message(_db, send, brand, organization) {
    const subscription = send.data.subscription;
    if (!subscription) return null;
    return {
      kind: "subscription_confirmation",
      brand,
      props: Object.assign(customerBase(organization, subscription.customer), {
        subscription: subscriptionSummary(organization, subscription, subscription.product.name),
        trial_end: subscription.status === "trialing" ? subscription.trial_end : null,
        // The first order's receipt is its own email (order_confirmation).
        order: null,
      }),
    };
  },
};

export const notificationNewSubscription: EmailDefinition = {
  kind: "notification_new_subscription",
  trigger: {
    on: ["subscription.created"],
    async sends(trx, event, organization) {
      if (!notificationOn(organization, "new_subscription")) return [];
      return memberSends(trx, "notification_new_subscription", event, { subscription: createdSubscription(event.data) });
    },
  },
  async message(_db, send, brand) {
    const subscription = send.data.subscription;
    if (!subscription) return null;
    return {
      kind: "notification_new_subscription",
      brand,
      props: Object.assign(merchantBase(), {
        customer_name: subscription.customer.name,
        customer_email: subscription.customer.email,
        product_name: subscription.product.name,
        amount: subscription.amount,
        currency: subscription.currency,
        recurring_interval: subscription.recurring_interval,
        recurring_interval_count: subscription.recurring_interval_count,
        subscription_url: consoleSubscriptionLink(subscription.id),
      }),
    };
  },
};
