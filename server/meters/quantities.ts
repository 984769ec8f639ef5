// Meter quantities: the aggregation per hour, day, week, month or year in the caller's time zone,
// with a total over all buckets (grouping sets: an average's total is not a sum), or per customer
// first (customer_aggregation_function), as Polar computes it. Read from the hourly totals when
// they add up to the answer (no unique meter, no metadata filter, buckets on whole UTC hours),
// else from the events.
import type { Knex } from "knex";
import type { OpQuery } from "../../generated/handlers.js";
import type { OrganizationCaller } from "../kit/auth.js";
import { invalid, ResourceNotFound } from "../kit/errors.js";
import { asList } from "../kit/ids.js";
import { applyMetadataFilter } from "../kit/pagination.js";
import { checkTimeZone, hourAligned, nextBucketSql, seriesSql, truncIn, type TimeUnit } from "../kit/timezones.js";
import { meterEventsIn, perCustomerQuantities, whereCustomers, whereExternalCustomers } from "./events-repository.js";
import { aggregationSql, filterSql, type Aggregation, type Sql } from "./filter.js";
import type { MeterQuantitiesOut } from "./models.js";
import { findReadable } from "./repository.js";
import { hasRollups } from "./rollups.js";
import { meterTotalsIn, quantitiesOver } from "./rollups-repository.js";

export type QuantitiesQuery = OpQuery<"meters:quantities">;

// Polar's bounds on a quantities request: no data before 2023, and a number of buckets that
// stays reasonable for the interval.
const MIN_TIMESTAMP = Date.UTC(2023, 0, 1);
const MAX_RANGE_DAYS: Record<TimeUnit, number> = { hour: 7, day: 366, week: 7 * 53, month: 365 * 4, year: 365 * 10 };
const DAY_MS = 86_400_000;

/** Days between the calendar dates (UTC) of two instants, as Polar compares them. */
function dayDistance(a: Date, b: Date): number {
  const day = (d: Date) => Math.floor(d.getTime() / DAY_MS);
  return day(b) - day(a);
}

/** The aggregate over rollup rows (alias `r`) that equals the aggregation over their events. */
export function rollupAggregateSql(a: Aggregation): string {
  switch (a.func) {
    case "count":
      return "sum(r.events)::float8";
    case "sum":
      return "sum(r.sum)";
    case "max":
      return "max(r.max)";
    case "min":
      return "min(r.min)";
    case "avg":
      return "sum(r.sum) / nullif(sum(r.n), 0)";
    default:
      throw new Error("unique meters have no rollups");
  }
}

export async function meterQuantities(
  db: Knex,
  caller: OrganizationCaller,
  id: string,
  query: QuantitiesQuery,
): Promise<MeterQuantitiesOut> {
  const meter = await findReadable(db, caller, id);
  if (!meter) throw new ResourceNotFound("Meter not found.");
  const start = new Date(query.start_timestamp);
  const end = new Date(query.end_timestamp);
  if (Number.isNaN(start.getTime())) throw invalid(["query", "start_timestamp"], "Input should be a valid datetime", "datetime_parsing");
  if (Number.isNaN(end.getTime())) throw invalid(["query", "end_timestamp"], "Input should be a valid datetime", "datetime_parsing");
  if (start.getTime() < MIN_TIMESTAMP) {
    throw invalid(["query", "start_timestamp"], "Input should be greater than or equal to 2023-01-01T00:00:00Z", "greater_than_equal");
  }
  const unit: TimeUnit = query.interval;
  const days = dayDistance(start, end);
  if (days < 0 || days > MAX_RANGE_DAYS[unit]) {
    throw invalid(
      ["query"],
      "The interval is too small for the given date range. Use a larger interval or reduce the date range.",
      "value_error",
    );
  }
  const tz = await checkTimeZone(db, query.timezone, ["query", "timezone"]);
  const customerIds = asList(query.customer_id);
  const externalIds = asList(query.external_customer_id);
  const metadataFilter = Object.keys(query.metadata ?? {}).length > 0;

  // Every bucket the range touches: from the start's to the end's, in the zone.
  const rangeStart: Sql = { sql: `date_trunc('${unit}', ?::timestamptz, ?)`, bindings: [start.toISOString(), tz] };
  const endBucket = nextBucketSql(unit, `date_trunc('${unit}', ?::timestamptz, ?)`, tz);
  const rangeEnd: Sql = { sql: endBucket.sql, bindings: [end.toISOString(), tz, ...endBucket.bindings] };

  // The zone is one PostgreSQL knows (checked above).
  const bucketOf = truncIn(unit, tz);
  const range = { start: rangeStart, end: rangeEnd };
  let grouped: Knex.QueryBuilder;
  let bucketColumn: string;
  const perCustomer = query.customer_aggregation_function;
  if (
    hasRollups(meter) &&
    !metadataFilter &&
    !perCustomer &&
    customerIds.length === 0 &&
    externalIds.length === 0 &&
    hourAligned(tz, start, end)
  ) {
    bucketColumn = "r.bucket";
    grouped = meterTotalsIn(db, meter.id, range, bucketOf("r.bucket"), rollupAggregateSql(meter.aggregation));
  } else {
    const agg = aggregationSql(meter.aggregation);
    bucketColumn = "events.timestamp";
    // The events a meter reads: this organization's, through its filter, with the aggregated
    // property present, narrowed by the request's customer and metadata filters.
    grouped = meterEventsIn(
      db,
      meter.organization_id,
      { filter: filterSql(meter.filter), where: agg.where, value: agg.value },
      range,
      bucketOf("events.timestamp"),
    );
    if (customerIds.length) whereCustomers(grouped, db, meter.organization_id, customerIds);
    if (externalIds.length) whereExternalCustomers(grouped, db, meter.organization_id, externalIds);
    applyMetadataFilter(grouped, "events.metadata", query.metadata);
  }
  if (perCustomer) {
    // Polar's total of per-customer quantities: the buckets' sum for a count or sum meter, their
    // max or min for a max or min one; an avg or unique meter's over all the events.
    const func = meter.aggregation.func;
    const total = func === "count" || func === "sum" ? "sum" : func === "max" || func === "min" ? func : "events";
    grouped = perCustomerQuantities(db, grouped, {
      bucket: bucketOf(bucketColumn),
      perBucket: perCustomer,
      total,
      value: aggregationSql(meter.aggregation).value,
    });
  } else {
    // One pass for the buckets and the total (the grouping set `()`, its bucket null).
    grouped.groupByRaw(`grouping sets ((${bucketOf(bucketColumn)}), ())`);
  }
  const rows = await quantitiesOver(db, seriesSql(unit, tz, start.toISOString(), end.toISOString()), grouped, unit, tz);
  const buckets = rows
    .filter((r) => r.timestamp !== null)
    .sort((a, b) => new Date(a.timestamp!).getTime() - new Date(b.timestamp!).getTime());
  const total = rows.find((r) => r.timestamp === null);
  return {
    quantities: buckets.map((r) => ({ timestamp: new Date(r.timestamp!).toISOString(), quantity: Number(r.quantity ?? 0) })),
    total: Number(total?.quantity ?? 0),
  };
}
