// HTTP handlers of the portal's customer and organization operations.
import type { CustomerCaller } from "../kit/auth.js";
import { type Ctx, type Handlers } from "../kit/context.js";
import { Unauthorized } from "../kit/errors.js";
import { getPortalCustomer, getStorefront, updatePortalCustomer } from "./service.js";

/** The customer of a portal operation (the router authenticated the session already). */
function customerCaller(ctx: Ctx): CustomerCaller {
  if (ctx.caller.kind !== "customer") throw new Unauthorized();
  return ctx.caller;
}

type PortalOps = "customer_portal:customers:get" | "customer_portal:customers:update" | "customer_portal:organizations:get";

export const customerPortalHandlers: Handlers<PortalOps> = {
  "customer_portal:customers:get": async (_req, ctx) => ({
    status: 200,
    body: await getPortalCustomer(ctx.db, customerCaller(ctx)),
  }),
  "customer_portal:customers:update": async ({ body }, ctx) => ({
    status: 200,
    body: await updatePortalCustomer(ctx.db, customerCaller(ctx), body),
  }),
  "customer_portal:organizations:get": async ({ params }, ctx) => ({
    status: 200,
    body: await getStorefront(ctx.db, params.slug),
  }),
};
