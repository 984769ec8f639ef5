// The customer state view: a customer with what they hold now (active subscriptions, granted
// benefits, meters with their current balance). The API's answer to GET /v1/customers/{id}/state
// and the customer.state_changed payload. It lives above customers and customer-meters (it reads
// both) with the subscriptions it shows; customers' services and benefit grant jobs are handed
// it (customers/handlers.ts, workflows/activity-deps.ts).
import type { Knex } from "knex";
import { grantedBenefits } from "../benefit-grants/repository.js";
import { stateMeters } from "../customer-meters/service.js";
import { toCustomerState, type CustomerStateOut } from "../customers/models.js";
import type { CustomerRow } from "../customers/repository.js";
import { isActive, toStateSubscription } from "./models.js";
import { activeOfCustomer, loadSubscriptionRelations } from "./repository.js";

/** The state of a customer row: the API's answer and the customer.state_changed payload. */
export async function readCustomerState(db: Knex, row: CustomerRow): Promise<CustomerStateOut> {
  const [grants, subscriptions, meters] = await Promise.all([
    grantedBenefits(db, row.id),
    activeSubscriptions(db, row.id),
    stateMeters(db, row),
  ]);
  return toCustomerState(row, { subscriptions, grants, meters });
}

/** The customer's subscriptions in status active, as the state view shows them. */
async function activeSubscriptions(db: Knex, customerId: string) {
  const rows = await activeOfCustomer(db, customerId);
  const rel = await loadSubscriptionRelations(db, rows);
  return rows.filter(isActive).map((r) => toStateSubscription(r, rel));
}
