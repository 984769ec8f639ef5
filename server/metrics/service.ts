// Metrics: the contract's 31 series per hour, day, week, month or year in the caller's time zone,
// from orders and refunds, subscriptions (and their cancellations, by reason) and checkouts, narrowed by product, billing type and
// customer. Each source is one grouped statement (./repository.ts); stocks (active subscriptions,
// MRR, cumulative revenue) are running sums of per-bucket changes, so cost grows with the records,
// not records × buckets. Definitions: docs/USAGE.md ("Metrics").
import type { Knex } from "knex";
import type { OpQuery, OpResult } from "../../generated/handlers.js";
import type { components } from "../../generated/types.js";
import type { OrganizationCaller } from "../kit/auth.js";
import { invalid } from "../kit/errors.js";
import { asList, isUuid } from "../kit/ids.js";
import { checkTimeZone, type TimeUnit } from "../kit/timezones.js";
import {
  CANCELLATION_REASONS,
  MAX_DAYS,
  METRICS,
  MIN_DATE,
  MIN_DAYS,
  type MetricDefinition,
  type MetricSlug,
  type Source,
} from "./definitions.js";
import { checkoutBuckets } from "../checkouts/repository.js";
import type { BucketRow, Filters, Report } from "../kit/report.js";
import { orderBuckets } from "../orders/repository.js";
import { cancellationBuckets, subscriptionDeltas } from "../subscriptions/repository.js";
import { reportPeriods } from "./repository.js";

export type MetricsQuery = OpQuery<"metrics:get">;
export type MetricsOut = OpResult<"metrics:get">["body"];
export type MetricsLimitsOut = components["schemas"]["MetricsLimits"];

type Values = Record<MetricSlug, number>;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

export function metricsLimits(): MetricsLimitsOut {
  return {
    min_date: MIN_DATE,
    intervals: {
      hour: { min_days: MIN_DAYS.hour, max_days: MAX_DAYS.hour },
      day: { min_days: MIN_DAYS.day, max_days: MAX_DAYS.day },
      week: { min_days: MIN_DAYS.week, max_days: MAX_DAYS.week },
      month: { min_days: MIN_DAYS.month, max_days: MAX_DAYS.month },
      year: { min_days: MIN_DAYS.year, max_days: MAX_DAYS.year },
    },
  };
}

function checkDate(value: string, loc: (string | number)[]): number {
  const t = Date.parse(`${value}T00:00:00Z`);
  if (!DATE.test(value) || Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== value) {
    throw invalid(loc, "Input should be a valid date in the format YYYY-MM-DD", "date_from_datetime_parsing", value);
  }
  return t;
}

/** A value for each of the 31 metrics (METRICS lists every key of the contract's Metrics). */
function perMetric<T>(f: (m: MetricDefinition) => T): Record<MetricSlug, T> {
  const out: Partial<Record<MetricSlug, T>> = {};
  for (const m of METRICS) out[m.slug] = f(m);
  return out as Record<MetricSlug, T>;
}

/** The asked metrics' entries of `values`. */
function picked<T>(values: Record<MetricSlug, T>, asked: ReadonlySet<MetricSlug>): Partial<Record<MetricSlug, T>> {
  return Object.fromEntries(METRICS.filter((m) => asked.has(m.slug)).map((m) => [m.slug, values[m.slug]]));
}

export async function getMetrics(db: Knex, caller: OrganizationCaller, query: MetricsQuery): Promise<MetricsOut> {
  const start = checkDate(query.start_date, ["query", "start_date"]);
  const end = checkDate(query.end_date, ["query", "end_date"]);
  if (start < Date.parse(`${MIN_DATE}T00:00:00Z`))
    throw invalid(["query", "start_date"], `Input should be greater than or equal to ${MIN_DATE}`, "greater_than_equal");
  const unit: TimeUnit = query.interval;
  const days = (end - start) / DAY_MS;
  if (days < 0) throw invalid(["query", "end_date"], "The end date must be on or after the start date.", "value_error");
  if (days > MAX_DAYS[unit])
    throw invalid(["query"], "The interval is too big. Try to change the interval or reduce the date range.", "value_error");
  // A range shorter than the interval needs would be one or two partial buckets.
  if (days < MIN_DAYS[unit]) {
    throw invalid(
      ["query"],
      `A ${unit} interval needs a range of at least ${MIN_DAYS[unit]} days. Use a smaller interval or a longer date range.`,
      "value_error",
    );
  }
  const tz = await checkTimeZone(db, query.timezone, ["query", "timezone"]);
  const filters: Filters = {
    organizationIds: asList(query.organization_id).filter(isUuid),
    productIds: asList(query.product_id).filter(isUuid),
    billingTypes: asList(query.billing_type),
    customerIds: asList(query.customer_id).filter(isUuid),
  };
  // A filter naming nothing that can exist matches nothing.
  const impossible =
    (asList(query.organization_id).length > 0 && filters.organizationIds.length === 0) ||
    (asList(query.product_id).length > 0 && filters.productIds.length === 0) ||
    (asList(query.customer_id).length > 0 && filters.customerIds.length === 0);

  const series = await reportPeriods(db, unit, tz, query.start_date, query.end_date);
  const report: Report = {
    organizationId: caller.organizationId,
    unit,
    timeZone: tz,
    rangeStart: series[0].bucket,
    rangeEnd: series[series.length - 1].next,
    filters,
  };

  // Only the statements the asked metrics are computed from run.
  const wanted = asList(query.metrics);
  const asked = new Set<MetricSlug>(wanted.length ? wanted : METRICS.map((m) => m.slug));
  const needs = new Set(METRICS.filter((m) => asked.has(m.slug)).map((m) => m.source));
  const run = (source: Source, rows: (db: Knex, report: Report) => Promise<BucketRow[]>) =>
    impossible || !needs.has(source) ? [] : rows(db, report);
  const [orderRows, deltaRows, cancellationRows, checkoutRows] = await Promise.all([
    run("orders", orderBuckets),
    run("subscriptions", subscriptionDeltas),
    run("cancellations", (d, rep) => cancellationBuckets(d, rep, CANCELLATION_REASONS)),
    run("checkouts", checkoutBuckets),
  ]);
  const key = (d: Date | null) => (d === null ? null : new Date(d).getTime());
  const byBucket = (rows: BucketRow[]) => new Map(rows.map((r) => [key(r.bucket as Date | null), r]));
  const orderBy = byBucket(orderRows);
  const checkoutBy = byBucket(checkoutRows);
  const cancellationBy = byBucket(cancellationRows);
  const before = orderBy.get(null);
  const num = (r: BucketRow | undefined, k: string) => Number(r?.[k] ?? 0);
  let cumulative = num(before, "revenue");
  let netCumulative = num(before, "net_revenue");

  const periods = series.map((s) => {
    const b = key(s.bucket)!;
    const o = orderBy.get(b);
    const c = checkoutBy.get(b);
    const x = cancellationBy.get(b);
    cumulative += num(o, "revenue");
    netCumulative += num(o, "net_revenue");
    // Stocks: every change at or before this bucket.
    let active = 0;
    let mrr = 0;
    let committed = 0;
    let started = 0;
    for (const d of deltaRows) {
      const at = key(d.bucket as Date)!;
      if (at <= b) {
        active += num(d, "active");
        mrr += num(d, "mrr");
        committed += num(d, "committed");
      }
      if (at === b) started += num(d, "started");
    }
    const count = num(o, "orders");
    const checkoutsCount = num(c, "checkouts");
    const values: Values = {
      orders: count,
      revenue: num(o, "revenue"),
      net_revenue: num(o, "net_revenue"),
      cumulative_revenue: cumulative,
      net_cumulative_revenue: netCumulative,
      average_order_value: count ? Math.ceil(num(o, "revenue") / count) : 0,
      net_average_order_value: count ? Math.ceil(num(o, "net_revenue") / count) : 0,
      one_time_products: num(o, "one_time_products"),
      one_time_products_revenue: num(o, "one_time_products_revenue"),
      one_time_products_net_revenue: num(o, "one_time_products_net_revenue"),
      new_subscriptions: started,
      new_subscriptions_revenue: num(o, "new_subscriptions_revenue"),
      new_subscriptions_net_revenue: num(o, "new_subscriptions_net_revenue"),
      renewed_subscriptions: num(o, "renewed_subscriptions"),
      renewed_subscriptions_revenue: num(o, "renewed_subscriptions_revenue"),
      renewed_subscriptions_net_revenue: num(o, "renewed_subscriptions_net_revenue"),
      active_subscriptions: active,
      monthly_recurring_revenue: mrr,
      committed_monthly_recurring_revenue: committed,
      checkouts: checkoutsCount,
      succeeded_checkouts: num(c, "succeeded_checkouts"),
      checkouts_conversion: checkoutsCount ? num(c, "succeeded_checkouts") / checkoutsCount : 0,
      canceled_subscriptions: num(x, "canceled"),
      canceled_subscriptions_customer_service: num(x, "reason_customer_service"),
      canceled_subscriptions_low_quality: num(x, "reason_low_quality"),
      canceled_subscriptions_missing_features: num(x, "reason_missing_features"),
      canceled_subscriptions_switched_service: num(x, "reason_switched_service"),
      canceled_subscriptions_too_complex: num(x, "reason_too_complex"),
      canceled_subscriptions_too_expensive: num(x, "reason_too_expensive"),
      canceled_subscriptions_unused: num(x, "reason_unused"),
      canceled_subscriptions_other: num(x, "reason_other"),
    };
    return { timestamp: new Date(s.timestamp).toISOString(), values };
  });

  const sum = (slug: MetricSlug) => periods.reduce((n, p) => n + p.values[slug], 0);
  const last = (slug: MetricSlug) => (periods.length ? periods[periods.length - 1].values[slug] : 0);
  const totalOrders = sum("orders");
  const totalCheckouts = sum("checkouts");
  const totals = perMetric((m) => {
    switch (m.total) {
      case "sum":
        return sum(m.slug);
      case "last":
        return last(m.slug);
      case "average_order_value":
        return totalOrders ? Math.ceil(sum("revenue") / totalOrders) : 0;
      case "net_average_order_value":
        return totalOrders ? Math.ceil(sum("net_revenue") / totalOrders) : 0;
      case "conversion":
        return totalCheckouts ? sum("succeeded_checkouts") / totalCheckouts : 0;
    }
  });
  const metrics = perMetric((m) => ({ slug: m.slug, display_name: m.display_name, type: m.type }));
  return {
    periods: periods.map((p) => ({ timestamp: p.timestamp, ...picked(p.values, asked) })),
    totals: picked(totals, asked),
    metrics: picked(metrics, asked),
  };
}
