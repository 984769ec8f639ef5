// HTTP handlers of the benefit operations.
import { orgCaller, type Handlers } from "../kit/context.js";
import { createBenefit, deleteBenefit, getBenefit, listBenefitGrants, listBenefits, updateBenefit } from "./service.js";

type BenefitOps = "benefits:create" | "benefits:get" | "benefits:list" | "benefits:update" | "benefits:delete" | "benefits:grants";

export const benefitHandlers: Handlers<BenefitOps> = {
  "benefits:create": async ({ body }, ctx) => ({
    status: 201,
    body: await createBenefit(ctx.db, orgCaller(ctx), body),
  }),
  "benefits:get": async ({ params }, ctx) => ({
    status: 200,
    body: await getBenefit(ctx.db, orgCaller(ctx), params.id),
  }),
  "benefits:list": async ({ query }, ctx) => ({
    status: 200,
    body: await listBenefits(ctx.db, orgCaller(ctx), query),
  }),
  "benefits:update": async ({ params, body }, ctx) => ({
    status: 200,
    body: await updateBenefit(ctx.db, orgCaller(ctx), params.id, body),
  }),
  "benefits:delete": async ({ params }, ctx) => {
    await deleteBenefit(ctx.db, orgCaller(ctx), params.id);
    return { status: 204, body: null };
  },
  "benefits:grants": async ({ params, query }, ctx) => ({
    status: 200,
    body: await listBenefitGrants(ctx.db, orgCaller(ctx), params.id, query),
  }),
};
