// The emails of a refund that went through (refund.updated with status succeeded; a refund the
// processor answers at once is told so by the same event): the customer's refund issued, and the
// merchant's notification.
import { readOrder } from "../../orders/service.js";
import { findOrder } from "../../orders/repository.js";
import type { RefundOut } from "../../refunds/models.js";
import { orderDependents } from "../../subscriptions/repository.js";
import { consoleOrderLink, orderPortalLink } from "../links.js";
import { customerEmailOn, type EmailDefinition, type EmailSendData, type OutboxEvent } from "../models.js";
import type { Knex } from "knex";
import { customerBase, customerSend, merchantBase, memberSends } from "./common.js";

/** The succeeded refund of the event and its order as it is now; null for any other refund event. */
async function succeededRefund(
  trx: Knex.Transaction,
  event: OutboxEvent,
): Promise<Required<Pick<EmailSendData, "refund" | "order">> | null> {
  const refund: RefundOut = JSON.parse(event.data);
  if (refund.status !== "succeeded") return null;
  const row = await findOrder(trx, refund.order_id);
  return row ? { refund, order: await readOrder(trx, row, orderDependents) } : null;
}

/** What the customer got back: the refund and the tax it reverted. */
const refunded = (refund: RefundOut) => refund.amount + refund.tax_amount;

export const orderRefunded: EmailDefinition = {
  kind: "order_refunded",
  trigger: {
    on: ["refund.updated"],
    async sends(trx, event, organization) {
      const found = customerEmailOn(organization, "order_refunded") ? await succeededRefund(trx, event) : null;
      return found ? customerSend("order_refunded", event, found.order.customer, found) : [];
    },
  },
  async message(_db, send, brand, organization) {
    const { refund, order } = send.data;
    if (!refund || !order) return null;
    return {
      kind: "order_refunded",
      brand,
      props: Object.assign(customerBase(organization, order.customer), {
        product_name: order.product.name,
        invoice_number: order.invoice_number || null,
        refund_amount: refunded(refund),
        currency: refund.currency,
        order_total_amount: order.total_amount,
        refunded_at: refund.modified_at ?? refund.created_at,
        order_url: orderPortalLink(organization.slug, order.id),
      }),
    };
  },
};

export const notificationRefund: EmailDefinition = {
  kind: "notification_refund",
  trigger: {
    on: ["refund.updated"],
    async sends(trx, event) {
      const found = await succeededRefund(trx, event);
      return found ? memberSends(trx, "notification_refund", event, found) : [];
    },
  },
  async message(_db, send, brand) {
    const { refund, order } = send.data;
    if (!refund || !order) return null;
    return {
      kind: "notification_refund",
      brand,
      props: Object.assign(merchantBase(), {
        customer_name: order.customer.name,
        customer_email: order.customer.email,
        product_name: order.product.name,
        refund_amount: refunded(refund),
        currency: refund.currency,
        reason: refund.reason,
        order_url: consoleOrderLink(order.id),
      }),
    };
  },
};
