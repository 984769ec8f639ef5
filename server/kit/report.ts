// What the metrics report's statements share (server/metrics/service.ts runs them): one range, one
// set of filters and one bucketing by unit in the caller's time zone (timezones.ts's truncIn).
// Each table's grouped statement lives with its owner (orderBuckets, subscriptionDeltas,
// checkoutBuckets), hand-tuned (docs/USAGE.md, "Metrics").
import type { Knex } from "knex";
import type { TimeUnit } from "./timezones.js";

/** The filters every source shares: organization, product, billing type (through the product), customer. */
export interface Filters {
  organizationIds: string[];
  productIds: string[];
  billingTypes: string[];
  customerIds: string[];
}

/** What every statement of one report shares: the caller's organization, the bucketing and the range. */
export interface Report {
  organizationId: string;
  unit: TimeUnit;
  /** A time zone name checkTimeZone accepted. */
  timeZone: string;
  /** The first period's bucket and the end of the last one (from reportPeriods). */
  rangeStart: Date;
  rangeEnd: Date;
  filters: Filters;
}

/** A grouped row: its bucket (null: every order before the range) and its float8 sums. */
export type BucketRow = Record<string, number | Date | null>;

/** Narrows a source (`alias`, joined to its product as `p`) by the report's filters; `productIdsColumn` when its products are not one column. */
export function applyFilters(
  q: Knex.QueryBuilder,
  alias: string,
  f: Filters,
  productIdsColumn?: (q: Knex.QueryBuilder, ids: string[]) => void,
): void {
  if (f.organizationIds.length) q.whereIn(`${alias}.organization_id`, f.organizationIds);
  if (f.productIds.length) {
    if (productIdsColumn) productIdsColumn(q, f.productIds);
    else q.whereIn(`${alias}.product_id`, f.productIds);
  }
  if (f.billingTypes.length === 1) {
    if (f.billingTypes[0] === "one_time") q.whereNull("p.recurring_interval");
    else q.whereNotNull("p.recurring_interval");
  }
  if (f.customerIds.length) q.whereIn(`${alias}.customer_id`, f.customerIds);
}
