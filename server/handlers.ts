// The handler of every built operation. The type makes a missing handler a compile error unless
// its operation id is in server/not-built.ts, and a handler for a listed id an error too.
import type { Handler, OperationId } from "../generated/handlers.js";
import type { Ctx } from "./kit/context.js";
import type { NotBuiltOperationId } from "./not-built.js";
import { customerPortalHandlers } from "./customer-portal/handlers.js";
import { customerPortalOrderHandlers } from "./customer-portal/orders-handlers.js";
import { customerPortalPaymentMethodHandlers } from "./customer-portal/payment-methods-handlers.js";
import { customerSessionHandlers } from "./customer-sessions/handlers.js";
import { customerHandlers } from "./customers/handlers.js";
import { discountHandlers } from "./discounts/handlers.js";
import { organizationHandlers } from "./organizations/handlers.js";
import { productHandlers } from "./products/handlers.js";
import { benefitHandlers } from "./benefits/handlers.js";
import { benefitGrantHandlers } from "./benefit-grants/handlers.js";
import { customFieldHandlers } from "./custom-fields/handlers.js";
import { fileHandlers } from "./files/handlers.js";
import { meterHandlers } from "./meters/handlers.js";
import { checkoutLinkHandlers } from "./checkout-links/handlers.js";
import { checkoutHandlers } from "./checkouts/handlers.js";
import { orderHandlers } from "./orders/handlers.js";
import { paymentHandlers } from "./payments/handlers.js";
import { refundHandlers } from "./refunds/handlers.js";
import { webhookHandlers } from "./webhooks/handlers.js";
import { subscriptionHandlers } from "./subscriptions/handlers.js";
import { testClockHandlers } from "./test-clocks/handlers.js";
import { customerPortalSubscriptionHandlers } from "./customer-portal/subscriptions-handlers.js";
import { licenseKeyHandlers } from "./license-keys/handlers.js";
import { organizationAccessTokenHandlers } from "./organization-access-tokens/handlers.js";

export type BuiltOperationId = Exclude<OperationId, NotBuiltOperationId>;
export type Handlers<K extends OperationId> = { [P in K]: Handler<P, Ctx> };

export const handlers: Handlers<BuiltOperationId> = {
  ...organizationHandlers,
  ...productHandlers,
  ...benefitHandlers,
  ...benefitGrantHandlers,
  ...customFieldHandlers,
  ...fileHandlers,
  ...meterHandlers,
  ...customerHandlers,
  ...customerSessionHandlers,
  ...customerPortalHandlers,
  ...discountHandlers,
  ...checkoutLinkHandlers,
  ...checkoutHandlers,
  ...orderHandlers,
  ...paymentHandlers,
  ...refundHandlers,
  ...webhookHandlers,
  ...subscriptionHandlers,
  ...testClockHandlers,
  ...customerPortalSubscriptionHandlers,
  ...licenseKeyHandlers,
  ...customerPortalOrderHandlers,
  ...customerPortalPaymentMethodHandlers,
  ...organizationAccessTokenHandlers,
};
