// Subscription queries, always scoped to the reader (an organization, or one portal customer), and
// the batch loading of what a Subscription carries: customer, product, discount, its own prices.
import type { Knex } from "knex";
import { applyFilters, type BucketRow, type Report } from "../kit/report.js";
import { truncIn } from "../kit/timezones.js";
import type { RowPatch } from "../kit/db.js";
import { byIds as customersByIds, customerWithEmails, customerWithExternalId, type CustomerRow } from "../customers/repository.js";
import { byIds as discountsByIds, type DiscountRow } from "../discounts/repository.js";
import { asList, isUuid } from "../kit/ids.js";
import { applyMetadataFilter, type SortMap } from "../kit/pagination.js";
import { numberOf } from "../kit/rows.js";
import type { MeterRow } from "../meters/models.js";
import { byIds as metersByIds } from "../meters/repository.js";
import { pendingRetryDueBy, type CancellationReason, type SubscriptionBaseRow, type SubscriptionStatus } from "../orders/repository.js";
import { findByIds as organizationsByIds, type OrganizationRow } from "../organizations/repository.js";
import {
  byIds as productsByIds,
  loadRelations,
  productNamedLike,
  type PriceRow,
  type ProductRelations,
  type ProductRow,
} from "../products/repository.js";
import { runningUsage, type MeterUsage } from "./usage.js";
import type { ReadScope } from "../kit/auth.js";

// The statuses and cancellation reasons belong with the columns every subscription shape shows,
// declared in orders/repository.ts (the lower domain: subscriptions bill through orders).
export type { CancellationReason, SubscriptionStatus };

export interface ProrationLine {
  label: string;
  amount: number;
  product_price_id: string | null;
  /** The span the proration covers (ISO), from the change to its period's end; none for a credit carried over. */
  start?: string;
  end?: string;
}

/** A change waiting for the next period (a `next_period` product or seat change), applied by the renewal. */
export interface PendingUpdate {
  id: string;
  created_at: string;
  modified_at: string | null;
  applies_at: string;
  /** The product it moves to; null leaves the product. */
  product_id: string | null;
  /** The seat count it sets; null leaves the seats. */
  seats: number | null;
}

/** A subscriptions row: the columns every subscription shape shows (SubscriptionBaseRow) and the rest. */
export interface SubscriptionRow extends SubscriptionBaseRow {
  organization_id: string;
  discount_applied_at: Date | null;
  billing_anchor: Date;
  period_index: number;
  custom_field_data: Record<string, string | number | boolean | null>;
  payment_method_id: string | null;
  test_clock_id: string | null;
  pending_order_id: string | null;
  dunning_attempts: number;
  pending_prorations: ProrationLine[];
  workflow_started_at: Date | null;
  /** How many seats it bought (a seat-based subscription, server/seats/); null otherwise. */
  seats?: number | null;
  pending_update?: PendingUpdate | null;
}

/** Who reads: an organization (merchant API) or one customer of one organization (portal). */
export type SubscriptionScope = ReadScope;

/** Live statuses: the subscription still runs (and bills). */
export const LIVE_STATUSES: SubscriptionStatus[] = ["trialing", "active", "past_due"];

/** A subquery for whereExists: the customer (`customerIdColumn`) has a live subscription. */
export function liveSubscriptionOf(db: Knex, customerIdColumn: string): Knex.QueryBuilder {
  return db("subscriptions").whereRaw(`subscriptions.customer_id = ${customerIdColumn}`).whereIn("subscriptions.status", LIVE_STATUSES);
}

export function readable(db: Knex, scope: SubscriptionScope): Knex.QueryBuilder {
  const q = db("subscriptions").where("subscriptions.organization_id", scope.organizationId);
  if (scope.customerId) q.where("subscriptions.customer_id", scope.customerId);
  if (scope.ids) q.whereIn("subscriptions.id", scope.ids);
  return q;
}

export async function findReadable(
  db: Knex,
  scope: SubscriptionScope,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<SubscriptionRow | undefined> {
  if (!isUuid(id)) return undefined;
  const q = readable(db, scope).where("subscriptions.id", id).first("subscriptions.*");
  return (opts.forUpdate ? q.forUpdate() : q) as Promise<SubscriptionRow | undefined>;
}

export interface SubscriptionRelations {
  customers: Map<string, CustomerRow>;
  products: Map<string, ProductRow>;
  productRelations: Map<string, ProductRelations>;
  discounts: Map<string, DiscountRow>;
  /** The subscription's own prices (archived ones included: it keeps what it was sold at). */
  prices: Map<string, PriceRow[]>;
  organizations: Map<string, OrganizationRow>;
  /** The meters of the subscriptions' metered prices. */
  meters: Map<string, MeterRow>;
  /** Per subscription and metered price: the running period's usage. */
  usage: Map<string, Map<string, MeterUsage>>;
}

/** `usage: false` leaves the running usage empty (a caller that reads it itself, for another period). */
export async function loadSubscriptionRelations(
  db: Knex,
  rows: SubscriptionRow[],
  opts: { usage?: boolean } = {},
): Promise<SubscriptionRelations> {
  const ids = (pick: (r: SubscriptionRow) => string | null) => [...new Set(rows.map(pick).filter((v): v is string => v !== null))];
  const productIds = ids((r) => r.product_id);
  const [customers, products, productRelations, discounts, prices, organizations] = await Promise.all([
    customersByIds(
      db,
      ids((r) => r.customer_id),
    ),
    productsByIds(db, productIds),
    loadRelations(db, productIds),
    // Most subscriptions have no discount: no query then.
    rows.some((r) => r.discount_id)
      ? discountsByIds(
          db,
          ids((r) => r.discount_id),
        )
      : [],
    db("subscription_prices as sp")
      .join("product_prices as pp", "pp.id", "sp.product_price_id")
      .leftJoin("meters as m", "m.id", "pp.meter_id")
      .whereIn(
        "sp.subscription_id",
        ids((r) => r.id),
      )
      .orderBy([{ column: "sp.subscription_id" }, { column: "sp.position" }])
      .select(
        "sp.subscription_id",
        "pp.*",
        db.raw("pp.unit_amount::text as unit_amount"),
        "m.name as meter_name",
        "m.unit as meter_unit",
        "m.custom_label as meter_custom_label",
        "m.custom_multiplier as meter_custom_multiplier",
      ),
    organizationsByIds(
      db,
      ids((r) => r.organization_id),
    ),
  ]);
  const byId = <T extends { id: string }>(list: T[]) => new Map(list.map((x) => [x.id, x]));
  const priceMap = new Map<string, PriceRow[]>();
  for (const p of prices as (PriceRow & { subscription_id: string })[]) {
    const { subscription_id, ...price } = p;
    priceMap.set(subscription_id, [...(priceMap.get(subscription_id) ?? []), price as PriceRow]);
  }
  const meterIds = [
    ...new Set(
      [...priceMap.values()]
        .flat()
        .map((p) => p.meter_id)
        .filter((v): v is string => !!v),
    ),
  ];
  const meters = meterIds.length ? await metersByIds(db, meterIds) : [];
  const rel = {
    meters: byId(meters),
    customers: byId(customers as CustomerRow[]),
    products: byId(products as ProductRow[]),
    productRelations,
    discounts: byId(discounts as DiscountRow[]),
    prices: priceMap,
    organizations: byId(organizations as OrganizationRow[]),
    usage: new Map<string, Map<string, MeterUsage>>(),
  };
  if (opts.usage !== false) rel.usage = await runningUsage(db, rows, rel);
  return rel;
}

/** Notes that the subscriptions' workflows were started (the backstop sweep skips them from now on). */
export async function markSubscriptionWorkflowsStarted(db: Knex, subscriptionIds: string[]): Promise<void> {
  await db("subscriptions").whereIn("id", subscriptionIds).whereNull("workflow_started_at").update({ workflow_started_at: new Date() });
}

/** The backstop sweep's work list: live subscriptions whose workflow was never noted started. */
export async function unstartedSubscriptions(db: Knex, limit = 500): Promise<string[]> {
  const rows = await db("subscriptions")
    .whereNull("workflow_started_at")
    .where((w) => w.whereIn("status", ["trialing", "active", "past_due"]).orWhereNotNull("pending_order_id"))
    .orderBy("created_at")
    .limit(limit)
    .select("id");
  return rows.map((r: { id: string }) => r.id);
}

/** Live subscriptions past their period end, not renewed yet (an operators' gauge, server/observability/metrics.ts). */
export function countRenewalsDue(db: Knex): Promise<number> {
  return numberOf(
    db.raw(
      "select count(*) as v from subscriptions where status in ('active', 'trialing', 'past_due') and test_clock_id is null and current_period_end < now()",
    ),
  );
}

/** The filters of the subscription lists (merchant, portal) and the export. */
export interface SubscriptionListQuery {
  organization_id?: string | string[] | null;
  product_id?: string | string[] | null;
  customer_id?: string | string[] | null;
  external_customer_id?: string | string[] | null;
  discount_id?: string | string[] | null;
  active?: boolean | null;
  status?: SubscriptionStatus | SubscriptionStatus[] | null;
  cancel_at_period_end?: boolean | null;
  customer_cancellation_reason?: string | string[] | null;
  canceled_at_after?: string | null;
  canceled_at_before?: string | null;
  query?: string | null;
  metadata?: Record<string, unknown> | null;
  page?: number;
  limit?: number;
  sorting?: string[] | null;
}

export function filterSubscriptions(db: Knex, scope: SubscriptionScope, query: SubscriptionListQuery): Knex.QueryBuilder {
  const q = readable(db, scope).select("subscriptions.*");
  const byIds = (column: string, value: string | string[] | null | undefined) => {
    const ids = asList(value);
    if (ids.length) q.whereIn(column, ids.filter(isUuid));
  };
  byIds("subscriptions.organization_id", query.organization_id);
  byIds("subscriptions.product_id", query.product_id);
  byIds("subscriptions.customer_id", query.customer_id);
  byIds("subscriptions.discount_id", query.discount_id);
  const external = asList(query.external_customer_id);
  if (external.length) {
    q.whereExists(customerWithExternalId(db, "subscriptions.customer_id", external));
  }
  if (query.active === true) q.whereIn("subscriptions.status", LIVE_STATUSES);
  if (query.active === false) q.whereNotIn("subscriptions.status", LIVE_STATUSES);
  const statuses = asList(query.status);
  if (statuses.length) q.whereIn("subscriptions.status", statuses);
  if (typeof query.cancel_at_period_end === "boolean") q.where("subscriptions.cancel_at_period_end", query.cancel_at_period_end);
  const reasons = asList(query.customer_cancellation_reason);
  if (reasons.length) q.whereIn("subscriptions.customer_cancellation_reason", reasons);
  // Both bounds included, as Polar's.
  if (query.canceled_at_after) q.where("subscriptions.canceled_at", ">=", new Date(query.canceled_at_after));
  if (query.canceled_at_before) q.where("subscriptions.canceled_at", "<=", new Date(query.canceled_at_before));
  if (query.query) {
    const like = `%${query.query.replace(/[\\%_]/g, "\\$&")}%`;
    q.whereExists(productNamedLike(db, "subscriptions.product_id", like));
  }
  applyMetadataFilter(q, "subscriptions.metadata", query.metadata);
  return q;
}

export function subscriptionSorts(db: Knex): SortMap {
  return {
    customer: db.raw("(select lower(c.email) from customers c where c.id = subscriptions.customer_id)"),
    status: "subscriptions.status",
    started_at: "subscriptions.started_at",
    current_period_end: "subscriptions.current_period_end",
    amount: "subscriptions.amount",
    product: db.raw("(select p.name from products p where p.id = subscriptions.product_id)"),
    discount: db.raw("(select d.name from discounts d where d.id = subscriptions.discount_id)"),
    organization: db.raw("(select o.name from organizations o where o.id = subscriptions.organization_id)"),
  };
}

export async function findSubscription(db: Knex, id: string, opts: { forUpdate?: boolean } = {}): Promise<SubscriptionRow | undefined> {
  const q = db("subscriptions").where({ id });
  return (await (opts.forUpdate ? q.forUpdate() : q).first()) as SubscriptionRow | undefined;
}

export async function insertSubscription(db: Knex, columns: RowPatch<SubscriptionRow>): Promise<SubscriptionRow> {
  const [row] = await db<SubscriptionRow>("subscriptions").insert(columns).returning("*");
  return row as SubscriptionRow;
}

/**
 * The subscription columns an order shows (SubscriptionBaseRow), by id: handed to orders' reads
 * (their SubscriptionBases) by whoever stands above both, since orders never import subscriptions.
 */
export async function subscriptionBasesByIds(db: Knex, ids: string[]): Promise<SubscriptionBaseRow[]> {
  return db<SubscriptionBaseRow>("subscriptions").whereIn("id", ids);
}

/** What orders' reads are handed (orders/service.ts's OrderDependents): the reader above. */
export const orderDependents = { subscriptionBases: subscriptionBasesByIds };

/** Writes `patch` as it is (callers that change state set modified_at themselves) and returns the row. */
export async function updateSubscription(db: Knex, id: string, patch: RowPatch<SubscriptionRow>): Promise<SubscriptionRow> {
  const [updated] = await db<SubscriptionRow>("subscriptions").where({ id }).update(patch).returning("*");
  return updated as SubscriptionRow;
}

/** The customer's subscriptions in status active, oldest first. */
export function activeOfCustomer(db: Knex, customerId: string): Promise<SubscriptionRow[]> {
  return db<SubscriptionRow>("subscriptions").where({ customer_id: customerId, status: "active" }).orderBy("started_at") as Promise<
    SubscriptionRow[]
  >;
}

/** Whether a live subscription (trialing, active, past due) is paid with this payment method. */
export async function paysLiveSubscription(db: Knex, paymentMethodId: string): Promise<boolean> {
  const hit = await db("subscriptions").where({ payment_method_id: paymentMethodId }).whereIn("status", LIVE_STATUSES).first("id");
  return !!hit;
}

/** The customer's past-due subscriptions, locked. */
export async function lockPastDueSubscriptions(db: Knex, customerId: string): Promise<{ id: string; test_clock_id: string | null }[]> {
  return db("subscriptions").where({ customer_id: customerId, status: "past_due" }).forUpdate().select("id", "test_clock_id");
}

/** These subscriptions are paid with `paymentMethodId` from now on. */
export async function setPaymentMethod(db: Knex, subscriptionIds: string[], paymentMethodId: string): Promise<void> {
  await db("subscriptions").whereIn("id", subscriptionIds).update({ payment_method_id: paymentMethodId, modified_at: new Date() });
}

/** The portal customer's live subscriptions are paid with `paymentMethodId` from now on. */
export async function payLiveSubscriptionsWith(
  db: Knex,
  scope: { organizationId: string; customerId: string },
  paymentMethodId: string,
): Promise<void> {
  await db("subscriptions")
    .where({ customer_id: scope.customerId, organization_id: scope.organizationId })
    .whereIn("status", LIVE_STATUSES)
    .whereNot({ payment_method_id: paymentMethodId })
    .update({ payment_method_id: paymentMethodId, modified_at: new Date() });
}

/** Clears the charge in flight, only while `orderId` is still the one in flight. */
export async function clearPendingOrder(db: Knex, subscriptionId: string, orderId: string): Promise<void> {
  await db("subscriptions")
    .where({ id: subscriptionId, pending_order_id: orderId })
    .update({ pending_order_id: null, modified_at: new Date() });
}

/** The subscription's prices, in order: `productPriceIds[0]` is its base price. */
export async function insertSubscriptionPrices(db: Knex, subscriptionId: string, productPriceIds: string[]): Promise<void> {
  await db("subscription_prices").insert(
    productPriceIds.map((id, position) => ({ subscription_id: subscriptionId, product_price_id: id, position })),
  );
}

export async function deleteSubscriptionPrices(db: Knex, subscriptionId: string): Promise<void> {
  await db("subscription_prices").where({ subscription_id: subscriptionId }).delete();
}

/** The subscription's first price (its base price). */
export async function firstSubscriptionPrice(db: Knex, subscriptionId: string): Promise<PriceRow | undefined> {
  const [price] = (await db("subscription_prices as sp")
    .join("product_prices as pp", "pp.id", "sp.product_price_id")
    .where("sp.subscription_id", subscriptionId)
    .orderBy("sp.position")
    .select("pp.*")) as PriceRow[];
  return price;
}

/** The subscription's seat-based price, if it has one. */
export async function seatPriceOf(db: Knex, subscriptionId: string): Promise<PriceRow | undefined> {
  const [price] = (await db("subscription_prices as sp")
    .join("product_prices as pp", "pp.id", "sp.product_price_id")
    .where({ "sp.subscription_id": subscriptionId, "pp.amount_type": "seat_based" })
    .orderBy("sp.position")
    .select("pp.*")) as PriceRow[];
  return price;
}

// ---------------------------------------------------------------------------------------------
// Subscriptions on test clocks: what a clock's status and its advance read (test-clocks/service.ts
// imports them), and the worker's sweep of clocks that did not catch up.

/**
 * Live subscriptions (or charges in flight) with something due at or before `frozen` (a clock's
 * time: a value, or a column of a joined test_clocks row).
 */
function whereDueBy(db: Knex, q: Knex.QueryBuilder, frozen: Date | Knex.Raw): Knex.QueryBuilder {
  return q.where((w) =>
    w
      .whereNotNull("subscriptions.pending_order_id")
      .orWhere((a) => a.whereIn("subscriptions.status", ["active", "trialing"]).where("subscriptions.current_period_end", "<=", frozen))
      .orWhere((p) => p.where("subscriptions.status", "past_due").whereExists(pendingRetryDueBy(db, "subscriptions.id", frozen))),
  );
}

/** Whether a live subscription (or a charge in flight) on the clock has something due at or before its time. */
export async function somethingDueOnClock(db: Knex, clock: { id: string; frozen_time: Date }): Promise<boolean> {
  const q = whereDueBy(db, db("subscriptions").where("subscriptions.test_clock_id", clock.id), clock.frozen_time);
  return Boolean(await q.first("subscriptions.id"));
}

/**
 * Subscriptions on any test clock with something due at or before their clock's time: the worker's
 * sweep pokes them, so that an advance whose pokes were lost (Temporal unreachable at that moment)
 * still catches up instead of leaving its clock `advancing`.
 */
export async function subscriptionsDueOnClocks(db: Knex, limit = 500): Promise<string[]> {
  const q = db("subscriptions").join("test_clocks", "test_clocks.id", "subscriptions.test_clock_id").whereNull("test_clocks.deleted_at");
  const rows: { id: string }[] = await whereDueBy(db, q, db.raw("test_clocks.frozen_time"))
    .orderBy("subscriptions.id")
    .limit(limit)
    .select("subscriptions.id");
  return rows.map((r) => r.id);
}

/** The ids of the subscriptions on the clock. */
export async function subscriptionIdsOnClock(db: Knex, clockId: string): Promise<string[]> {
  const subs: { id: string }[] = await db("subscriptions").where({ test_clock_id: clockId }).select("id");
  return subs.map((s) => s.id);
}

/** Whether the customer has any subscription (of any status). */
export async function hasSubscriptions(db: Knex, customerId: string): Promise<boolean> {
  return Boolean(await db("subscriptions").where({ customer_id: customerId }).first("id"));
}

/** The ids of the subscriptions these checkouts started: a subquery for whereIn. */
/** Whether the customer (by id, or any customer with this email) ever had a trial with the organization. */
export async function hadTrial(
  db: Knex,
  organizationId: string,
  who: { customerId: string | null; email: string | null },
): Promise<boolean> {
  if (!who.customerId && !who.email) return false;
  const row = await db("subscriptions")
    .where("subscriptions.organization_id", organizationId)
    .whereNotNull("subscriptions.trial_start")
    .where((w) => {
      if (who.customerId) w.orWhere("subscriptions.customer_id", who.customerId);
      if (who.email) w.orWhereExists(customerWithEmails(db, "subscriptions.customer_id", [who.email.toLowerCase()]));
    })
    .first("subscriptions.id");
  return row !== undefined;
}

/** The ids of the customer's subscriptions that a checkout started. */
export function customerSubscriptionIdsOfCheckout(db: Knex, customerId: string, checkoutId: string): Promise<string[]> {
  return db("subscriptions").where({ checkout_id: checkoutId, customer_id: customerId }).pluck("id");
}

/** A scalar subquery: the product of the subscription `subscriptionIdColumn` (e.g. "benefit_grants.subscription_id") names. */
export function productOfSubscription(db: Knex, subscriptionIdColumn: string): Knex.QueryBuilder {
  return db("subscriptions").whereRaw(`subscriptions.id = ${subscriptionIdColumn}`).select("subscriptions.product_id");
}

export function subscriptionIdsOfCheckouts(db: Knex, checkoutIds: string[]): Knex.QueryBuilder {
  return db("subscriptions").whereIn("checkout_id", checkoutIds).select("id");
}

/**
 * The metrics report's subscriptions (on server/kit/report.ts's range, bucketing and filters): +1
 * (and its monthly amount) at the bucket it starts in, -1 at the bucket it ends in (ended, or set
 * to end), and out of the committed MRR from the bucket it was canceled in.
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
      db.raw(
        `case when coalesce(s.ended_at, s.ends_at) is not null then greatest(${trunc("coalesce(s.ended_at, s.ends_at)")}, ${trunc("s.started_at")}) end as b_end`,
      ),
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
    .select(
      "bucket",
      db.raw(
        "sum(active)::float8 as active, sum(mrr)::float8 as mrr, sum(committed)::float8 as committed, sum(started)::float8 as started",
      ),
    )
    .groupBy("bucket");
}

/**
 * Per bucket of `canceled_at` in the range: the subscriptions canceled (at period end or at once)
 * and, per reason the customer gave, how many of them gave it (`reason_<reason>`).
 */
export async function cancellationBuckets(db: Knex, r: Report, reasons: readonly string[]): Promise<BucketRow[]> {
  const trunc = truncIn(r.unit, r.timeZone);
  const q = db("subscriptions as s")
    .join("products as p", "p.id", "s.product_id")
    .where("s.organization_id", r.organizationId)
    .whereNotNull("s.canceled_at")
    .where("s.canceled_at", ">=", r.rangeStart)
    .where("s.canceled_at", "<", r.rangeEnd)
    .select(
      db.raw(`${trunc("s.canceled_at")} as bucket`),
      db.raw("count(*)::float8 as canceled"),
      ...reasons.map((reason) =>
        db.raw(`count(*) filter (where s.customer_cancellation_reason = ?)::float8 as ??`, [reason, `reason_${reason}`]),
      ),
    )
    .groupByRaw("1");
  applyFilters(q, "s", r.filters);
  if (r.filters.billingTypes.length === 1 && r.filters.billingTypes[0] === "one_time") q.whereRaw("false");
  return q;
}

/** The rows of a keyset-paged statement (`?` for the last id of the page before, twice, then the limit). */
async function pageAfter<T>(db: Knex, sql: string, afterId: string | null, limit: number): Promise<T[]> {
  const { rows } = await db.raw<{ rows: T[] }>(sql, [afterId, afterId, limit]);
  return rows;
}

/** A yearly subscription whose renewal reminder is due, and the period end it is for. */
export interface RenewalToRemind {
  id: string;
  organization_id: string;
  customer_id: string;
  current_period_end: Date;
}

/**
 * Active yearly subscriptions (not ending) whose period ends within their organization's
 * reminder days (email_settings.renewal_reminder_days, `defaultDays` unless set) of their now:
 * a test clock's frozen time, else the real time. `limit` at a time, after `afterId`.
 */
export async function renewalsToRemind(db: Knex, afterId: string | null, defaultDays: number, limit = 500): Promise<RenewalToRemind[]> {
  const { rows } = await db.raw<{ rows: RenewalToRemind[] }>(
    `select s.id, s.organization_id, s.customer_id, s.current_period_end
       from subscriptions s
       join organizations o on o.id = s.organization_id
       left join test_clocks c on c.id = s.test_clock_id
      where s.status = 'active' and not s.cancel_at_period_end and s.recurring_interval = 'year'
        and s.current_period_end > coalesce(c.frozen_time, now())
        and s.current_period_end <= coalesce(c.frozen_time, now())
          + make_interval(days => coalesce((o.email_settings ->> 'renewal_reminder_days')::int, ?::int))
        and (?::uuid is null or s.id > ?::uuid)
      order by s.id
      limit ?`,
    [defaultDays, afterId, afterId, limit],
  );
  return rows;
}

/** A saved card a live subscription renews with, expiring this month or next. */
export interface ExpiringCard {
  payment_method_id: string;
  organization_id: string;
  customer_id: string;
  subscription_id: string;
  exp_month: number;
  exp_year: number;
}

/**
 * The saved cards that active or trialing subscriptions (not ending) charge (their own, else the customer's
 * default) whose expiry is the month of their now (a test clock's frozen time, else the real
 * time, in UTC) or the next. A card of unknown expiry (0) is never one. `limit` at a time, after `afterId`.
 */
export function expiringCards(db: Knex, afterId: string | null, limit = 500): Promise<ExpiringCard[]> {
  return pageAfter(
    db,
    `select distinct on (pm.id) pm.id as payment_method_id, pm.organization_id, pm.customer_id, s.id as subscription_id,
            (pm.method_metadata ->> 'exp_month')::int as exp_month, (pm.method_metadata ->> 'exp_year')::int as exp_year
       from subscriptions s
       join payment_methods pm
         on pm.customer_id = s.customer_id and pm.deleted_at is null and pm.type = 'card'
        and (pm.id = s.payment_method_id or (s.payment_method_id is null and pm.is_default))
       left join test_clocks c on c.id = s.test_clock_id
      where s.status in ('active', 'trialing') and not s.cancel_at_period_end
        and coalesce((pm.method_metadata ->> 'exp_year')::int, 0) * 12 + coalesce((pm.method_metadata ->> 'exp_month')::int, 0) - 1
            - (extract(year from coalesce(c.frozen_time, now()) at time zone 'UTC')::int * 12
               + extract(month from coalesce(c.frozen_time, now()) at time zone 'UTC')::int - 1) between 0 and 1
        and (?::uuid is null or pm.id > ?::uuid)
      order by pm.id, s.id
      limit ?`,
    afterId,
    limit,
  );
}
