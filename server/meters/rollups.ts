// Meter rollups (meter_rollups): per meter and bucket, the matched events' count, sum, min and max;
// totals per UTC hour kept exact by events/store.ts, per-customer rows per UTC day folded in by
// the worker (fold.ts). Both are rebuilt when a meter's filter or aggregation changes; unique
// meters have none. Writers take the organization's usage lock (shared for writes and folds,
// exclusive for rebuilds and attribution). Statements: rollups-repository.ts.
import type { Knex } from "knex";
import { customerEvents, organizationEvents, organizationEventsBelow, attributeEvents } from "./events-repository.js";
import type { MeterRow } from "./models.js";
import { ofOrganization } from "./repository.js";
import { addAttributedCustomerMeters, addRebuiltCustomerMeters } from "./customer-meters-repository.js";
import { lowerFirstUserEventAt } from "../customers/repository.js";
import {
  addRollups,
  deleteMeterRollups,
  foldedBelow,
  lockUsageExclusive,
  matchedCustomersSql,
  moveCustomerRollups,
} from "./rollups-repository.js";

export const externalKey = (externalId: string) => `ext:${externalId}`;

/** The customer attribution is for, with their first user event's time (customers/repository.ts's CustomerRow has both). */
interface AttributedCustomer {
  id: string;
  organization_id: string;
  first_user_event_at: Date | null;
}

/** Whether a meter has rollups (every aggregation but unique). */
export const hasRollups = (meter: Pick<MeterRow, "aggregation">) => meter.aggregation.func !== "unique";

/**
 * The meter's rollups and customer meters rebuilt from every event of its organization, in the
 * caller's transaction (a new meter over existing events, or a changed filter or aggregation): its
 * totals from all of them, its per-customer rows from those folded already (the fold adds the rest).
 */
export async function rebuildMeter(trx: Knex.Transaction, meter: MeterRow): Promise<void> {
  // The fold's row first, then the usage lock (the fold takes them in this order too).
  const folded = await foldedBelow(trx, { lock: "share" });
  await lockUsageExclusive(trx, meter.organization_id);
  await deleteMeterRollups(trx, meter.id);
  if (hasRollups(meter)) {
    await addRollups(trx, meter, organizationEvents(meter.organization_id), "total");
    await addRollups(trx, meter, organizationEventsBelow(meter.organization_id, folded), "customers");
  }
  await addRebuiltCustomerMeters(trx, meter.organization_id, matchedCustomersSql(meter, organizationEvents(meter.organization_id)));
}

/**
 * A customer now has the external id `externalId`: the events known only by it become the
 * customer's (its id filled in), and so do their rollups and customer meters; the customer's first
 * user event is lowered to the earliest of them. Answers the customer with that time.
 */
export async function attributeExternalEvents<C extends AttributedCustomer>(
  trx: Knex.Transaction,
  customer: C,
  externalId: string,
): Promise<C> {
  await lockUsageExclusive(trx, customer.organization_id);
  const { attributed, firstUserEvent } = await attributeEvents(trx, customer, externalId);
  if (!attributed) return customer;
  let out = customer;
  if (firstUserEvent && (!customer.first_user_event_at || firstUserEvent < customer.first_user_event_at)) {
    await lowerFirstUserEventAt(trx, [{ customer_id: customer.id, first: firstUserEvent }]);
    out = Object.assign({}, customer, { first_user_event_at: firstUserEvent });
  }
  const meters = await ofOrganization(trx, customer.organization_id);
  if (meters.length === 0) return out;
  await moveCustomerRollups(
    trx,
    meters.map((m) => m.id),
    externalKey(externalId),
    customer.id,
  );
  const own = customerEvents(customer.id);
  await addAttributedCustomerMeters(
    trx,
    customer.organization_id,
    meters.map((m) => matchedCustomersSql(m, own)),
  );
  return out;
}
