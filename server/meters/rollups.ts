// Meter rollups (table meter_rollups): per meter and bucket, the number of events the meter's
// filter matched and the count, sum, min and max of the aggregated property; in total (customer key
// '') per UTC hour, and per customer key per UTC day. The totals are kept exact in the transaction
// that writes events (events/store.ts); the per-customer rows are folded in shortly after by the
// worker (fold.ts), since a batch of many customers' events would otherwise write about one row per
// event, and are daily so that customers with a few events an hour still fold into few rows.
// Readers of per-customer usage add the events not folded yet (usage.ts). Both levels are rebuilt
// from the events when a meter is created or its filter or aggregation changes; per-customer rows
// move to the customer's id when events known by an external customer id are attributed. Unique
// meters have none (a distinct count does not add up).
//
// Writers of one organization's usage take its usage lock: event writes and folds shared, rebuilds
// and attribution exclusive, so a rebuild never misses or double-counts events written meanwhile.
// The statements are rollups-repository.ts's (meter_rollups, usage_fold, the lock),
// events-repository.ts's (the events they are counted from) and customer-meters-repository.ts's.
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
