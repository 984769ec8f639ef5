// HTTP handlers of the refund operations. Create answers 200 with the refund (COMPAT: the client
// ignores a 201's body).
import { orgCaller, type Handlers } from "../kit/context.js";
import { createRefund, listRefunds } from "./service.js";

type RefundOps = "refunds:create" | "refunds:list";

export const refundHandlers: Handlers<RefundOps> = {
  "refunds:create": async ({ body }, ctx) => ({
    status: 200,
    body: await createRefund(ctx.db, orgCaller(ctx), body, { requestKey: ctx.idempotency.requestKey }),
  }),
  "refunds:list": async ({ query }, ctx) => ({
    status: 200,
    body: await listRefunds(ctx.db, orgCaller(ctx), query),
  }),
};
