// Customer meter queries: the reads of the customer meters API (server/customer-meters/), scoped
// to an organization (and to one customer for the portal), where the customer meters of deleted
// customers are gone; and the rows the usage engine gives customers as their events are counted
// (folds, rebuilds, attribution). The meters own the table: customer-meters stands above them.
import type { Knex } from "knex";
import type { Sql } from "./filter.js";

/** Who reads: an organization, or one customer of it (the portal). */
export interface CustomerMeterScope {
  organizationId: string;
  customerId?: string;
}

/** The scope's customer meters, of live customers (joined to their customers and meters, for filters and sorting). */
export function readable(db: Knex, scope: CustomerMeterScope): Knex.QueryBuilder {
  const q = db("customer_meters")
    .join("customers", "customers.id", "customer_meters.customer_id")
    .join("meters", "meters.id", "customer_meters.meter_id")
    .where("customer_meters.organization_id", scope.organizationId)
    .whereNull("customers.deleted_at")
    .select("customer_meters.*");
  return scope.customerId ? q.where("customer_meters.customer_id", scope.customerId) : q;
}

/** When a customer meter last changed, for sorting: its creation until it is modified. */
export function modifiedAtColumn(db: Knex): Knex.Raw {
  return db.raw("coalesce(customer_meters.modified_at, customer_meters.created_at)");
}

/** Gives the customer these meters; the ones it has stay as they are. */
export async function insertMissing(db: Knex, organizationId: string, customerId: string, meterIds: string[]): Promise<void> {
  await db("customer_meters")
    .insert(meterIds.map((meter_id) => ({ organization_id: organizationId, customer_id: customerId, meter_id })))
    .onConflict(["customer_id", "meter_id"])
    .ignore();
}

/** The customer meters of folded events: each (customer, meter) pair of `pairs` whose customer exists. */
export async function addFoldedCustomerMeters(trx: Knex.Transaction, organizationId: string, pairs: Sql[]): Promise<void> {
  await trx.raw(
    `insert into customer_meters (organization_id, customer_id, meter_id)
           select distinct ?::uuid, p.customer_id, p.meter_id from (${pairs.map((p) => p.sql).join(" union all ")}) as p
           join customers on customers.id = p.customer_id
           order by 2, 3 on conflict (customer_id, meter_id) do nothing`,
    [organizationId, ...pairs.flatMap((p) => p.bindings)],
  );
}

/** The customer meters of a rebuilt meter: each customer of `matched` (matchedCustomersSql) that exists. */
export async function addRebuiltCustomerMeters(trx: Knex.Transaction, organizationId: string, matched: Sql): Promise<void> {
  await trx.raw(
    `insert into customer_meters (organization_id, customer_id, meter_id)
     select ?::uuid, m.customer_id, m.meter_id from (${matched.sql}) as m
     join customers on customers.id = m.customer_id
     order by 2 on conflict (customer_id, meter_id) do nothing`,
    [organizationId, ...matched.bindings],
  );
}

/** The customer meters of an attributed customer: each (customer, meter) pair of `parts`. */
export async function addAttributedCustomerMeters(trx: Knex.Transaction, organizationId: string, parts: Sql[]): Promise<void> {
  await trx.raw(
    `insert into customer_meters (organization_id, customer_id, meter_id)
     select distinct ?::uuid, m.customer_id, m.meter_id from (${parts.map((p) => p.sql).join(" union all ")}) as m
     order by 3 on conflict (customer_id, meter_id) do nothing`,
    [organizationId, ...parts.flatMap((p) => p.bindings)],
  );
}
