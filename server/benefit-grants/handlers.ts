// HTTP handlers of a benefit's grants (merchant) and the portal's benefit grants and downloadables.
import { type Handlers, orgCaller, portalCustomer as customerCaller } from "../kit/context.js";
import { getPortalGrant, listBenefitGrants, listDownloadables, listPortalGrants, updatePortalGrant } from "./service.js";

type Ops =
  | "benefits:grants"
  | "customer_portal:benefit-grants:list"
  | "customer_portal:benefit-grants:get"
  | "customer_portal:benefit-grants:update"
  | "customer_portal:downloadables:list";

export const benefitGrantHandlers: Handlers<Ops> = {
  "benefits:grants": async ({ params, query }, ctx) => ({
    status: 200,
    body: await listBenefitGrants(ctx.db, orgCaller(ctx), params.id, query),
  }),
  "customer_portal:benefit-grants:list": async ({ query }, ctx) => ({
    status: 200,
    body: await listPortalGrants(ctx.db, customerCaller(ctx), query),
  }),
  "customer_portal:benefit-grants:get": async ({ params }, ctx) => ({
    status: 200,
    body: await getPortalGrant(ctx.db, customerCaller(ctx), params.id),
  }),
  "customer_portal:benefit-grants:update": async ({ params, body }, ctx) => ({
    status: 200,
    body: await updatePortalGrant(ctx.db, customerCaller(ctx), params.id, body),
  }),
  "customer_portal:downloadables:list": async ({ query }, ctx) => ({
    status: 200,
    body: await listDownloadables(ctx.db, customerCaller(ctx), query),
  }),
};
