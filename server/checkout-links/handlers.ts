// HTTP handlers of the checkout link operations.
import { orgCaller, type Handlers } from "../kit/context.js";
import { createCheckoutLink, deleteCheckoutLink, getCheckoutLink, listCheckoutLinks, updateCheckoutLink } from "./service.js";

type CheckoutLinkOps =
  "checkout-links:create" | "checkout-links:get" | "checkout-links:list" | "checkout-links:update" | "checkout-links:delete";

export const checkoutLinkHandlers: Handlers<CheckoutLinkOps> = {
  "checkout-links:create": async ({ body }, ctx) => ({
    status: 201,
    body: await createCheckoutLink(ctx.db, orgCaller(ctx), body),
  }),
  "checkout-links:get": async ({ params }, ctx) => ({
    status: 200,
    body: await getCheckoutLink(ctx.db, orgCaller(ctx), params.id),
  }),
  "checkout-links:list": async ({ query }, ctx) => ({
    status: 200,
    body: await listCheckoutLinks(ctx.db, orgCaller(ctx), query),
  }),
  "checkout-links:update": async ({ params, body }, ctx) => ({
    status: 200,
    body: await updateCheckoutLink(ctx.db, orgCaller(ctx), params.id, body),
  }),
  "checkout-links:delete": async ({ params }, ctx) => {
    await deleteCheckoutLink(ctx.db, orgCaller(ctx), params.id);
    return { status: 204, body: null };
  },
};
