// HTTP handlers of the refund operations. Create answers 201 with the refund, as Polar does (the
// clients generated before that read it from a 200: server/kit/api-versions.ts's statusFor).
import { orgCaller, type Handlers } from "../kit/context.js";
import { createRefund, listRefunds } from "./service.js";

type RefundOps = "refunds:create" | "refunds:list";

export const refundHandlers: Handlers<RefundOps> = {
  "refunds:create": async ({ body }, ctx) => ({
    status: 201,
    body: await createRefund(ctx.db, orgCaller(ctx), body, { requestKey: ctx.idempotency.requestKey }),
  }),
  "refunds:list": async ({ query }, ctx) => ({
    status: 200,
    body: await listRefunds(ctx.db, orgCaller(ctx), query),
  }),
};
