// HTTP handlers of the merchant order operations; the reads are handed what orders cannot read
// themselves (the subscription an order shows: subscriptions/repository.ts imports orders).
import { orgCaller, type Handlers } from "../kit/context.js";
import { orderDependents as dependents } from "../subscriptions/repository.js";
import { createDraftOrder, finalizeOrder } from "./drafts.js";
import { exportOrders } from "./export.js";
import { getInvoiceUrl, getReceiptUrl, requestInvoice } from "./invoice.js";
import { getOrder, listOrders, updateOrder } from "./service.js";
import { getTaxReport } from "./tax-report.js";

type OrderOps =
  | "orders:list"
  | "orders:get"
  | "orders:update"
  | "orders:create"
  | "orders:finalize"
  | "orders:generate_invoice"
  | "orders:invoice"
  | "orders:receipt"
  | "orders:export"
  | "tax:report";

export const orderHandlers: Handlers<OrderOps> = {
  "orders:list": async ({ query }, ctx) => ({
    status: 200,
    body: await listOrders(ctx.db, orgCaller(ctx), query, dependents),
  }),
  "orders:get": async ({ params }, ctx) => ({
    status: 200,
    body: await getOrder(ctx.db, orgCaller(ctx), params.id, dependents),
  }),
  "orders:update": async ({ params, body }, ctx) => ({
    status: 200,
    body: await updateOrder(ctx.db, orgCaller(ctx), params.id, body, dependents),
  }),
  // 202 with a JSON body: the client fails on an empty one (COMPAT).
  "orders:create": async ({ body }, ctx) => ({
    status: 201,
    body: await createDraftOrder(ctx.db, orgCaller(ctx), body, dependents),
  }),
  "orders:finalize": async ({ params, body }, ctx) => ({
    status: 200,
    body: await finalizeOrder(ctx.db, orgCaller(ctx), params.id, body, dependents),
  }),
  "orders:receipt": async ({ params }, ctx) => ({
    status: 200,
    body: await getReceiptUrl(ctx.db, orgCaller(ctx), params.id),
  }),
  "orders:generate_invoice": async ({ params }, ctx) => ({
    status: 202,
    body: await requestInvoice(ctx.db, orgCaller(ctx), params.id),
  }),
  "orders:invoice": async ({ params }, ctx) => ({
    status: 200,
    body: await getInvoiceUrl(ctx.db, orgCaller(ctx), params.id),
  }),
  "tax:report": async ({ query }, ctx) => ({
    status: 200,
    body: await getTaxReport(ctx.db, orgCaller(ctx), query),
  }),
  "orders:export": async ({ query }, ctx) => ({
    status: 200,
    body: await exportOrders(ctx.db, orgCaller(ctx), query),
  }),
};
