// HTTP handlers of the product operations.
import { orgCaller, type Handlers } from "../kit/context.js";
import { createProduct, getProduct, listProducts, updateProduct, updateProductBenefits } from "./service.js";

type ProductOps = "products:create" | "products:get" | "products:list" | "products:update" | "products:update_benefits";

export const productHandlers: Handlers<ProductOps> = {
  "products:create": async ({ body }, ctx) => ({
    status: 201,
    body: await createProduct(ctx.db, orgCaller(ctx), body),
  }),
  "products:get": async ({ params }, ctx) => ({
    status: 200,
    body: await getProduct(ctx.db, orgCaller(ctx), params.id),
  }),
  "products:list": async ({ query }, ctx) => ({
    status: 200,
    body: await listProducts(ctx.db, orgCaller(ctx), query),
  }),
  "products:update": async ({ params, body }, ctx) => ({
    status: 200,
    body: await updateProduct(ctx.db, orgCaller(ctx), params.id, body),
  }),
  "products:update_benefits": async ({ params, body }, ctx) => ({
    status: 200,
    body: await updateProductBenefits(ctx.db, orgCaller(ctx), params.id, (body as { benefits: string[] }).benefits),
  }),
};
