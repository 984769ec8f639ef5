// HTTP handlers of the portal's subscription operations (customer session callers only): list,
// get, change product or cancel / uncancel at period end (PATCH), revoke now (DELETE), and the
// proration preview of a product change.
import { customerScope } from "../kit/auth.js";
import { type Ctx, type Handlers, portalCustomer } from "../kit/context.js";
import { changeSubscription, customerChange, previewProductChange } from "../subscriptions/changes.js";
import { getCustomerSubscription, listCustomerSubscriptions, readCustomerSubscription } from "../subscriptions/service.js";

/** The session's subscriptions: the customer's, or the one its purchase started. */
const mine = (ctx: Ctx) => customerScope(portalCustomer(ctx), "subscriptions");

type PortalSubscriptionOps =
  | "customer_portal:subscriptions:list"
  | "customer_portal:subscriptions:get"
  | "customer_portal:subscriptions:update"
  | "customer_portal:subscriptions:cancel"
  | "customer_portal:subscriptions:preview_update";

export const customerPortalSubscriptionHandlers: Handlers<PortalSubscriptionOps> = {
  "customer_portal:subscriptions:list": async ({ query }, ctx) => ({
    status: 200,
    body: await listCustomerSubscriptions(ctx.db, mine(ctx), query),
  }),
  "customer_portal:subscriptions:get": async ({ params }, ctx) => ({
    status: 200,
    body: await getCustomerSubscription(ctx.db, mine(ctx), params.id),
  }),
  "customer_portal:subscriptions:update": async ({ params, body }, ctx) => {
    const row = await changeSubscription(ctx.uow, mine(ctx), params.id, customerChange(body as Record<string, unknown>), "customer");
    return { status: 200, body: await readCustomerSubscription(ctx.db, row) };
  },
  "customer_portal:subscriptions:preview_update": async ({ params, query }, ctx) => ({
    status: 200,
    body: await previewProductChange(ctx.db, mine(ctx), params.id, query.product_id),
  }),
  "customer_portal:subscriptions:cancel": async ({ params }, ctx) => {
    const row = await changeSubscription(ctx.uow, mine(ctx), params.id, { kind: "revoke" }, "customer");
    return { status: 200, body: await readCustomerSubscription(ctx.db, row) };
  },
};
