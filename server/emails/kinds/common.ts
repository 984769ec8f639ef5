// What the kinds share: whom a customer email or a merchant notification goes to, and the order
// and subscription as their emails show them (every link built by ../links.ts).
import type { Knex } from "knex";
import type { CustomerEmailBase, MerchantEmailBase, OrderSummary, SubscriptionSummary } from "../../../emails/src/index.js";
import type { OrderOut } from "../../orders/models.js";
import { mutedMembers } from "../../organizations/notification-mutes-repository.js";
import { notifiedMembers, type OrganizationRow } from "../../organizations/repository.js";
import type { SubscriptionOut } from "../../subscriptions/models.js";
import { invoiceLink, notificationSettingsLink, orderPortalLink, portalLink, subscriptionManageLink } from "../links.js";
import { outboxDedupeKey, type EmailSendData, type OutboxEvent } from "../models.js";
import type { EmailSendInsert } from "../repository.js";

type Customer = OrderOut["customer"];

/** The one send of a customer email an outbox event triggers (none for a deleted customer). */
export function customerSend(kind: string, event: OutboxEvent, customer: Customer, data: EmailSendData): EmailSendInsert[] {
  if (customer.deleted_at || !customer.email) return [];
  return [
    {
      organization_id: event.organization_id,
      kind,
      recipient: customer.email,
      customer_id: customer.id,
      dedupe_key: outboxDedupeKey(event),
      data: { ...data },
    },
  ];
}

/** One send per owner and admin of the organization, but those who muted this kind for themselves. */
export async function memberSends(
  trx: Knex.Transaction,
  kind: string,
  event: OutboxEvent,
  data: EmailSendData,
): Promise<EmailSendInsert[]> {
  const [members, muted] = await Promise.all([notifiedMembers(trx, event.organization_id), mutedMembers(trx, event.organization_id, kind)]);
  return members
    .filter((m) => !muted.includes(m.user_id))
    .map((m) => ({
      organization_id: event.organization_id,
      kind,
      recipient: m.email,
      user_id: m.user_id,
      dedupe_key: outboxDedupeKey(event),
      data: { ...data },
    }));
}

export function customerBase(organization: OrganizationRow, customer: Customer): CustomerEmailBase {
  return { customer_name: customer.name, customer_email: customer.email, portal_url: portalLink(organization.slug) };
}

export const merchantBase = (): MerchantEmailBase => ({ notification_settings_url: notificationSettingsLink() });

/** The order as its receipt shows it, with its portal page and its invoice download. */
export function orderSummary(organization: OrganizationRow, order: OrderOut): OrderSummary {
  return {
    invoice_number: order.invoice_number || null,
    created_at: order.created_at,
    currency: order.currency,
    items: order.items.map((i) => ({ label: i.label, amount: i.amount })),
    subtotal_amount: order.subtotal_amount,
    discount_amount: order.discount_amount,
    discount_name: order.discount?.name ?? null,
    tax_amount: order.tax_amount,
    tax_label: order.tax_rate?.display_name ?? null,
    tax_rate: order.tax_rate ? order.tax_rate.basis_points / 100 : null,
    total_amount: order.total_amount,
    order_url: orderPortalLink(organization.slug, order.id),
    invoice_url: invoiceLink(order.id),
  };
}

/** A subscription's price and period, with where the customer manages it. */
export function subscriptionSummary(
  organization: OrganizationRow,
  subscription: Pick<
    SubscriptionOut,
    "id" | "amount" | "currency" | "recurring_interval" | "recurring_interval_count" | "current_period_end"
  >,
  productName: string,
): SubscriptionSummary {
  return {
    product_name: productName,
    amount: subscription.amount,
    currency: subscription.currency,
    recurring_interval: subscription.recurring_interval,
    recurring_interval_count: subscription.recurring_interval_count,
    current_period_end: subscription.current_period_end,
    manage_url: subscriptionManageLink(organization.slug, subscription.id),
  };
}
