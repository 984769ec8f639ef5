// HTTP handlers of the merchant's grants (a benefit's, and all of them) and the portal's benefit grants and downloadables.
// They hand the portal's list the reads of orders and subscriptions (both stand on benefit grants).
import { type Handlers, orgCaller, portalCustomer as customerCaller } from "../kit/context.js";
import { orderIdsOfCheckouts, productOfOrder } from "../orders/repository.js";
import { productOfSubscription, subscriptionIdsOfCheckouts } from "../subscriptions/repository.js";
import {
  getPortalGrant,
  listBenefitGrants,
  listDownloadables,
  listOrganizationGrants,
  listPortalGrants,
  updatePortalGrant,
  type PortalGrantDependents,
} from "./service.js";

type Ops =
  | "benefits:grants"
  | "benefit-grants:list"
  | "customer_portal:benefit-grants:list"
  | "customer_portal:benefit-grants:get"
  | "customer_portal:benefit-grants:update"
  | "customer_portal:downloadables:list";

const dependents: PortalGrantDependents = { orderIdsOfCheckouts, subscriptionIdsOfCheckouts, productOfOrder, productOfSubscription };

export const benefitGrantHandlers: Handlers<Ops> = {
  "benefits:grants": async ({ params, query }, ctx) => ({
    status: 200,
    body: await listBenefitGrants(ctx.db, orgCaller(ctx), params.id, query),
  }),
  "benefit-grants:list": async ({ query }, ctx) => ({
    status: 200,
    body: await listOrganizationGrants(ctx.db, orgCaller(ctx), query),
  }),
  "customer_portal:benefit-grants:list": async ({ query }, ctx) => ({
    status: 200,
    body: await listPortalGrants(ctx.db, customerCaller(ctx), query, dependents),
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
