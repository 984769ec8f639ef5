// HTTP handlers of the dispute operations: the merchant reads disputes and concedes open ones.
import { orgCaller, type Handlers } from "../kit/context.js";
import { acceptDispute, getDispute, listDisputes } from "./service.js";

type DisputeOps = "disputes:list" | "disputes:get" | "disputes:accept";

export const disputeHandlers: Handlers<DisputeOps> = {
  "disputes:list": async ({ query }, ctx) => ({
    status: 200,
    body: await listDisputes(ctx.db, orgCaller(ctx), query),
  }),
  "disputes:get": async ({ params }, ctx) => ({
    status: 200,
    body: await getDispute(ctx.db, orgCaller(ctx), params.id),
  }),
  "disputes:accept": async ({ params }, ctx) => ({
    status: 200,
    body: await acceptDispute(ctx.uow, orgCaller(ctx), params.id),
  }),
};
