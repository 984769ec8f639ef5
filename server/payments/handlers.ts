// HTTP handlers of the payment operations (read only: payments are written by the money path).
import { orgCaller, type Handlers } from "../kit/context.js";
import { getPayment, listPayments } from "./service.js";

type PaymentOps = "payments:list" | "payments:get";

export const paymentHandlers: Handlers<PaymentOps> = {
  "payments:list": async ({ query }, ctx) => ({
    status: 200,
    body: await listPayments(ctx.db, orgCaller(ctx), query),
  }),
  "payments:get": async ({ params }, ctx) => ({
    status: 200,
    body: await getPayment(ctx.db, orgCaller(ctx), params.id),
  }),
};
