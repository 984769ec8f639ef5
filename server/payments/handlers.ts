// HTTP handlers of the payment operations (read only: payments are written by the money path).
import { orgCaller, type Handlers } from "../kit/context.js";
import { getPayment, listPayments, type PaymentDependents } from "./service.js";

type PaymentOps = "payments:list" | "payments:get";

export const paymentHandlers = (dependents: PaymentDependents): Handlers<PaymentOps> => ({
  "payments:list": async ({ query }, ctx) => ({
    status: 200,
    body: await listPayments(ctx.db, orgCaller(ctx), query, dependents),
  }),
  "payments:get": async ({ params }, ctx) => ({
    status: 200,
    body: await getPayment(ctx.db, orgCaller(ctx), params.id),
  }),
});
