// The handler of every operation of the contract: the type makes a missing one a compile error.
import type { OperationId } from "../generated/handlers.js";
import type { Handlers } from "./kit/context.js";
import { customerPortalHandlers } from "./customer-portal/handlers.js";
import { customerPortalOrderHandlers } from "./customer-portal/orders-handlers.js";
import { customerPortalPaymentMethodHandlers } from "./customer-portal/payment-methods-handlers.js";
import { customerSessionHandlers } from "./customer-sessions/handlers.js";
import { revokeCustomerSessions } from "./customer-sessions/repository.js";
import { customerHandlers } from "./customers/handlers.js";
import { discountHandlers } from "./discounts/handlers.js";
import { emailHandlers } from "./emails/handlers.js";
import { notificationPreferenceHandlers, organizationHandlers } from "./organizations/handlers.js";
import { productHandlers } from "./products/handlers.js";
import { liveCreditsOnMeter } from "./benefits/repository.js";
import { benefitPositionInProduct, detachBenefit, detachCustomField, livePricesOnMeter } from "./products/repository.js";
import { benefitHandlers } from "./benefits/handlers.js";
import { benefitGrantHandlers } from "./benefit-grants/handlers.js";
import { scheduleBenefitDeletion, scheduleBenefitUpdates } from "./benefit-grants/schedule.js";
import { customFieldHandlers } from "./custom-fields/handlers.js";
import { fileHandlers } from "./files/handlers.js";
import { meterHandlers } from "./meters/handlers.js";
import { attributeExternalEvents } from "./meters/rollups.js";
import { checkoutLinkHandlers } from "./checkout-links/handlers.js";
import { checkoutHandlers } from "./checkouts/handlers.js";
import { checkoutOfCustomers, checkoutOfPayerEmails } from "./checkouts/repository.js";
import { orderHandlers } from "./orders/handlers.js";
import { orderIdsOfCheckouts, productOfOrder } from "./orders/repository.js";
import { paymentHandlers } from "./payments/handlers.js";
import { refundHandlers } from "./refunds/handlers.js";
import { webhookHandlers } from "./webhooks/handlers.js";
import { subscriptionHandlers } from "./subscriptions/handlers.js";
import { readCustomerState } from "./subscriptions/customer-state.js";
import {
  hasSubscriptions,
  liveSubscriptionOf,
  somethingDueOnClock,
  orderDependents,
  productOfSubscription,
  subscriptionIdsOfCheckouts,
  subscriptionIdsOnClock,
} from "./subscriptions/repository.js";
import { testClockHandlers } from "./test-clocks/handlers.js";
import { customerPortalSubscriptionHandlers } from "./customer-portal/subscriptions-handlers.js";
import { licenseKeyHandlers } from "./license-keys/handlers.js";
import { organizationAccessTokenHandlers } from "./organization-access-tokens/handlers.js";
import { oauth2Handlers } from "./oauth2/handlers.js";
import { eventHandlers } from "./events/handlers.js";
import { customerMeterHandlers } from "./customer-meters/handlers.js";
import { metricHandlers } from "./metrics/handlers.js";

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
  // Benefits, custom fields and customers are below what stands on them (grants, products, portal
  // sessions), so a change to one is handed what follows it there (the same calls, in its transaction);
  // customers' state view is handed the reader that shows subscriptions and meters; meters are
  // handed the counts of what stands on one (prices, meter credits) before it is archived; orders
  // are handed the reader of the subscription an order shows.
  benefitHandlers({ scheduleBenefitUpdates, scheduleBenefitDeletion, detachBenefit }),
  benefitGrantHandlers({
    orderIdsOfCheckouts,
    subscriptionIdsOfCheckouts,
    // A grant's benefit's place in the product of the order or subscription that granted it.
    benefitPositionOfGrant: (db) =>
      benefitPositionInProduct(db, "benefit_grants.benefit_id", [
        productOfOrder(db, "benefit_grants.order_id"),
        productOfSubscription(db, "benefit_grants.subscription_id"),
      ]),
  }),
  customFieldHandlers({ detachCustomField }),
  fileHandlers,
  meterHandlers({ livePricesOnMeter, liveCreditsOnMeter }),
  customerHandlers({ revokeCustomerSessions, readCustomerState, attributeExternalEvents, liveSubscriptionOf }),
  customerSessionHandlers,
  customerPortalHandlers,
  discountHandlers,
  checkoutLinkHandlers,
  checkoutHandlers,
  orderHandlers(orderDependents),
  paymentHandlers({ checkoutOfCustomers, checkoutOfPayerEmails }),
  refundHandlers,
  webhookHandlers,
  subscriptionHandlers,
  testClockHandlers({ somethingDueOnClock, subscriptionIdsOnClock, hasSubscriptions }),
  customerPortalSubscriptionHandlers,
  licenseKeyHandlers,
  customerPortalOrderHandlers,
  customerPortalPaymentMethodHandlers,
  organizationAccessTokenHandlers,
  oauth2Handlers,
  eventHandlers,
  customerMeterHandlers,
  metricHandlers,
);
