// HTTP handlers of the discount operations.
import { orgCaller, type Handlers } from "../kit/context.js";
import { createDiscount, deleteDiscount, getDiscount, listDiscounts, updateDiscount } from "./service.js";

type DiscountOps = "discounts:create" | "discounts:get" | "discounts:list" | "discounts:update" | "discounts:delete";

export const discountHandlers: Handlers<DiscountOps> = {
  "discounts:create": async ({ body }, ctx) => ({
    status: 201,
    body: await createDiscount(ctx.db, orgCaller(ctx), body),
  }),
  "discounts:get": async ({ params }, ctx) => ({
    status: 200,
    body: await getDiscount(ctx.db, orgCaller(ctx), params.id),
  }),
  "discounts:list": async ({ query }, ctx) => ({
    status: 200,
    body: await listDiscounts(ctx.db, orgCaller(ctx), query),
  }),
  "discounts:update": async ({ params, body }, ctx) => ({
    status: 200,
    body: await updateDiscount(ctx.db, orgCaller(ctx), params.id, body),
  }),
  "discounts:delete": async ({ params }, ctx) => {
    await deleteDiscount(ctx.db, orgCaller(ctx), params.id);
    return { status: 204, body: null };
  },
};
