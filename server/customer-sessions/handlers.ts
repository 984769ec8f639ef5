// HTTP handlers of the customer session operations: the merchant's (a session for a customer) and
// the customer's own sign-in by email code, and their email change by a code sent to the new one.
import { orgCaller, type Handlers } from "../kit/context.js";
import { Unauthorized } from "../kit/errors.js";
import { authenticateCode, requestCode } from "./codes.js";
import { checkEmailUpdate, requestEmailUpdate, verifyEmailUpdate } from "./email-update.js";
import { authenticatedUser, createCustomerSession, introspectSession } from "./service.js";

type SessionOps =
  | "customer-sessions:create"
  | "customer_portal:customer_session:request"
  | "customer_portal:customer_session:authenticate"
  | "customer_portal:customer-session:introspect"
  | "customer_portal:customers:request_email_update"
  | "customer_portal:customers:check_email_update"
  | "customer_portal:customers:verify_email_update"
  | "customer_portal:customer-session:get_authenticated_user";

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
  "customer_portal:customer-session:introspect": async (_req, ctx) => {
    if (ctx.caller.kind !== "customer") throw new Unauthorized();
    return { status: 200, body: await introspectSession(ctx.db, ctx.caller) };
  },
  "customer_portal:customers:request_email_update": async ({ body }, ctx) => {
    if (ctx.caller.kind !== "customer") throw new Unauthorized();
    return { status: 202, body: await requestEmailUpdate(ctx.db, ctx.caller, body) };
  },
  "customer_portal:customers:check_email_update": async ({ query }, ctx) => {
    await checkEmailUpdate(ctx.db, query.token);
    return { status: 204, body: null };
  },
  "customer_portal:customers:verify_email_update": async ({ body }, ctx) => ({
    status: 200,
    body: await verifyEmailUpdate(ctx.db, body),
  }),
  "customer_portal:customer-session:get_authenticated_user": async (_req, ctx) => {
    if (ctx.caller.kind !== "customer") throw new Unauthorized();
    return { status: 200, body: await authenticatedUser(ctx.db, ctx.caller) };
  },
};
