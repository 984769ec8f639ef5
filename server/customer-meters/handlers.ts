// HTTP handlers of the customer meter operations (merchant) and the portal's own.
import { orgCaller, type Handlers, portalCustomer } from "../kit/context.js";
import { getCustomerMeter, getPortalCustomerMeter, listCustomerMeters, listPortalCustomerMeters } from "./service.js";

type CustomerMeterOps =
  "customer_meters:list" | "customer_meters:get" | "customer_portal:customer_meters:list" | "customer_portal:customer_meters:get";

export const customerMeterHandlers: Handlers<CustomerMeterOps> = {
  "customer_meters:list": async ({ query }, ctx) => ({
    status: 200,
    body: await listCustomerMeters(ctx.db, orgCaller(ctx), query),
  }),
  "customer_meters:get": async ({ params }, ctx) => ({
    status: 200,
    body: await getCustomerMeter(ctx.db, orgCaller(ctx), params.id),
  }),
  "customer_portal:customer_meters:list": async ({ query }, ctx) => ({
    status: 200,
    body: await listPortalCustomerMeters(ctx.db, portalCustomer(ctx), query),
  }),
  "customer_portal:customer_meters:get": async ({ params }, ctx) => ({
    status: 200,
    body: await getPortalCustomerMeter(ctx.db, portalCustomer(ctx), params.id),
  }),
};
