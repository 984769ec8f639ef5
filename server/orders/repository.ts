// Order queries, always scoped to the reader's organization (and, for a portal customer, to that
// customer), and the batch loading of what an Order carries: customer, product, discount, items.
import type { Knex } from "knex";
import type { components } from "../../generated/types.js";
import { applyFilters, type BucketRow, type Report } from "../kit/report.js";
import { truncIn } from "../kit/timezones.js";
import type { RowPatch } from "../kit/db.js";
import type { TaxCalculation } from "../tax/models.js";
import type { Address } from "../customers/address.js";
import type { TaxId } from "../customers/tax-id.js";
import { byIds as customersByIds, customerWithEmailLike, customerWithExternalId, type CustomerRow } from "../customers/repository.js";
import { byIds as discountsByIds, type DiscountRow } from "../discounts/repository.js";
import { asList, isUuid } from "../kit/ids.js";
import { applyMetadataFilter, type SortMap } from "../kit/pagination.js";
import { numberOf } from "../kit/rows.js";
import { byIds as productsByIds, productNamedLike, productOfBillingType, type ProductRow } from "../products/repository.js";
import type { ReadScope } from "../kit/auth.js";

export type OrderStatus = "draft" | "pending" | "paid" | "refunded" | "partially_refunded";
export type BillingReason = "purchase" | "subscription_create" | "subscription_cycle" | "subscription_update";

export interface OrderRow {
  id: string;
  /** How many seats it bought (a seat-based one-time purchase, server/seats/); null otherwise. */
  seats?: number | null;
  created_at: Date;
  modified_at: Date | null;
  organization_id: string;
  status: OrderStatus;
  billing_reason: BillingReason;
  currency: string;
  subtotal_amount: number;
  discount_amount: number;
  tax_amount: number;
  refunded_amount: number;
  refunded_tax_amount: number;
  billing_name: string | null;
  billing_address: Address | null;
  /** The buyer's tax id when the order was made, as its invoice prints it (0141). */
  customer_tax_id: TaxId | null;
  /** As printed (`ACME-0007`), given when the invoice is generated. */
  /** The stored receipt PDF's key, once rendered. */
  receipt_path: string | null;
  /** Null on a draft until it is finalized. */
  invoice_number: string | null;
  is_invoice_generated: boolean;
  /** As printed (`RCPT-ACME-0001`), given when the order is paid. */
  receipt_number: string | null;
  /** A customer balance applied to the order: negative lowers what is due, positive raises it. */
  applied_balance_amount: number;
  /** What the platform takes of the order (PLATFORM_FEE_* settings), recorded when it is paid. */
  platform_fee_amount: number;
  platform_fee_currency: string | null;
  invoice_path: string | null;
  customer_id: string;
  user_id: string | null;
  product_id: string;
  product_price_id: string | null;
  discount_id: string | null;
  subscription_id: string | null;
  checkout_id: string | null;
  metadata: Record<string, string | number | boolean>;
  custom_field_data: Record<string, string | number | boolean | null>;
  /** The rate charged and whose tax it is; null without a computed tax (0112). */
  tax_rate: components["schemas"]["OrderTaxRate"] | null;
  taxability_reason: components["schemas"]["TaxabilityReason"] | null;
  /** The tax provider's transaction that recorded the order's tax. */
  tax_transaction_id: string | null;
  /** Set while Stripe Tax's record of the paid order is due in the worker (0150). */
  tax_record_due_at?: Date | null;
  /** The calculation the order was charged with: recorded when paid, reverted by refunds (0120). */
  tax_calculation: TaxCalculation | null;
  /** The period a renewal bills (subscription_cycle orders). */
  billing_period_start?: Date | null;
  /** While a subscription is past due: when this order's payment is tried next. */
  next_payment_attempt_at?: Date | null;
  /** Why that attempt is made when it is not the dunning schedule's (a new card moved it up). */
  next_payment_trigger?: "retry_payment_method_update" | "retry_admin" | null;
}

export type SubscriptionStatus = "incomplete" | "incomplete_expired" | "trialing" | "active" | "past_due" | "canceled" | "unpaid";
export type CancellationReason =
  "customer_service" | "low_quality" | "missing_features" | "switched_service" | "too_complex" | "too_expensive" | "unused" | "other";

/**
 * The columns of a subscriptions row that every subscription shape shows, the OrderSubscription
 * inside an order included. Declared here, the lower domain: subscriptions bill through orders
 * (renewal orders), so orders never import subscriptions (.dependency-cruiser.cjs), and
 * subscriptions/repository.ts's SubscriptionRow extends this with the rest of its columns.
 */
export interface SubscriptionBaseRow {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  customer_id: string;
  product_id: string;
  discount_id: string | null;
  checkout_id: string | null;
  /** How many seats a seat-based subscription bought; null otherwise. */
  seats?: number | null;
  status: SubscriptionStatus;
  amount: number;
  currency: string;
  recurring_interval: NonNullable<ProductRow["recurring_interval"]>;
  /** How many intervals a billing period spans. */
  recurring_interval_count: number;
  current_period_start: Date;
  current_period_end: Date;
  trial_start: Date | null;
  trial_end: Date | null;
  cancel_at_period_end: boolean;
  canceled_at: Date | null;
  started_at: Date | null;
  ends_at: Date | null;
  ended_at: Date | null;
  customer_cancellation_reason: CancellationReason | null;
  customer_cancellation_comment: string | null;
  metadata: Record<string, string | number | boolean>;
}

export interface OrderItemRow {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  order_id: string;
  label: string;
  amount: number;
  tax_amount: number;
  proration: boolean;
  product_price_id: string | null;
  position: number;
  /** The period the line bills (a subscription's period, its usage's, a proration's), null for a one-time purchase. */
  start_timestamp: Date | null;
  end_timestamp: Date | null;
}

export type OrderScope = ReadScope;

export function readable(db: Knex, scope: OrderScope): Knex.QueryBuilder {
  const q = db("orders").where("orders.organization_id", scope.organizationId);
  // A customer never sees a draft: it is the merchant's until it is charged.
  if (scope.customerId) q.where("orders.customer_id", scope.customerId).whereNot("orders.status", "draft");
  if (scope.ids) q.whereIn("orders.id", scope.ids);
  return q;
}

export async function findReadable(
  db: Knex,
  scope: OrderScope,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<OrderRow | undefined> {
  if (!isUuid(id)) return undefined;
  const q = readable(db, scope).where("orders.id", id).first("orders.*");
  return (opts.forUpdate ? q.forUpdate() : q) as Promise<OrderRow | undefined>;
}

export interface OrderRelations {
  customers: Map<string, CustomerRow>;
  products: Map<string, ProductRow>;
  discounts: Map<string, DiscountRow>;
  items: Map<string, OrderItemRow[]>;
  subscriptions: Map<string, SubscriptionBaseRow>;
}

/**
 * Reads the subscription columns orders show, by id. Orders sit below subscriptions and never read
 * their table: subscriptions/repository.ts's subscriptionBasesByIds is handed in from above.
 */
export type SubscriptionBases = (db: Knex, ids: string[]) => Promise<SubscriptionBaseRow[]>;

/**
 * What reading orders starts from: the relations the caller holds already (`subscriptions` among
 * them), or else the reader of their subscriptions (required, so no order goes out without its own).
 */
export type OrderReads = Omit<Partial<OrderRelations>, "subscriptions"> &
  ({ subscriptions: Map<string, SubscriptionBaseRow> } | { subscriptions?: undefined; subscriptionBases: SubscriptionBases });

/**
 * Loads the relations of many orders in at most five queries; a relation the caller already holds
 * (in `reads`, e.g. rows it has just written or read in the same transaction) is not read again.
 */
export async function loadOrderRelations(db: Knex, orders: OrderRow[], reads: OrderReads): Promise<OrderRelations> {
  const uniq = (xs: (string | null)[]) => [...new Set(xs.filter((x): x is string => x !== null))];
  // No query for an empty id list (an order without a discount or a subscription).
  const byIds = <T>(load: (db: Knex, ids: string[]) => Promise<T[]>, ids: string[]): Promise<T[]> =>
    ids.length ? load(db, ids) : Promise.resolve([]);
  const [customers, products, discounts, items, subscriptions] = await Promise.all([
    reads.customers ? [] : byIds(customersByIds, uniq(orders.map((o) => o.customer_id))),
    reads.products ? [] : byIds(productsByIds, uniq(orders.map((o) => o.product_id))),
    reads.discounts ? [] : byIds(discountsByIds, uniq(orders.map((o) => o.discount_id))),
    reads.items
      ? []
      : db<OrderItemRow>("order_items")
          .whereIn(
            "order_id",
            orders.map((o) => o.id),
          )
          .orderBy([{ column: "position" }, { column: "created_at" }]),
    reads.subscriptions ? [] : byIds(reads.subscriptionBases, uniq(orders.map((o) => o.subscription_id))),
  ]);
  const byOrder = new Map<string, OrderItemRow[]>();
  for (const it of items as OrderItemRow[]) {
    const list = byOrder.get(it.order_id);
    if (list) list.push(it);
    else byOrder.set(it.order_id, [it]);
  }
  return {
    customers: reads.customers ?? new Map((customers as CustomerRow[]).map((c) => [c.id, c])),
    products: reads.products ?? new Map((products as ProductRow[]).map((p) => [p.id, p])),
    discounts: reads.discounts ?? new Map((discounts as DiscountRow[]).map((d) => [d.id, d])),
    items: reads.items ?? byOrder,
    subscriptions: reads.subscriptions ?? new Map(subscriptions.map((x) => [x.id, x])),
  };
}

export async function findOrder(db: Knex, id: string, opts: { forUpdate?: boolean } = {}): Promise<OrderRow | undefined> {
  const q = db("orders").where({ id });
  return (await (opts.forUpdate ? q.forUpdate() : q).first()) as OrderRow | undefined;
}

/** Writes `patch` as it is (callers that change state set modified_at themselves). */
export async function patchOrder(db: Knex, id: string, patch: RowPatch<OrderRow>): Promise<void> {
  await db("orders").where({ id }).update(patch);
}

/** The unpaid order a past-due subscription is retrying: its newest pending order with a retry scheduled. */
export async function findOwedOrder(db: Knex, subscriptionId: string): Promise<OrderRow | undefined> {
  return db<OrderRow>("orders")
    .where({ subscription_id: subscriptionId, status: "pending" })
    .whereNotNull("next_payment_attempt_at")
    .orderBy("created_at", "desc")
    .first() as Promise<OrderRow | undefined>;
}

/** The subscription's pending orders with a retry scheduled are retried at `at` instead, for `trigger`'s reason. */
export async function retryOwedOrdersAt(
  db: Knex,
  subscriptionId: string,
  at: Date,
  trigger: NonNullable<OrderRow["next_payment_trigger"]>,
): Promise<void> {
  await db("orders")
    .where({ subscription_id: subscriptionId, status: "pending" })
    .whereNotNull("next_payment_attempt_at")
    .update({ next_payment_attempt_at: at, next_payment_trigger: trigger });
}

/** The subscription's pending orders are not retried any more (it ended). */
export async function stopPaymentRetries(db: Knex, subscriptionId: string): Promise<void> {
  await db("orders").where({ subscription_id: subscriptionId, status: "pending" }).update({ next_payment_attempt_at: null });
}

/** Renewal orders written in the last hour (an operators' gauge, server/observability/metrics.ts). */
export function countRenewalOrdersLastHour(db: Knex): Promise<number> {
  return numberOf(
    db.raw("select count(*) as v from orders where billing_reason = 'subscription_cycle' and created_at > now() - interval '1 hour'"),
  );
}

export interface OrderListQuery {
  organization_id?: string | string[] | null;
  product_id?: string | string[] | null;
  product_billing_type?: ("one_time" | "recurring") | ("one_time" | "recurring")[] | null;
  discount_id?: string | string[] | null;
  customer_id?: string | string[] | null;
  external_customer_id?: string | string[] | null;
  checkout_id?: string | string[] | null;
  subscription_id?: string | string[] | null;
  query?: string | null;
  metadata?: Record<string, unknown> | null;
  page?: number;
  limit?: number;
  sorting?: string[] | null;
}

/** The merchant list's Borealis extension filters (orders:list only: the portal's list has none). */
export interface MerchantOrderListQuery extends OrderListQuery {
  status?: OrderStatus | OrderStatus[] | null;
  created_after?: string | null;
  created_before?: string | null;
  customer_email?: string | null;
}

export function filterOrders(db: Knex, scope: OrderScope, query: OrderListQuery): Knex.QueryBuilder {
  const q = readable(db, scope).select("orders.*");
  const byIds = (column: string, value: string | string[] | null | undefined) => {
    const ids = asList(value);
    if (ids.length) q.whereIn(column, ids.filter(isUuid));
  };
  byIds("orders.organization_id", query.organization_id);
  byIds("orders.product_id", query.product_id);
  byIds("orders.discount_id", query.discount_id);
  byIds("orders.customer_id", query.customer_id);
  byIds("orders.checkout_id", query.checkout_id);
  byIds("orders.subscription_id", query.subscription_id);
  // A live customer's external id, as Polar matches it (a deleted customer's may be taken again).
  const external = asList(query.external_customer_id);
  if (external.length) q.whereExists(customerWithExternalId(db, "orders.customer_id", external, { live: true }));
  const billing = new Set(asList(query.product_billing_type));
  if (billing.size === 1) {
    const recurring = billing.has("recurring");
    q.whereExists(productOfBillingType(db, "orders.product_id", recurring));
  }
  if (query.query) {
    const like = `%${query.query.replace(/[\\%_]/g, "\\$&")}%`;
    q.whereExists(productNamedLike(db, "orders.product_id", like));
  }
  applyMetadataFilter(q, "orders.metadata", query.metadata);
  return q;
}

/** An order with what its export shows of its customer and product. */
export interface OrderExportRow extends OrderRow {
  customer_email: string;
  customer_name: string | null;
  product_name: string;
}

/** The orders of `query`'s organization and product filters with their customer and product, oldest first. */
export function ordersOldestFirst(db: Knex, scope: OrderScope, query: OrderListQuery): Promise<OrderExportRow[]> {
  return filterOrders(db, scope, query)
    .join("customers", "customers.id", "orders.customer_id")
    .join("products", "products.id", "orders.product_id")
    .select("customers.email as customer_email", "customers.name as customer_name", "products.name as product_name")
    .orderBy([{ column: "orders.created_at" }, { column: "orders.id" }]);
}

/** A subquery for whereExists: the subscription (`subscriptionIdColumn`) has a pending order whose next payment attempt is due by `at`. */
export function pendingRetryDueBy(db: Knex, subscriptionIdColumn: string, at: Date | Knex.Raw): Knex.QueryBuilder {
  return db("orders")
    .whereRaw(`orders.subscription_id = ${subscriptionIdColumn}`)
    .where("orders.status", "pending")
    .where("orders.next_payment_attempt_at", "<=", at);
}

/** The ids of the customer's orders that a checkout made. */
export function customerOrderIdsOfCheckout(db: Knex, customerId: string, checkoutId: string): Promise<string[]> {
  return db("orders").where({ checkout_id: checkoutId, customer_id: customerId }).pluck("id");
}

/** A scalar subquery: the product of the order `orderIdColumn` (e.g. "benefit_grants.order_id") names. */
export function productOfOrder(db: Knex, orderIdColumn: string): Knex.QueryBuilder {
  return db("orders").whereRaw(`orders.id = ${orderIdColumn}`).select("orders.product_id");
}

/** The ids of the orders these checkouts made: a subquery for whereIn. */
export function orderIdsOfCheckouts(db: Knex, checkoutIds: string[]): Knex.QueryBuilder {
  return db("orders").whereIn("checkout_id", checkoutIds).select("id");
}

/** A whereExists subquery: the order `orderIdColumn` (e.g. "payments.order_id") names is of a customer with one of these emails (lowercased). */
/** A subquery for whereExists: the order (`orderIdColumn`) is one of these customers'. */
export function orderOfCustomers(db: Knex, orderIdColumn: string, customerIds: string[]): Knex.QueryBuilder {
  return db("orders").whereRaw(`orders.id = ${orderIdColumn}`).whereIn("orders.customer_id", customerIds);
}

export function orderOfCustomerEmails(db: Knex, orderIdColumn: string, emails: string[]): Knex.QueryBuilder {
  return db("orders")
    .join("customers", "customers.id", "orders.customer_id")
    .whereRaw(`orders.id = ${orderIdColumn}`)
    .whereRaw("lower(customers.email) = any(?)", [emails]);
}

export function orderSorts(db: Knex): SortMap {
  return {
    created_at: "orders.created_at",
    status: "orders.status",
    // Left-padded: a longer number of the same organization is a later one (ACME-10000 after ACME-9999).
    invoice_number: db.raw("lpad(orders.invoice_number, 32)"),
    amount: db.raw("(orders.subtotal_amount - orders.discount_amount + orders.tax_amount)"),
    net_amount: db.raw("(orders.subtotal_amount - orders.discount_amount)"),
    customer: db.raw("(select lower(c.email) from customers c where c.id = orders.customer_id)"),
    product: db.raw("(select p.name from products p where p.id = orders.product_id)"),
    discount: db.raw("(select d.name from discounts d where d.id = orders.discount_id)"),
    subscription: "orders.subscription_id",
  };
}

/**
 * status (any of), created_after (inclusive), created_before (exclusive) and customer_email (a
 * case-insensitive substring of the customer's email; % and _ are literal). The contract has
 * validated the values: a date-time here is a valid instant.
 */
export function applyMerchantFilters(db: Knex, q: Knex.QueryBuilder, query: MerchantOrderListQuery): void {
  const statuses = asList(query.status);
  if (statuses.length) q.whereIn("orders.status", statuses);
  if (query.created_after) q.where("orders.created_at", ">=", new Date(query.created_after));
  if (query.created_before) q.where("orders.created_at", "<", new Date(query.created_before));
  if (query.customer_email) {
    const like = `%${query.customer_email.replace(/[\\%_]/g, "\\$&")}%`;
    q.whereExists(customerWithEmailLike(db, "orders.customer_id", like));
  }
}

export async function insertOrderRow(db: Knex, columns: RowPatch<OrderRow>): Promise<OrderRow> {
  const [row] = await db<OrderRow>("orders").insert(columns).returning("*");
  return row as OrderRow;
}

export async function insertOrderItems(db: Knex, rows: Omit<OrderItemRow, "id" | "created_at" | "modified_at">[]): Promise<OrderItemRow[]> {
  return (await db("order_items").insert(rows).returning("*")) as OrderItemRow[];
}

/** The order's lines, in their order. */
export async function orderItems(db: Knex, orderId: string): Promise<OrderItemRow[]> {
  return db<OrderItemRow>("order_items")
    .where({ order_id: orderId })
    .orderBy([{ column: "position" }, { column: "created_at" }]);
}

/** Writes `patch` (with its own modified_at) and returns the order. */
export async function saveOrder(db: Knex, id: string, patch: RowPatch<OrderRow>): Promise<OrderRow> {
  const [updated] = await db<OrderRow>("orders").where({ id }).update(patch).returning("*");
  return updated as OrderRow;
}

const COUNTER_COLUMNS = { invoice: "last_number", receipt: "last_receipt_number" } as const;

/**
 * The organization's next invoice or receipt number: its counter row (created at 0 the first time)
 * locked FOR UPDATE and moved on, in the caller's transaction, so numbers are gapless and unique.
 */
export async function takeNumber(trx: Knex.Transaction, organizationId: string, sequence: keyof typeof COUNTER_COLUMNS): Promise<number> {
  const column = COUNTER_COLUMNS[sequence];
  await trx("invoice_counters").insert({ organization_id: organizationId }).onConflict("organization_id").ignore();
  const counter: Record<string, number> = await trx("invoice_counters")
    .where({ organization_id: organizationId })
    .forUpdate()
    .first(column);
  const next = counter[column] + 1;
  await trx("invoice_counters")
    .where({ organization_id: organizationId })
    .update({ [column]: next });
  return next;
}

/** The paid order statuses the metrics report counts. */
const PAID_STATUSES = ["paid", "refunded", "partially_refunded"];

/**
 * The metrics report's orders (on server/kit/report.ts's range, bucketing and filters): paid ones
 * (refunded ones too: their refunds count against net revenue), by creation; every bucket before
 * the range in one group, for the cumulative revenue.
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
    .whereIn("o.status", PAID_STATUSES)
    .where("o.created_at", "<", r.rangeEnd)
    .select(
      db.raw(`case when o.created_at < ? then null else ${trunc("o.created_at")} end as bucket`, [r.rangeStart]),
      db.raw("count(*)::float8 as orders"),
      db.raw(`coalesce(sum(${net}), 0)::float8 as revenue`),
      db.raw(`coalesce(sum(${net} - o.refunded_amount), 0)::float8 as net_revenue`),
      db.raw("(count(*) filter (where o.subscription_id is null))::float8 as one_time_products"),
      db.raw(`coalesce(sum(${net}) filter (where o.subscription_id is null), 0)::float8 as one_time_products_revenue`),
      db.raw(
        `coalesce(sum(${net} - o.refunded_amount) filter (where o.subscription_id is null), 0)::float8 as one_time_products_net_revenue`,
      ),
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

/** One group of the tax report: a period's orders or refunds of one currency, country, rate and reason. */
export type TaxReportGroup = Omit<components["schemas"]["TaxReportRow"], "net_amount" | "tax_amount"> & {
  /** The period's first day, `YYYY-MM-DD` (UTC). */
  period: string;
};

/**
 * The tax report's groups: paid orders made in [start, end) by the month or quarter (UTC) they were
 * made in, and succeeded refunds made in [start, end) by theirs, each under its order's currency,
 * country (the rate's, else the billing address's), state, rate and taxability reason.
 */
export async function taxReportGroups(
  db: Knex,
  organizationId: string,
  unit: "month" | "quarter",
  start: Date,
  end: Date,
): Promise<TaxReportGroup[]> {
  const keys = `o.currency, coalesce(o.tax_rate->>'country', o.billing_address->>'country') as country, o.tax_rate->>'state' as state,
    coalesce((o.tax_rate->>'basis_points')::int, 0) as rate_basis_points, o.tax_rate->>'display_name' as display_name, o.taxability_reason`;
  const period = (column: string) => `to_char(date_trunc('${unit}', ${column} at time zone 'UTC'), 'YYYY-MM-DD')`;
  const { rows } = await db.raw<{ rows: TaxReportGroup[] }>(
    `select period, currency, country, state, rate_basis_points, display_name, taxability_reason,
        sum(orders)::float8 as orders, sum(sales_net_amount)::float8 as sales_net_amount, sum(sales_tax_amount)::float8 as sales_tax_amount,
        sum(refunds)::float8 as refunds, sum(refunded_net_amount)::float8 as refunded_net_amount, sum(refunded_tax_amount)::float8 as refunded_tax_amount
      from (
        select ${period("o.created_at")} as period, ${keys},
          1 as orders, o.subtotal_amount - o.discount_amount as sales_net_amount, o.tax_amount as sales_tax_amount,
          0 as refunds, 0 as refunded_net_amount, 0 as refunded_tax_amount
        from orders o
        where o.organization_id = ? and o.status = any(?) and o.created_at >= ? and o.created_at < ?
        union all
        select ${period("r.created_at")} as period, ${keys},
          0, 0, 0, 1, r.amount, r.tax_amount
        from orders o join refunds r on r.order_id = o.id
        where o.organization_id = ? and r.status = 'succeeded' and r.created_at >= ? and r.created_at < ?
      ) g
      group by period, currency, country, state, rate_basis_points, display_name, taxability_reason
      order by period, currency, country nulls last, state nulls first, rate_basis_points desc, taxability_reason nulls last`,
    [organizationId, PAID_STATUSES, start, end, organizationId, start, end],
  );
  return rows;
}

/** Orders whose tax record has been due since before `before`, oldest first (the backstop sweep). */
export async function dueTaxRecords(db: Knex, before: Date, limit: number): Promise<string[]> {
  const rows: { id: string }[] = await db("orders")
    .where("tax_record_due_at", "<=", before)
    .orderBy("tax_record_due_at")
    .limit(limit)
    .select("id");
  return rows.map((r) => r.id);
}
