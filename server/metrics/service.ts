// Metrics: the 22 series of the contract per hour, day, week, month or year in the caller's time
// zone, from orders and refunds (revenue), subscriptions (new, active, MRR, committed MRR) and
// checkouts (conversion), narrowed by product, billing type and customer; totals and descriptors.
// Each source is one grouped statement; stocks (active subscriptions, MRR, cumulative revenue) are
// running sums of per-bucket changes, so their cost grows with the records, not records × buckets.
// The definitions are in docs/USAGE.md ("Metrics").
import type { Knex } from "knex";
import type { OpQuery, OpResult } from "../../generated/handlers.js";
import type { components } from "../../generated/types.js";
import type { OrganizationCaller } from "../kit/auth.js";
import { invalid } from "../kit/errors.js";
import { asList, isUuid } from "../kit/ids.js";
import { checkTimeZone, type TimeUnit } from "../kit/timezones.js";
import { MAX_DAYS, METRICS, MIN_DATE, type MetricDefinition, type MetricSlug } from "./definitions.js";

export type MetricsQuery = OpQuery<"metrics:get">;
export type MetricsOut = OpResult<"metrics:get">["body"];
export type MetricsLimitsOut = components["schemas"]["MetricsLimits"];

type Values = Record<MetricSlug, number>;

const PAID = ["paid", "refunded", "partially_refunded"];
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

export function metricsLimits(): MetricsLimitsOut {
  return {
    min_date: MIN_DATE,
    intervals: {
      hour: { max_days: MAX_DAYS.hour },
      day: { max_days: MAX_DAYS.day },
      week: { max_days: MAX_DAYS.week },
      month: { max_days: MAX_DAYS.month },
      year: { max_days: MAX_DAYS.year },
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

/** The filters every source shares: organization, product, billing type (through the product), customer. */
interface Filters {
  organizationIds: string[];
  productIds: string[];
  billingTypes: string[];
  customerIds: string[];
}

function applyFilters(q: Knex.QueryBuilder, alias: string, f: Filters, productIdsColumn?: (q: Knex.QueryBuilder, ids: string[]) => void): void {
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

const zoneLiteral = (tz: string) => `'${tz.replace(/'/g, "''")}'`;

/** A value for each of the 22 metrics (METRICS lists every key of the contract's Metrics). */
function perMetric<T>(f: (m: MetricDefinition) => T): Record<MetricSlug, T> {
  const out: Partial<Record<MetricSlug, T>> = {};
  for (const m of METRICS) out[m.slug] = f(m);
  return out as Record<MetricSlug, T>;
}

export async function getMetrics(db: Knex, caller: OrganizationCaller, query: MetricsQuery): Promise<MetricsOut> {
  const start = checkDate(query.start_date, ["query", "start_date"]);
  const end = checkDate(query.end_date, ["query", "end_date"]);
  if (start < Date.parse(`${MIN_DATE}T00:00:00Z`)) throw invalid(["query", "start_date"], `Input should be greater than or equal to ${MIN_DATE}`, "greater_than_equal");
  const unit: TimeUnit = query.interval;
  const days = (end - start) / DAY_MS;
  if (days < 0) throw invalid(["query", "end_date"], "The end date must be on or after the start date.", "value_error");
  if (days > MAX_DAYS[unit]) throw invalid(["query"], "The interval is too big. Try to change the interval or reduce the date range.", "value_error");
  const tz = await checkTimeZone(db, query.timezone, ["query", "timezone"]);
  const TZ = zoneLiteral(tz);
  const trunc = (column: string) => `date_trunc('${unit}', ${column}, ${TZ})`;
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

  // One timestamp per period, from local midnight of the start date by one local unit (an hour
  // is an hour) up to the end of the end date, and the bucket each one names.
  const seriesSql =
    unit === "hour"
      ? `select s as timestamp, ${trunc("s")} as bucket, ${trunc("s")} + interval '1 hour' as next
         from generate_series((?::date)::timestamp at time zone ${TZ}, ((?::date + 1)::timestamp - interval '1 microsecond') at time zone ${TZ}, interval '1 hour') as s`
      : `select s at time zone ${TZ} as timestamp, ${trunc(`s at time zone ${TZ}`)} as bucket,
           ((${trunc(`s at time zone ${TZ}`)} at time zone ${TZ}) + interval '1 ${unit}') at time zone ${TZ} as next
         from generate_series((?::date)::timestamp, (?::date + 1)::timestamp - interval '1 microsecond', interval '1 ${unit}') as s`;
  const series = (await db.raw(seriesSql, [query.start_date, query.end_date])).rows as { timestamp: Date; bucket: Date; next: Date }[];
  const rangeStart = series[0].bucket;
  const rangeEnd = series[series.length - 1].next;
  const org = caller.organizationId;

  // Orders: paid ones (refunded ones too: their refunds count against net revenue), by creation;
  // every bucket before the range in one group, for the cumulative revenue.
  const net = "(o.subtotal_amount - o.discount_amount)";
  const isNew = `s.id is not null and ${trunc("s.started_at")} = ${trunc("o.created_at")}`;
  const isRenewal = `s.id is not null and (s.started_at is null or ${trunc("s.started_at")} <> ${trunc("o.created_at")})`;
  const orders = db("orders as o")
    .join("products as p", "p.id", "o.product_id")
    .leftJoin("subscriptions as s", "s.id", "o.subscription_id")
    .where("o.organization_id", org)
    .whereIn("o.status", PAID)
    .where("o.created_at", "<", rangeEnd)
    .select(
      db.raw(`case when o.created_at < ? then null else ${trunc("o.created_at")} end as bucket`, [rangeStart]),
      db.raw("count(*)::float8 as orders"),
      db.raw(`coalesce(sum(${net}), 0)::float8 as revenue`),
      db.raw(`coalesce(sum(${net} - o.refunded_amount), 0)::float8 as net_revenue`),
      db.raw("(count(*) filter (where o.subscription_id is null))::float8 as one_time_products"),
      db.raw(`coalesce(sum(${net}) filter (where o.subscription_id is null), 0)::float8 as one_time_products_revenue`),
      db.raw(`coalesce(sum(${net} - o.refunded_amount) filter (where o.subscription_id is null), 0)::float8 as one_time_products_net_revenue`),
      db.raw(`coalesce(sum(${net}) filter (where ${isNew}), 0)::float8 as new_subscriptions_revenue`),
      db.raw(`coalesce(sum(${net} - o.refunded_amount) filter (where ${isNew}), 0)::float8 as new_subscriptions_net_revenue`),
      db.raw(`(count(distinct o.subscription_id) filter (where ${isRenewal}))::float8 as renewed_subscriptions`),
      db.raw(`coalesce(sum(${net}) filter (where ${isRenewal}), 0)::float8 as renewed_subscriptions_revenue`),
      db.raw(`coalesce(sum(${net} - o.refunded_amount) filter (where ${isRenewal}), 0)::float8 as renewed_subscriptions_net_revenue`),
    )
    .groupByRaw("1");
  applyFilters(orders, "o", filters);

  // Subscriptions: +1 (and its monthly amount) at the bucket it starts in, -1 at the bucket it
  // ends in (ended, or set to end), and out of the committed MRR from the bucket it was canceled in.
  const monthly = `case s.recurring_interval when 'month' then s.amount when 'year' then round(s.amount / 12.0)
    when 'week' then round(s.amount * 52 / 12.0) when 'day' then round(s.amount * 365 / 12.0) else 0 end`;
  const subs = db("subscriptions as s")
    .join("products as p", "p.id", "s.product_id")
    .where("s.organization_id", org)
    .whereNotNull("s.started_at")
    .where("s.started_at", "<", rangeEnd)
    .select(
      db.raw(`${monthly}::float8 as m`),
      db.raw(`${trunc("s.started_at")} as b_start`),
      // (greatest() skips nulls: no end stays no end.)
      db.raw(`case when coalesce(s.ended_at, s.ends_at) is not null then greatest(${trunc("coalesce(s.ended_at, s.ends_at)")}, ${trunc("s.started_at")}) end as b_end`),
      db.raw(
        `case when coalesce(s.ended_at, s.ends_at, s.canceled_at) is not null
          then greatest(${trunc("least(coalesce(s.ended_at, s.ends_at), s.canceled_at)")}, ${trunc("s.started_at")}) end as b_uncommitted`,
      ),
    );
  applyFilters(subs, "s", filters);
  if (filters.billingTypes.length === 1 && filters.billingTypes[0] === "one_time") subs.whereRaw("false");
  const deltas = db
    .with("subs", subs)
    .from(
      db.raw(`(
        select b_start as bucket, 1 as active, m as mrr, m as committed, 1 as started from subs
        union all select b_end, -1, -m, 0, 0 from subs where b_end is not null
        union all select b_uncommitted, 0, 0, -m, 0 from subs where b_uncommitted is not null
      ) as d`),
    )
    .select("bucket", db.raw("sum(active)::float8 as active, sum(mrr)::float8 as mrr, sum(committed)::float8 as committed, sum(started)::float8 as started"))
    .groupBy("bucket");

  const checkouts = db("checkouts as c")
    .join("products as p", "p.id", "c.product_id")
    .where("c.organization_id", org)
    .where("c.created_at", ">=", rangeStart)
    .where("c.created_at", "<", rangeEnd)
    .select(
      db.raw(`${trunc("c.created_at")} as bucket`),
      db.raw("count(*)::float8 as checkouts"),
      db.raw("(count(*) filter (where c.status = 'succeeded'))::float8 as succeeded_checkouts"),
    )
    .groupByRaw("1");
  applyFilters(checkouts, "c", filters, (q, ids) =>
    q.where((w) => w.whereIn("c.product_id", ids).orWhereExists(db("checkout_products as cp").whereRaw("cp.checkout_id = c.id").whereIn("cp.product_id", ids))),
  );

  type Row = Record<string, number | Date | null>;
  const [orderRows, deltaRows, checkoutRows]: Row[][] = impossible ? [[], [], []] : await Promise.all([orders, deltas, checkouts]);
  const key = (d: Date | null) => (d === null ? null : new Date(d).getTime());
  const byBucket = (rows: Row[]) => new Map(rows.map((r) => [key(r.bucket as Date | null), r]));
  const orderBy = byBucket(orderRows);
  const checkoutBy = byBucket(checkoutRows);
  const before = orderBy.get(null);
  const num = (r: Row | undefined, k: string) => Number(r?.[k] ?? 0);
  let cumulative = num(before, "revenue");
  let netCumulative = num(before, "net_revenue");

  const periods = series.map((s) => {
    const b = key(s.bucket)!;
    const o = orderBy.get(b);
    const c = checkoutBy.get(b);
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
  return { periods: periods.map((p) => ({ timestamp: p.timestamp, ...p.values })), totals, metrics };
}
