// HTTP handlers of the checkout operations: the merchant's (token) and the buyer's (client secret).
import { orgCaller, type Handlers } from "../kit/context.js";
import { confirmCheckout } from "./confirm.js";
import { clientGetCheckout, clientUpdateCheckout, createCheckout, getCheckout, listCheckouts, updateCheckout } from "./service.js";

type CheckoutOps =
  | "checkouts:create"
  | "checkouts:get"
  | "checkouts:list"
  | "checkouts:update"
  | "checkouts:client_get"
  | "checkouts:client_update"
  | "checkouts:client_confirm";

export const checkoutHandlers: Handlers<CheckoutOps> = {
  "checkouts:create": async ({ body }, ctx) => ({
    status: 201,
    body: await createCheckout(ctx.db, orgCaller(ctx), body, ctx.idempotency.journal),
  }),
  "checkouts:get": async ({ params }, ctx) => ({
    status: 200,
    body: await getCheckout(ctx.db, orgCaller(ctx), params.id),
  }),
  "checkouts:list": async ({ query }, ctx) => ({
    status: 200,
    body: await listCheckouts(ctx.db, orgCaller(ctx), query),
  }),
  "checkouts:update": async ({ params, body }, ctx) => ({
    status: 200,
    body: await updateCheckout(ctx.db, orgCaller(ctx), params.id, body, ctx.idempotency.journal),
  }),
  "checkouts:client_get": async ({ params }, ctx) => ({
    status: 200,
    body: await clientGetCheckout(ctx.db, params.client_secret),
  }),
  "checkouts:client_update": async ({ params, body }, ctx) => ({
    status: 200,
    body: await clientUpdateCheckout(ctx.db, params.client_secret, body, ctx.idempotency.journal),
  }),
  "checkouts:client_confirm": async ({ params, body }, ctx) => ({
    status: 200,
    body: await confirmCheckout(ctx.db, ctx.caller, params.client_secret, body, ctx.idempotency.journal),
  }),
};
