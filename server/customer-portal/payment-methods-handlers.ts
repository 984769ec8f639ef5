// HTTP handlers of the portal's saved payment method operations.
import { type Handlers, portalCustomer } from "../kit/context.js";
import {
  addPaymentMethod,
  confirmPaymentMethod,
  deletePaymentMethod,
  listPaymentMethods,
  setDefaultPaymentMethod,
} from "./payment-methods-service.js";
import { getPortalCustomer } from "./service.js";

type PaymentMethodOps =
  | "customer_portal:customers:list_payment_methods"
  | "customer_portal:customers:add_payment_method"
  | "customer_portal:customers:delete_payment_method"
  | "customer_portal:customers:set_default_payment_method"
  | "customer_portal:customers:confirm_payment_method";

export const customerPortalPaymentMethodHandlers: Handlers<PaymentMethodOps> = {
  "customer_portal:customers:list_payment_methods": async ({ query }, ctx) => ({
    status: 200,
    body: await listPaymentMethods(ctx.db, portalCustomer(ctx), query),
  }),
  "customer_portal:customers:add_payment_method": async ({ body }, ctx) => ({
    status: 201,
    body: await addPaymentMethod(ctx.uow, portalCustomer(ctx), body),
  }),
  "customer_portal:customers:delete_payment_method": async ({ params }, ctx) => {
    await deletePaymentMethod(ctx.db, portalCustomer(ctx), params.id);
    return { status: 204, body: null };
  },
  "customer_portal:customers:set_default_payment_method": async ({ params }, ctx) => {
    await setDefaultPaymentMethod(ctx.db, portalCustomer(ctx), params.id);
    return { status: 200, body: await getPortalCustomer(ctx.db, portalCustomer(ctx)) };
  },
  "customer_portal:customers:confirm_payment_method": async ({ body }, ctx) => ({
    status: 201,
    body: await confirmPaymentMethod(ctx.uow, portalCustomer(ctx), body),
  }),
};
