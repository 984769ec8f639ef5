// Customer meters: a customer's meter (created when its first event, credit or metered subscription
// names it) read with its current window's consumed and credited units and the balance (see
// meters/usage.ts for the window). Merchant reads, portal reads of the session's customer, and the
// active meters of the customer state.
import type { Knex } from "knex";
import type { OpQuery } from "../../generated/handlers.js";
import { byIds as customersByIds, type CustomerRow } from "../customers/repository.js";
import type { CustomerCaller, OrganizationCaller } from "../kit/auth.js";
import { ResourceNotFound } from "../kit/errors.js";
import { asList, isUuid } from "../kit/ids.js";
import { applySorting, DEFAULT_LIMIT, listPage, MAX_LIMIT, type Page, type SortMap } from "../kit/pagination.js";
import { byIds as metersByIds } from "../meters/repository.js";
import { computeUsage } from "../meters/usage.js";
import { insertMissing, modifiedAtColumn, readable, type CustomerMeterScope } from "../meters/customer-meters-repository.js";
import { toCustomerMeter, toPortalCustomerMeter, toStateMeter, type CustomerMeterRow, type CustomerMeterView } from "./models.js";

export type CustomerMeterListQuery = OpQuery<"customer_meters:list">;
export type PortalCustomerMeterListQuery = OpQuery<"customer_portal:customer_meters:list">;

type Scope = CustomerMeterScope;

/** The rows with their customers, meters and current usage. */
async function views(db: Knex, rows: CustomerMeterRow[]): Promise<CustomerMeterView[]> {
  if (rows.length === 0) return [];
  const [customers, meters] = await Promise.all([
    customersByIds(db, [...new Set(rows.map((r) => r.customer_id))]),
    metersByIds(db, [...new Set(rows.map((r) => r.meter_id))]),
  ]);
  const customerById = new Map(customers.map((c) => [c.id, c]));
  const meterById = new Map(meters.map((m) => [m.id, m]));
  const usage = await computeUsage(
    db,
    rows.map((r) => ({ meter: meterById.get(r.meter_id)!, customer: customerById.get(r.customer_id)!, from: null, until: null })),
  );
  return rows.map((row, i) => ({
    row,
    customer: customerById.get(row.customer_id)!,
    meter: meterById.get(row.meter_id)!,
    usage: usage[i],
  }));
}

const COMPUTED: Record<string, (v: CustomerMeterView) => number> = {
  consumed_units: (v) => v.usage.consumed,
  credited_units: (v) => Math.trunc(v.usage.credited),
  balance: (v) => Math.trunc(v.usage.credited) - v.usage.consumed,
};

/**
 * One page of the scope's customer meters. Sorting by a stored column pages in SQL; sorting by
 * consumed or credited units or the balance (values of the current window, computed on read)
 * computes them for every matching meter, then sorts and pages.
 */
async function page<T>(
  db: Knex,
  q: Knex.QueryBuilder,
  query: { page?: number; limit?: number; sorting?: string[] | string | null },
  sorts: SortMap,
  toItem: (v: CustomerMeterView) => T,
): Promise<Page<T>> {
  const sorting = asList(query.sorting);
  const keys = sorting.length ? sorting : ["-modified_at"];
  if (!keys.some((k) => COMPUTED[k.replace(/^-/, "")])) {
    applySorting(q, keys, sorts, [], "customer_meters.id");
    return listPage(q, query, async (rows: CustomerMeterRow[]) => (await views(db, rows)).map(toItem));
  }
  const all = await views(db, (await q.orderBy("customer_meters.id")) as CustomerMeterRow[]);
  const value = (v: CustomerMeterView, key: string): number | string => {
    const name = key.replace(/^-/, "");
    if (COMPUTED[name]) return COMPUTED[name](v);
    if (name === "created_at") return new Date(v.row.created_at).getTime();
    if (name === "modified_at") return v.row.modified_at ? new Date(v.row.modified_at).getTime() : 0;
    if (name === "customer_id") return v.row.customer_id;
    if (name === "meter_id") return v.row.meter_id;
    if (name === "customer_name") return v.customer.name ?? "";
    if (name === "meter_name") return v.meter.name;
    return 0;
  };
  all.sort((a, b) => {
    for (const key of keys) {
      const x = value(a, key);
      const y = value(b, key);
      if (x !== y) return (x < y ? -1 : 1) * (key.startsWith("-") ? -1 : 1);
    }
    return 0;
  });
  const limit = Math.min(query.limit ?? DEFAULT_LIMIT, MAX_LIMIT);
  const start = ((query.page ?? 1) - 1) * limit;
  return {
    items: all.slice(start, start + limit).map(toItem),
    pagination: { total_count: all.length, max_page: Math.ceil(all.length / limit) },
  };
}

const byIds = (q: Knex.QueryBuilder, column: string, value: string[] | string | null | undefined) => {
  const ids = asList(value);
  if (ids.length) q.whereIn(column, ids.filter(isUuid));
};

export async function listCustomerMeters(db: Knex, caller: OrganizationCaller, query: CustomerMeterListQuery) {
  const q = readable(db, { organizationId: caller.organizationId });
  byIds(q, "customer_meters.organization_id", query.organization_id);
  byIds(q, "customer_meters.customer_id", query.customer_id);
  byIds(q, "customer_meters.meter_id", query.meter_id);
  const external = asList(query.external_customer_id);
  if (external.length) q.whereIn("customers.external_id", external);
  return page(
    db,
    q,
    query,
    {
      created_at: "customer_meters.created_at",
      modified_at: modifiedAtColumn(db),
      customer_id: "customer_meters.customer_id",
      customer_name: "customers.name",
      meter_id: "customer_meters.meter_id",
      meter_name: "meters.name",
    },
    toCustomerMeter,
  );
}

export async function getCustomerMeter(db: Knex, caller: OrganizationCaller, id: string) {
  const row = isUuid(id)
    ? ((await readable(db, { organizationId: caller.organizationId }).where("customer_meters.id", id).first()) as
        CustomerMeterRow | undefined)
    : undefined;
  if (!row) throw new ResourceNotFound("Customer meter not found.");
  return toCustomerMeter((await views(db, [row]))[0]);
}

const portalScope = (caller: CustomerCaller): Scope => ({ organizationId: caller.organizationId, customerId: caller.customerId });

export async function listPortalCustomerMeters(db: Knex, caller: CustomerCaller, query: PortalCustomerMeterListQuery) {
  const q = readable(db, portalScope(caller));
  byIds(q, "customer_meters.meter_id", query.meter_id);
  if (query.query) q.whereRaw("meters.name ilike ?", [`%${query.query.replace(/[\\%_]/g, "\\$&")}%`]);
  return page(
    db,
    q,
    query,
    {
      created_at: "customer_meters.created_at",
      modified_at: modifiedAtColumn(db),
      meter_id: "customer_meters.meter_id",
      meter_name: "meters.name",
    },
    toPortalCustomerMeter,
  );
}

export async function getPortalCustomerMeter(db: Knex, caller: CustomerCaller, id: string) {
  const row = isUuid(id)
    ? ((await readable(db, portalScope(caller)).where("customer_meters.id", id).first()) as CustomerMeterRow | undefined)
    : undefined;
  if (!row) throw new ResourceNotFound("Customer meter not found.");
  return toPortalCustomerMeter((await views(db, [row]))[0]);
}

/** The customer's meters for its state (every meter it has, oldest first). */
export async function stateMeters(db: Knex, customer: CustomerRow) {
  const rows = (await readable(db, { organizationId: customer.organization_id, customerId: customer.id }).orderBy([
    { column: "customer_meters.created_at" },
    { column: "customer_meters.id" },
  ])) as CustomerMeterRow[];
  return (await views(db, rows)).map(toStateMeter);
}

/** The customer has these meters from now on (a subscription with metered prices on them): shown before any usage. */
export async function ensureCustomerMeters(
  trx: Knex.Transaction,
  organizationId: string,
  customerId: string,
  meterIds: string[],
): Promise<void> {
  const ids = [...new Set(meterIds)].sort();
  if (ids.length === 0) return;
  await insertMissing(trx, organizationId, customerId, ids);
}
