// The emails of a subscription's later changes, from their webhook events (data: the Subscription):
// cancellation scheduled at period end, uncanceled, revoked (access ended), and the merchant's
// notification of a cancellation; and the plan change, from the internal event
// email.subscription_product_updated (server/subscriptions/changes.ts), which names the product left.
import type { InternalEvents } from "../../kit/outbox.js";
import { findProduct } from "../../products/repository.js";
import { readSubscription } from "../../subscriptions/service.js";
import { findSubscription } from "../../subscriptions/repository.js";
import type { SubscriptionOut } from "../../subscriptions/models.js";
import { consoleSubscriptionLink } from "../links.js";
import type { EmailDefinition, OutboxEvent } from "../models.js";
import { customerEmailOn } from "../models.js";
import type { OrganizationRow } from "../../organizations/repository.js";
import type { EmailSendInsert } from "../repository.js";
import { customerBase, customerSend, merchantBase, memberSends, subscriptionSummary } from "./common.js";

const subscriptionOf = (event: OutboxEvent): SubscriptionOut => JSON.parse(event.data);

type SettingKey = keyof OrganizationRow["customer_email_settings"];

/** The customer's email of `kind` for a subscription event, when `applies` and the organization sends it. */
function onSubscriptionEvent(kind: SettingKey, type: string, applies: (s: SubscriptionOut) => boolean = () => true) {
  return {
    on: [type],
    async sends(_trx: unknown, event: OutboxEvent, organization: OrganizationRow): Promise<EmailSendInsert[]> {
      const subscription = subscriptionOf(event);
      if (!applies(subscription) || !customerEmailOn(organization, kind)) return [];
      return customerSend(kind, event, subscription.customer, { subscription });
    },
  };
}

export const subscriptionCancellation: EmailDefinition = {
  kind: "subscription_cancellation",
  // Canceled at period end; one ended at once is told by subscription_revoked.
  trigger: onSubscriptionEvent(
    "subscription_cancellation",
    "subscription.canceled",
    (s) => s.cancel_at_period_end && s.status !== "canceled",
  ),
  async message(_db, send, brand, organization) {
    const subscription = send.data.subscription;
    const endsAt = subscription?.ends_at ?? subscription?.current_period_end;
    if (!subscription || !endsAt) return null;
    return {
      kind: "subscription_cancellation",
      brand,
      props: Object.assign(customerBase(organization, subscription.customer), {
        subscription: subscriptionSummary(organization, subscription, subscription.product.name),
        ends_at: endsAt,
      }),
    };
  },
};

export const subscriptionUncanceled: EmailDefinition = {
  kind: "subscription_uncanceled",
  trigger: onSubscriptionEvent("subscription_uncanceled", "subscription.uncanceled"),
  async message(_db, send, brand, organization) {
    const subscription = send.data.subscription;
    if (!subscription) return null;
    return {
      kind: "subscription_uncanceled",
      brand,
      props: Object.assign(customerBase(organization, subscription.customer), {
        subscription: subscriptionSummary(organization, subscription, subscription.product.name),
      }),
    };
  },
};

export const subscriptionRevoked: EmailDefinition = {
  kind: "subscription_revoked",
  trigger: onSubscriptionEvent("subscription_revoked", "subscription.revoked"),
  async message(_db, send, brand, organization) {
    const subscription = send.data.subscription;
    const endedAt = subscription?.ended_at ?? subscription?.ends_at;
    if (!subscription || !endedAt) return null;
    return {
      kind: "subscription_revoked",
      brand,
      props: Object.assign(customerBase(organization, subscription.customer), {
        product_name: subscription.product.name,
        ended_at: endedAt,
      }),
    };
  },
};

export const subscriptionUpdated: EmailDefinition = {
  kind: "subscription_updated",
  trigger: {
    on: ["email.subscription_product_updated"],
    async sends(trx, event, organization) {
      if (!customerEmailOn(organization, "subscription_updated")) return [];
      const change: InternalEvents["email.subscription_product_updated"] = JSON.parse(event.data);
      const row = await findSubscription(trx, change.subscription_id);
      const previous = await findProduct(trx, change.previous_product_id);
      if (!row || !previous) return [];
      const subscription = await readSubscription(trx, row);
      return customerSend("subscription_updated", event, subscription.customer, {
        subscription,
        previous_product: { id: previous.id, name: previous.name },
      });
    },
  },
  async message(_db, send, brand, organization) {
    const { subscription, previous_product: previous } = send.data;
    if (!subscription || !previous) return null;
    return {
      kind: "subscription_updated",
      brand,
      props: Object.assign(customerBase(organization, subscription.customer), {
        previous_product_name: previous.name,
        subscription: subscriptionSummary(organization, subscription, subscription.product.name),
        effective_at: subscription.modified_at ?? subscription.created_at,
      }),
    };
  },
};

export const notificationSubscriptionCancellation: EmailDefinition = {
  kind: "notification_subscription_cancellation",
  trigger: {
    on: ["subscription.canceled"],
    sends: (trx, event) => memberSends(trx, "notification_subscription_cancellation", event, { subscription: subscriptionOf(event) }),
  },
  async message(_db, send, brand) {
    const subscription = send.data.subscription;
    const endsAt = subscription?.ends_at ?? subscription?.ended_at ?? subscription?.current_period_end;
    if (!subscription || !endsAt) return null;
    return {
      kind: "notification_subscription_cancellation",
      brand,
      props: Object.assign(merchantBase(), {
        customer_name: subscription.customer.name,
        customer_email: subscription.customer.email,
        product_name: subscription.product.name,
        ends_at: endsAt,
        reason: subscription.customer_cancellation_reason,
        comment: subscription.customer_cancellation_comment,
        subscription_url: consoleSubscriptionLink(subscription.id),
      }),
    };
  },
};
