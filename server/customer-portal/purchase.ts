// A session opened by a checkout's confirm proves only that someone paid, not that they own the
// email: it shows what that checkout bought (its order, subscription, grants and license keys)
// and nothing else, until the buyer signs in with an emailed code or the merchant opens a session.
import type { Knex } from "knex";
import type { OperationId } from "../../generated/handlers.js";
import { grantsOfPurchase } from "../benefit-grants/repository.js";
import type { CustomerCaller } from "../kit/auth.js";
import { NotPermitted } from "../kit/errors.js";
import { customerOrderIdsOfCheckout } from "../orders/repository.js";
import { customerSubscriptionIdsOfCheckout } from "../subscriptions/repository.js";

/** What a purchase's session may do: read itself and what it bought, and link an account to its grants. */
const PURCHASE_OPERATIONS: ReadonlySet<OperationId> = new Set<OperationId>([
  "customer_portal:customer-session:introspect",
  "customer_portal:orders:list",
  "customer_portal:orders:get",
  "customer_portal:orders:invoice",
  "customer_portal:orders:generate_invoice",
  "customer_portal:orders:get_payment_status",
  "customer_portal:subscriptions:list",
  "customer_portal:subscriptions:get",
  "customer_portal:benefit-grants:list",
  "customer_portal:benefit-grants:get",
  "customer_portal:benefit-grants:update",
  "customer_portal:downloadables:list",
  "customer_portal:license_keys:list",
  "customer_portal:license_keys:get",
]);

export const PURCHASE_ONLY =
  "This link shows only the purchase it was made for. Sign in to the customer portal with the code we email you to see everything else.";

/** The caller, held to its purchase's rows when a checkout opened its session; NotPermitted for anything else. */
export async function holdToPurchase(db: Knex, operationId: OperationId, caller: CustomerCaller): Promise<CustomerCaller> {
  if (!caller.purchase) return caller;
  if (!PURCHASE_OPERATIONS.has(operationId)) throw new NotPermitted(PURCHASE_ONLY);
  const { checkoutId } = caller.purchase;
  const [orders, subscriptions] = await Promise.all([
    customerOrderIdsOfCheckout(db, caller.customerId, checkoutId),
    customerSubscriptionIdsOfCheckout(db, caller.customerId, checkoutId),
  ]);
  const grants = await grantsOfPurchase(db, caller.customerId, { orders, subscriptions });
  const licenseKeys = grants.flatMap((g) => (g.license_key_id ? [g.license_key_id] : []));
  return Object.assign({}, caller, { purchase: { checkoutId, orders, subscriptions, grants: grants.map((g) => g.id), licenseKeys } });
}
