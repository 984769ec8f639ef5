// HTTP handlers of the portal's order operations (customer session callers only).
import { type Handlers, portalCustomer } from "../kit/context.js";
import { getInvoiceUrl, getReceiptUrl, requestInvoice } from "../orders/invoice.js";
import { getCustomerOrder, listCustomerOrders, updateCustomerOrder } from "../orders/service.js";
import { orderDependents } from "../subscriptions/repository.js";
import { confirmRetryPayment, getOrderPaymentStatus, portalScope } from "./orders-service.js";

type PortalOrderOps =
  | "customer_portal:orders:list"
  | "customer_portal:orders:get"
  | "customer_portal:orders:update"
  | "customer_portal:orders:generate_invoice"
  | "customer_portal:orders:invoice"
  | "customer_portal:orders:receipt"
  | "customer_portal:orders:get_payment_status"
  | "customer_portal:orders:confirm_retry_payment";

export const customerPortalOrderHandlers: Handlers<PortalOrderOps> = {
  "customer_portal:orders:list": async ({ query }, ctx) => ({
    status: 200,
    body: await listCustomerOrders(ctx.db, portalScope(portalCustomer(ctx)), query, orderDependents),
  }),
  "customer_portal:orders:get": async ({ params }, ctx) => ({
    status: 200,
    body: await getCustomerOrder(ctx.db, portalScope(portalCustomer(ctx)), params.id, orderDependents),
  }),
  "customer_portal:orders:update": async ({ params, body }, ctx) => ({
    status: 200,
    body: await updateCustomerOrder(ctx.db, portalScope(portalCustomer(ctx)), params.id, body, orderDependents),
  }),
  // 202 with a JSON body: the client fails on an empty one (COMPAT).
  "customer_portal:orders:generate_invoice": async ({ params }, ctx) => ({
    status: 202,
    body: await requestInvoice(ctx.db, portalScope(portalCustomer(ctx)), params.id),
  }),
  "customer_portal:orders:invoice": async ({ params }, ctx) => ({
    status: 200,
    body: await getInvoiceUrl(ctx.db, portalScope(portalCustomer(ctx)), params.id),
  }),
  "customer_portal:orders:receipt": async ({ params }, ctx) => ({
    status: 200,
    body: await getReceiptUrl(ctx.db, portalScope(portalCustomer(ctx)), params.id),
  }),
  "customer_portal:orders:get_payment_status": async ({ params }, ctx) => ({
    status: 200,
    body: await getOrderPaymentStatus(ctx.db, portalCustomer(ctx), params.id),
  }),
  "customer_portal:orders:confirm_retry_payment": async ({ params, body }, ctx) => ({
    status: 200,
    body: await confirmRetryPayment(ctx.db, portalCustomer(ctx), params.id, body),
  }),
};
