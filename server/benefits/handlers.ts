// HTTP handlers of the benefit operations (a benefit's grants: benefit-grants/handlers.ts). They
// hand the service what follows a benefit's change: its grants' jobs and its products' attachments.
import { scheduleBenefitDeletion, scheduleBenefitUpdates } from "../benefit-grants/schedule.js";
import { orgCaller, type Handlers } from "../kit/context.js";
import { detachBenefit } from "../products/repository.js";
import { createBenefit, deleteBenefit, getBenefit, listBenefits, updateBenefit, type BenefitDependents } from "./service.js";

type BenefitOps = "benefits:create" | "benefits:get" | "benefits:list" | "benefits:update" | "benefits:delete";

const dependents: BenefitDependents = { scheduleBenefitUpdates, scheduleBenefitDeletion, detachBenefit };

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
    body: await updateBenefit(ctx.db, orgCaller(ctx), params.id, body, dependents),
  }),
  "benefits:delete": async ({ params }, ctx) => {
    await deleteBenefit(ctx.db, orgCaller(ctx), params.id, dependents);
    return { status: 204, body: null };
  },
};
