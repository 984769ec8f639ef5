// Customer meter queries, scoped to an organization (and to one customer for the portal); the
// customer meters of deleted customers are gone.
import type { Knex } from "knex";

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
