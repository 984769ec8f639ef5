// HTTP handlers of the merchant subscription operations.
import { orgCaller, type Handlers } from "../kit/context.js";
import { changeSubscription, merchantChange } from "./changes.js";
import { createSubscription, exportSubscriptions, getSubscription, listSubscriptions, readSubscription } from "./service.js";

type SubscriptionOps =
  | "subscriptions:create"
  | "subscriptions:list"
  | "subscriptions:get"
  | "subscriptions:update"
  | "subscriptions:revoke"
  | "subscriptions:export";

export const subscriptionHandlers: Handlers<SubscriptionOps> = {
  "subscriptions:create": async ({ body }, ctx) => {
    const row = await createSubscription(ctx.uow, orgCaller(ctx), body);
    return { status: 201, body: await readSubscription(ctx.db, row) };
  },
  "subscriptions:list": async ({ query }, ctx) => ({
    status: 200,
    body: await listSubscriptions(ctx.db, orgCaller(ctx), query),
  }),
  "subscriptions:get": async ({ params }, ctx) => ({
    status: 200,
    body: await getSubscription(ctx.db, orgCaller(ctx), params.id),
  }),
  "subscriptions:update": async ({ params, body }, ctx) => {
    const row = await changeSubscription(ctx.uow, orgCaller(ctx), params.id, merchantChange(body as Record<string, unknown>), "merchant");
    return { status: 200, body: await readSubscription(ctx.db, row) };
  },
  // DELETE revokes now.
  "subscriptions:revoke": async ({ params }, ctx) => {
    const row = await changeSubscription(ctx.uow, orgCaller(ctx), params.id, { kind: "revoke" }, "merchant");
    return { status: 200, body: await readSubscription(ctx.db, row) };
  },
  "subscriptions:export": async ({ query }, ctx) => ({
    status: 200,
    body: await exportSubscriptions(ctx.db, orgCaller(ctx), query),
  }),
};
