// HTTP handlers of the benefit operations (a benefit's grants: benefit-grants/handlers.ts). A
// benefit's change schedules its grants' jobs through the scheduler handed in here.
import { scheduleBenefitDeletion, scheduleBenefitUpdates } from "../benefit-grants/schedule.js";
import { orgCaller, type Handlers } from "../kit/context.js";
import { createBenefit, deleteBenefit, getBenefit, listBenefits, updateBenefit, type BenefitDependents } from "./service.js";

type BenefitOps = "benefits:create" | "benefits:get" | "benefits:list" | "benefits:update" | "benefits:delete";

const grants: BenefitDependents = { scheduleBenefitUpdates, scheduleBenefitDeletion };

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
    body: await updateBenefit(ctx.db, orgCaller(ctx), params.id, body, grants),
  }),
  "benefits:delete": async ({ params }, ctx) => {
    await deleteBenefit(ctx.db, orgCaller(ctx), params.id, grants);
    return { status: 204, body: null };
  },
};
