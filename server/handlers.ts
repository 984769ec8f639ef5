// The handler of every operation of the contract: the type makes a missing one a compile error.
import type { OperationId } from "../generated/handlers.js";
import type { Handlers } from "./kit/context.js";
import { customerPortalHandlers } from "./customer-portal/handlers.js";
import { customerPortalOrderHandlers } from "./customer-portal/orders-handlers.js";
import { customerPortalPaymentMethodHandlers } from "./customer-portal/payment-methods-handlers.js";
import { customerSessionHandlers } from "./customer-sessions/handlers.js";
import { customerHandlers } from "./customers/handlers.js";
import { discountHandlers } from "./discounts/handlers.js";
import { emailHandlers } from "./emails/handlers.js";
import { notificationPreferenceHandlers, organizationHandlers } from "./organizations/handlers.js";
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
import { disputeHandlers } from "./disputes/handlers.js";
import { webhookHandlers } from "./webhooks/handlers.js";
import { subscriptionHandlers } from "./subscriptions/handlers.js";
import { testClockHandlers } from "./test-clocks/handlers.js";
import { customerPortalSubscriptionHandlers } from "./customer-portal/subscriptions-handlers.js";
import { licenseKeyHandlers } from "./license-keys/handlers.js";
import { organizationAccessTokenHandlers } from "./organization-access-tokens/handlers.js";
import { oauth2Handlers } from "./oauth2/handlers.js";
import { eventHandlers } from "./events/handlers.js";
import { customerMeterHandlers } from "./customer-meters/handlers.js";
import { metricHandlers } from "./metrics/handlers.js";
import { memberHandlers } from "./members/handlers.js";
import { walletHandlers } from "./wallets/handlers.js";
import { seatHandlers } from "./seats/handlers.js";

// One map of every operation's handler. Merged with Object.assign, not one spread after another:
// V8 11 (Node 20) builds a new hidden class for an object spread followed by more properties; `merged`
// keeps the exact type (the intersection of the maps), so a missing operation stays a compile error.
function merged<T extends object[]>(...parts: T): Intersection<T[number]> {
  return Object.assign({}, ...parts);
}
type Intersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

export const handlers: Handlers<OperationId> = merged(
  organizationHandlers,
  notificationPreferenceHandlers,
  emailHandlers,
  productHandlers,
  benefitHandlers,
  benefitGrantHandlers,
  customFieldHandlers,
  fileHandlers,
  meterHandlers,
  customerHandlers,
  customerSessionHandlers,
  customerPortalHandlers,
  discountHandlers,
  checkoutLinkHandlers,
  checkoutHandlers,
  orderHandlers,
  paymentHandlers,
  refundHandlers,
  webhookHandlers,
  subscriptionHandlers,
  testClockHandlers,
  customerPortalSubscriptionHandlers,
  licenseKeyHandlers,
  customerPortalOrderHandlers,
  customerPortalPaymentMethodHandlers,
  organizationAccessTokenHandlers,
  oauth2Handlers,
  eventHandlers,
  customerMeterHandlers,
  metricHandlers,
  disputeHandlers,
  memberHandlers,
  walletHandlers,
  seatHandlers,
);
