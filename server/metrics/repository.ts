// Metrics' statements: a read-only reporting repository over orders (and their refunds),
// subscriptions and checkouts, each narrowed through its product, for the report of
// server/metrics/service.ts. A report's statements live together rather than in each source
// table's repository: they share one bucketing (date_trunc by the unit in the caller's time zone),
// one range and one set of filters, and only side by side do they read as one report; nothing
// else calls them. Each source is one grouped statement (hand-tuned: docs/USAGE.md, "Metrics").
import type { Knex } from "knex";
import type { TimeUnit } from "../kit/timezones.js";

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

export interface Period {
  timestamp: Date;
  bucket: Date;
  next: Date;
}

const PAID = ["paid", "refunded", "partially_refunded"];

const zoneLiteral = (tz: string) => `'${tz.replace(/'/g, "''")}'`;
const truncIn = (unit: TimeUnit, tz: string) => (column: string) => `date_trunc('${unit}', ${column}, ${zoneLiteral(tz)})`;

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

/**
 * One timestamp per period, from local midnight of the start date by one local unit (an hour
 * is an hour) up to the end of the end date, and the bucket each one names.
 */
export async function reportPeriods(db: Knex, unit: TimeUnit, timeZone: string, startDate: string, endDate: string): Promise<Period[]> {
  const TZ = zoneLiteral(timeZone);
  const trunc = truncIn(unit, timeZone);
  const seriesSql =
    unit === "hour"
      ? `select s as timestamp, ${trunc("s")} as bucket, ${trunc("s")} + interval '1 hour' as next
         from generate_series((?::date)::timestamp at time zone ${TZ}, ((?::date + 1)::timestamp - interval '1 microsecond') at time zone ${TZ}, interval '1 hour') as s`
      : `select s at time zone ${TZ} as timestamp, ${trunc(`s at time zone ${TZ}`)} as bucket,
           ((${trunc(`s at time zone ${TZ}`)} at time zone ${TZ}) + interval '1 ${unit}') at time zone ${TZ} as next
         from generate_series((?::date)::timestamp, (?::date + 1)::timestamp - interval '1 microsecond', interval '1 ${unit}') as s`;
  return (await db.raw(seriesSql, [startDate, endDate])).rows as Period[];
}

/**
 * Orders: paid ones (refunded ones too: their refunds count against net revenue), by creation;
 * every bucket before the range in one group, for the cumulative revenue.
 */
export async function orderBuckets(db: Knex, r: Report): Promise<BucketRow[]> {
  const trunc = truncIn(r.unit, r.timeZone);
  const net = "(o.subtotal_amount - o.discount_amount)";
  const isNew = `s.id is not null and ${trunc("s.started_at")} = ${trunc("o.created_at")}`;
  const isRenewal = `s.id is not null and (s.started_at is null or ${trunc("s.started_at")} <> ${trunc("o.created_at")})`;
  const orders = db("orders as o")
    .join("products as p", "p.id", "o.product_id")
    .leftJoin("subscriptions as s", "s.id", "o.subscription_id")
    .where("o.organization_id", r.organizationId)
    .whereIn("o.status", PAID)
    .where("o.created_at", "<", r.rangeEnd)
    .select(
      db.raw(`case when o.created_at < ? then null else ${trunc("o.created_at")} end as bucket`, [r.rangeStart]),
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
  applyFilters(orders, "o", r.filters);
  return orders;
}

/**
 * Subscriptions: +1 (and its monthly amount) at the bucket it starts in, -1 at the bucket it
 * ends in (ended, or set to end), and out of the committed MRR from the bucket it was canceled in.
 */
export async function subscriptionDeltas(db: Knex, r: Report): Promise<BucketRow[]> {
  const trunc = truncIn(r.unit, r.timeZone);
  const monthly = `case s.recurring_interval when 'month' then s.amount when 'year' then round(s.amount / 12.0)
    when 'week' then round(s.amount * 52 / 12.0) when 'day' then round(s.amount * 365 / 12.0) else 0 end`;
  const subs = db("subscriptions as s")
    .join("products as p", "p.id", "s.product_id")
    .where("s.organization_id", r.organizationId)
    .whereNotNull("s.started_at")
    .where("s.started_at", "<", r.rangeEnd)
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
  applyFilters(subs, "s", r.filters);
  if (r.filters.billingTypes.length === 1 && r.filters.billingTypes[0] === "one_time") subs.whereRaw("false");
  return db
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
}

/** Checkouts created in the range, and the succeeded ones, per bucket; a product filter matches a checkout's products too. */
export async function checkoutBuckets(db: Knex, r: Report): Promise<BucketRow[]> {
  const trunc = truncIn(r.unit, r.timeZone);
  const checkouts = db("checkouts as c")
    .join("products as p", "p.id", "c.product_id")
    .where("c.organization_id", r.organizationId)
    .where("c.created_at", ">=", r.rangeStart)
    .where("c.created_at", "<", r.rangeEnd)
    .select(
      db.raw(`${trunc("c.created_at")} as bucket`),
      db.raw("count(*)::float8 as checkouts"),
      db.raw("(count(*) filter (where c.status = 'succeeded'))::float8 as succeeded_checkouts"),
    )
    .groupByRaw("1");
  applyFilters(checkouts, "c", r.filters, (q, ids) =>
    q.where((w) => w.whereIn("c.product_id", ids).orWhereExists(db("checkout_products as cp").whereRaw("cp.checkout_id = c.id").whereIn("cp.product_id", ids))),
  );
  return checkouts;
}
