// Event queries, always scoped to the caller's organization. Which events are a customer's (those
// carrying its id, and those known only by its external id that are not attributed yet) is
// meters/filter.ts's whereCustomers, shared with the meters' quantities.
import type { Knex } from "knex";
import type { CustomerRow } from "../customers/repository.js";
import { isUuid } from "../kit/ids.js";
import type { EventRow } from "./models.js";

export function readable(db: Knex, organizationId: string): Knex.QueryBuilder {
  return db("events").where("events.organization_id", organizationId);
}

export async function findReadable(db: Knex, organizationId: string, id: string): Promise<EventRow | undefined> {
  if (!isUuid(id)) return undefined;
  return (await readable(db, organizationId).where("events.id", id).first("events.*")) as EventRow | undefined;
}

/**
 * The customers the events name: by id, or (not attributed yet) by live customers' external ids.
 * Keyed by customer id and by `ext:<external id>`.
 */
export async function customersOf(db: Knex, organizationId: string, rows: EventRow[]): Promise<Map<string, CustomerRow>> {
  const ids = [...new Set(rows.map((r) => r.customer_id).filter((v): v is string => v !== null))];
  const external = [...new Set(rows.filter((r) => r.customer_id === null && r.external_customer_id !== null).map((r) => r.external_customer_id!))];
  const out = new Map<string, CustomerRow>();
  if (ids.length === 0 && external.length === 0) return out;
  const customers = (await db("customers")
    .where("organization_id", organizationId)
    .where((w) => w.whereIn("id", ids).orWhere((e) => e.whereIn("external_id", external).whereNull("deleted_at")))) as CustomerRow[];
  for (const c of customers) {
    out.set(c.id, c);
    if (c.external_id !== null && c.deleted_at === null) out.set(`ext:${c.external_id}`, c);
  }
  return out;
}

export function customerOf(row: EventRow, customers: Map<string, CustomerRow>): CustomerRow | undefined {
  if (row.customer_id !== null) return customers.get(row.customer_id);
  return row.external_customer_id !== null ? customers.get(`ext:${row.external_customer_id}`) : undefined;
}

/** The organization's event names with their counts (kept up to date as events are stored). */
export function eventNames(db: Knex, organizationId: string): Knex.QueryBuilder {
  return db("event_names").where("organization_id", organizationId).select("*");
}

/** Counts each event name of a query of events. */
export function countNames(db: Knex, events: Knex.QueryBuilder): Knex.QueryBuilder {
  return events
    .select("events.organization_id", "events.name", "events.source")
    .select(db.raw("count(*) as occurrences, min(events.timestamp) as first_seen, max(events.timestamp) as last_seen"))
    .groupBy("events.organization_id", "events.name", "events.source");
}

