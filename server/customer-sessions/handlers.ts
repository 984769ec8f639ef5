// HTTP handlers of the customer session operations: the merchant's (a session for a customer) and
// the customer's own sign-in by email code.
import { orgCaller, type Handlers } from "../kit/context.js";
import { authenticateCode, requestCode } from "./codes.js";
import { createCustomerSession } from "./service.js";

type SessionOps = "customer-sessions:create" | "customer_portal:customer_session:request" | "customer_portal:customer_session:authenticate";

export const customerSessionHandlers: Handlers<SessionOps> = {
  "customer-sessions:create": async ({ body }, ctx) => ({
    status: 201,
    body: await createCustomerSession(ctx.db, orgCaller(ctx), body),
  }),
  // 202 with a JSON body (null), like the other accepted-for-later answers.
  "customer_portal:customer_session:request": async ({ body }, ctx) => ({
    status: 202,
    body: await requestCode(ctx.db, body, ctx.clientIp),
  }),
  "customer_portal:customer_session:authenticate": async ({ body }, ctx) => ({
    status: 200,
    body: await authenticateCode(ctx.db, body, ctx.clientIp),
  }),
};
