// The emails a paid order sends: the receipt of a purchase or of a subscription's first order
// (order_confirmation), the renewal receipt (subscription_cycled), and the merchant's new sale.
import type { Knex } from "knex";
import type { OrganizationRow } from "../../organizations/repository.js";
import type { EmailDefinition, EmailTrigger, OutboxEvent } from "../models.js";
import { customerEmailOn, notificationOn } from "../models.js";
import type { EmailSendInsert } from "../repository.js";
import { customerBase, customerSend, merchantBase, memberSends, orderSummary, subscriptionSummary } from "./common.js";
import { consoleOrderLink } from "../links.js";
import type { OrderOut } from "../../orders/models.js";

/** A trigger on order.paid of an order with one of these billing reasons, when the organization sends the kind. */
function onPaidOrder(
  reasons: OrderOut["billing_reason"][],
  enabled: (organization: OrganizationRow) => boolean,
  sends: (trx: Knex.Transaction, event: OutboxEvent, order: OrderOut) => Promise<EmailSendInsert[]>,
): EmailTrigger {
  return {
    on: ["order.paid"],
    async sends(trx, event, organization) {
      const order: OrderOut = JSON.parse(event.data);
      return reasons.includes(order.billing_reason) && enabled(organization) ? sends(trx, event, order) : [];
    },
  };
}

// A sale: a purchase or a new subscription's first order, not a renewal.
const SALE: OrderOut["billing_reason"][] = ["purchase", "subscription_create"];

export const orderConfirmation: EmailDefinition = {
  kind: "order_confirmation",
  trigger: onPaidOrder(
    SALE,
    (o) => customerEmailOn(o, "order_confirmation"),
    async (_trx, event, order) => customerSend("order_confirmation", event, order.customer, { order }),
  ),
  async message(_db, send, brand, organization) {
    const order = send.data.order;
    if (!order) return null;
    return {
      kind: "order_confirmation",
      brand,
      props: Object.assign(customerBase(organization, order.customer), {
        product_name: order.product.name,
        order: orderSummary(organization, order),
      }),
    };
  },
};

export const subscriptionCycled: EmailDefinition = {
  kind: "subscription_cycled",
  trigger: onPaidOrder(
    ["subscription_cycle"],
    (o) => customerEmailOn(o, "subscription_cycled"),
    async (_trx, event, order) => customerSend("subscription_cycled", event, order.customer, { order }),
  ),
  async message(_db, send, brand, organization) {
    const order = send.data.order;
    if (!order?.subscription) return null;
    return {
      kind: "subscription_cycled",
      brand,
      props: Object.assign(customerBase(organization, order.customer), {
        subscription: subscriptionSummary(organization, order.subscription, order.product.name),
        order: orderSummary(organization, order),
      }),
    };
  },
};

export const notificationNewSale: EmailDefinition = {
  kind: "notification_new_sale",
  trigger: onPaidOrder(
    SALE,
    (o) => notificationOn(o, "new_order"),
    (trx, event, order) => memberSends(trx, "notification_new_sale", event, { order }),
  ),
  async message(_db, send, brand) {
    const order = send.data.order;
    if (!order) return null;
    return {
      kind: "notification_new_sale",
      brand,
      props: Object.assign(merchantBase(), {
        customer_name: order.customer.name,
        customer_email: order.customer.email,
        product_name: order.product.name,
        amount: order.total_amount,
        currency: order.currency,
        order_url: consoleOrderLink(order.id),
      }),
    };
  },
};
