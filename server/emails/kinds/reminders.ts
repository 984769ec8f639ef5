// The periodic emails' messages (enqueued by ../reminders.ts, no outbox trigger): the renewal
// reminder of a yearly subscription and the card-expiring reminder. Each is read at send time and
// skipped when it no longer holds (the subscription renewed, ended or will end; the card was removed).
import { findLivePaymentMethod } from "../../customers/repository.js";
import { findSubscription } from "../../subscriptions/repository.js";
import { readSubscription } from "../../subscriptions/service.js";
import type { SubscriptionOut } from "../../subscriptions/models.js";
import type { OrganizationRow } from "../../organizations/repository.js";
import { emailPreferencesLink, updatePaymentMethodLink } from "../links.js";
import type { EmailDefinition } from "../models.js";
import type { Knex } from "knex";
import { customerBase, subscriptionSummary } from "./common.js";

/** The subscription as it is now, when it still renews (in one of `statuses`). */
async function renewing(db: Knex, id: string, statuses: readonly string[] = ["active"]): Promise<SubscriptionOut | null> {
  const row = await findSubscription(db, id);
  return row && statuses.includes(row.status) && !row.cancel_at_period_end ? readSubscription(db, row) : null;
}

const nonEssentialBase = (organization: OrganizationRow, subscription: SubscriptionOut) =>
  Object.assign(customerBase(organization, subscription.customer), { preferences_url: emailPreferencesLink(organization.slug) });

export const subscriptionRenewalReminder: EmailDefinition = {
  kind: "subscription_renewal_reminder",
  async message(db, send, brand, organization) {
    const renewal = send.data.renewal;
    const subscription = renewal ? await renewing(db, renewal.subscription_id) : null;
    // Renewed (or moved) meanwhile: this reminder is for a period end that is gone.
    if (!renewal || !subscription || subscription.current_period_end !== renewal.renews_at) return null;
    return {
      kind: "subscription_renewal_reminder",
      brand,
      props: Object.assign(nonEssentialBase(organization, subscription), {
        subscription: subscriptionSummary(organization, subscription, subscription.product.name),
        renews_at: renewal.renews_at,
      }),
    };
  },
};

export const paymentMethodExpirationReminder: EmailDefinition = {
  kind: "payment_method_expiration_reminder",
  async message(db, send, brand, organization) {
    const card = send.data.card;
    if (!card || !send.customer_id) return null;
    const method = await findLivePaymentMethod(db, send.customer_id, card.payment_method_id);
    const subscription = await renewing(db, card.subscription_id, ["active", "trialing"]);
    if (!method || !subscription) return null;
    return {
      kind: "payment_method_expiration_reminder",
      brand,
      props: Object.assign(nonEssentialBase(organization, subscription), {
        card_brand: method.method_metadata.brand ?? "card",
        last4: method.method_metadata.last4 ?? "",
        exp_month: card.exp_month,
        exp_year: card.exp_year,
        update_payment_method_url: updatePaymentMethodLink(organization.slug),
      }),
    };
  },
};
