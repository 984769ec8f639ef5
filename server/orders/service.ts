// Order rules: creation for a confirmed checkout (pending, with line items), the paid transition,
// billing details updates (frozen once the invoice exists), reads and lists for the merchant and
// the portal customer, and the order.created / order.updated / order.paid events.
import type { OpBody } from "../../generated/handlers.js";
import { jsonb } from "../kit/db.js";
import type { Knex } from "knex";
import { scheduleBenefitGrants } from "../benefit-grants/service.js";
import { checkAddress, type Address } from "../customers/address.js";
import { findCustomer } from "../customers/repository.js";
import { invalid, ResourceNotFound } from "../kit/errors.js";
import { emit, emitAll, type OutboxEvent } from "../kit/outbox.js";
import { applySorting, listPage, type Page } from "../kit/pagination.js";
import { findByIds as findOrganizationsByIds, findOrganization } from "../organizations/repository.js";
import { setting } from "../config.js";
import { formatInvoiceNumber, formatReceiptNumber } from "./numbers.js";
import { loadRelations } from "../products/repository.js";
import { paidOrderTax, type OrderTax } from "./tax.js";
import { toCustomerOrder, toOrder, totalAmount, type CustomerOrderOut, type OrderOut } from "./models.js";
import {
  applyMerchantFilters,
  filterOrders,
  findOrder,
  findReadable,
  insertOrderItems,
  insertOrderRow,
  loadOrderRelations,
  orderSorts,
  saveOrder,
  takeNumber,
  type BillingReason,
  type MerchantOrderListQuery,
  type OrderListQuery,
  type OrderItemRow,
  type OrderReads,
  type OrderRow,
  type OrderScope,
  type SubscriptionBases,
} from "./repository.js";

/**
 * What order reads are handed from above orders (orders/handlers.ts, workflows/activity-deps.ts, or
 * a caller above subscriptions): the reader of the subscription an order shows.
 */
export interface OrderDependents {
  subscriptionBases: SubscriptionBases;
}

export interface OrderItemInput {
  label: string;
  amount: number;
  taxAmount: number;
  proration: boolean;
  productPriceId: string | null;
  /** The period the line bills; none for a one-time purchase (or a credit carried over). */
  period: Period | null;
}

/** A billing period: from `start` until `end`. */
export interface Period {
  start: Date;
  end: Date;
}

export interface CreateOrderForCheckoutInput {
  organizationId: string;
  customerId: string;
  productId: string;
  productPriceId: string | null;
  checkoutId: string | null;
  subscriptionId: string | null;
  billingReason: BillingReason;
  currency: string;
  subtotalAmount: number;
  discountAmount: number;
  discountId: string | null;
  taxAmount: number;
  items: OrderItemInput[];
  billingName: string | null;
  billingAddress: Address | null;
  metadata: Record<string, string | number | boolean>;
  /** The checkout's custom field values (custom-fields/data.ts checked them). */
  customFieldData: OrderRow["custom_field_data"];
  /** The period a subscription_cycle order bills: unique per subscription. */
  billingPeriodStart?: Date | null;
  /** The rate charged, why, and the calculation the order was quoted with (orderTaxOf). */
  tax?: OrderTax | null;
  /** A draft (orders:create): no invoice number until it is finalized and paid. */
  draft?: boolean;
  /** What the customer's wallet pays of the total, negative (a renewal's; wallets/service.ts). */
  appliedBalanceAmount?: number;
  /** The seats a seat-based purchase bought. */
  seats?: number | null;
}

/** The order as the API returns it; relations the caller already holds (in `reads`) are not read again. */
export async function readOrder(db: Knex, row: OrderRow, reads: OrderReads): Promise<OrderOut> {
  return toOrder(row, await loadOrderRelations(db, [row], reads));
}

async function readCustomerOrders(db: Knex, rows: OrderRow[], dependents: OrderDependents): Promise<CustomerOrderOut[]> {
  if (rows.length === 0) return [];
  const [rel, productRel, orgs] = await Promise.all([
    loadOrderRelations(db, rows, dependents),
    loadRelations(db, [...new Set(rows.map((r) => r.product_id))]),
    findOrganizationsByIds(db, [...new Set(rows.map((r) => r.organization_id))]),
  ]);
  const orgById = new Map(orgs.map((o) => [o.id, o]));
  return rows.map((r) => toCustomerOrder(r, rel, productRel, orgById.get(r.organization_id)!));
}

export async function readCustomerOrder(db: Knex, row: OrderRow, dependents: OrderDependents): Promise<CustomerOrderOut> {
  return (await readCustomerOrders(db, [row], dependents))[0];
}

/**
 * Creates the pending order of a confirmed checkout, inside the caller's transaction, and writes
 * order.created. The unique index on checkout_id makes a second order for one checkout impossible.
 */
export async function createOrderForCheckout(
  trx: Knex.Transaction,
  input: CreateOrderForCheckoutInput,
  reads: OrderReads,
): Promise<OrderRow> {
  const { row, out } = await insertOrder(trx, input, reads);
  await emit(trx, input.organizationId, "order.created", out);
  return row;
}

/**
 * Inserts a pending order and its lines; returns the row, its lines and the order as the API
 * returns it, for the caller to write order.created with its own events. `reads`: the order's
 * customer, product, discount and subscription rows when the caller holds them already (then
 * nothing is read back); its lines are the ones written here.
 */
export async function insertOrder(
  trx: Knex.Transaction,
  input: CreateOrderForCheckoutInput,
  reads: OrderReads,
): Promise<{ row: OrderRow; items: OrderItemRow[]; out: OrderOut }> {
  // The invoice number is the order's from the start: gapless, as the transaction takes it or rolls it back.
  const org = (await findOrganization(trx, input.organizationId))!;
  // The buyer's tax id as the invoice prints it, whatever the customer changes later.
  const buyerTaxId = (await findCustomer(trx, input.customerId))?.tax_id ?? null;
  const row = await insertOrderRow(trx, {
    organization_id: input.organizationId,
    invoice_number: input.draft ? null : formatInvoiceNumber(org.slug, await takeNumber(trx, input.organizationId, "invoice")),
    status: input.draft ? "draft" : "pending",
    billing_reason: input.billingReason,
    seats: input.seats ?? null,
    currency: input.currency,
    subtotal_amount: input.subtotalAmount,
    discount_amount: input.discountAmount,
    tax_amount: input.taxAmount,
    applied_balance_amount: input.appliedBalanceAmount ?? 0,
    billing_name: input.billingName,
    billing_address: input.billingAddress === null ? null : jsonb(trx, input.billingAddress),
    customer_tax_id: buyerTaxId === null ? null : jsonb(trx, buyerTaxId),
    customer_id: input.customerId,
    user_id: input.customerId,
    product_id: input.productId,
    product_price_id: input.productPriceId,
    discount_id: input.discountId,
    subscription_id: input.subscriptionId,
    checkout_id: input.checkoutId,
    metadata: jsonb(trx, input.metadata ?? {}),
    custom_field_data: jsonb(trx, input.customFieldData ?? {}),
    billing_period_start: input.billingPeriodStart ?? null,
    tax_rate: input.tax?.tax_rate ? jsonb(trx, input.tax.tax_rate) : null,
    taxability_reason: input.tax?.taxability_reason ?? null,
    tax_calculation: input.tax?.tax_calculation ? jsonb(trx, input.tax.tax_calculation) : null,
  });
  const items = input.items.length
    ? await insertOrderItems(
        trx,
        input.items.map((it, position) => ({
          order_id: row.id,
          label: it.label,
          amount: it.amount,
          tax_amount: it.taxAmount,
          proration: it.proration,
          product_price_id: it.productPriceId,
          position,
          start_timestamp: it.period?.start ?? null,
          end_timestamp: it.period?.end ?? null,
        })),
      )
    : [];
  return { row, items, out: await readOrder(trx, row, Object.assign({}, reads, { items: new Map([[row.id, items]]) })) };
}

/** What the platform takes of a paid order's total (PLATFORM_FEE_* settings), never more than the total. */
export function platformFee(total: number): number {
  if (total <= 0) return 0;
  const fee = Math.round((total * setting("PLATFORM_FEE_BASIS_POINTS")) / 10_000) + setting("PLATFORM_FEE_FIXED");
  return Math.min(fee, total);
}

/**
 * pending → paid, with its receipt number and platform fee, order.updated and order.paid; an order
 * already paid is left as it is.
 */
export async function markOrderPaid(
  trx: Knex.Transaction,
  orderId: string,
  opts: {
    /** The order's row, when the caller has already locked it in this transaction. */
    locked?: OrderRow;
    /** Relations of the order the caller holds already, or the reader of its subscription (see readOrder). */
    reads: OrderReads;
    /**
     * order.updated and order.paid go here instead of into their own insert: the caller writes
     * them, in this order, with its own events of the same transaction.
     */
    events?: OutboxEvent[];
  },
): Promise<OrderRow> {
  const row = opts.locked ?? (await findOrder(trx, orderId, { forUpdate: true }));
  if (!row) throw new ResourceNotFound("Order not found.");
  if (row.status !== "pending") return row;
  const org = (await findOrganization(trx, row.organization_id))!;
  const fee = platformFee(totalAmount(row));
  const tax = await paidOrderTax(trx, row);
  const updated = await saveOrder(trx, orderId, {
    status: "paid",
    tax_transaction_id: tax.tax_transaction_id,
    tax_record_due_at: tax.tax_record_due_at,
    receipt_number: formatReceiptNumber(org.slug, await takeNumber(trx, row.organization_id, "receipt")),
    platform_fee_amount: fee,
    platform_fee_currency: fee > 0 ? row.currency : null,
    modified_at: new Date(),
  });
  const out = await readOrder(trx, updated, opts.reads);
  if (opts.events) opts.events.push({ type: "order.updated", data: out }, { type: "order.paid", data: out });
  else await emitAll(trx, row.organization_id, ["order.updated", "order.paid"], out);
  // A one-time purchase grants its product's benefits; a subscription's grants follow the subscription.
  if (!row.subscription_id) {
    await scheduleBenefitGrants(trx, {
      organizationId: row.organization_id,
      customerId: row.customer_id,
      productId: row.product_id,
      orderId: row.id,
    });
  }
  return updated;
}

export async function getOrder(db: Knex, scope: OrderScope, id: string, dependents: OrderDependents): Promise<OrderOut> {
  const row = await findReadable(db, scope, id);
  if (!row) throw new ResourceNotFound("Order not found.");
  return readOrder(db, row, dependents);
}

export async function getCustomerOrder(db: Knex, scope: OrderScope, id: string, dependents: OrderDependents): Promise<CustomerOrderOut> {
  const row = await findReadable(db, scope, id);
  if (!row) throw new ResourceNotFound("Order not found.");
  return readCustomerOrder(db, row, dependents);
}

export async function listOrders(
  db: Knex,
  scope: OrderScope,
  query: MerchantOrderListQuery,
  dependents: OrderDependents,
): Promise<Page<OrderOut>> {
  const q = filterOrders(db, scope, query);
  applyMerchantFilters(db, q, query);
  applySorting(q, query.sorting, orderSorts(db), ["-created_at"], "orders.id");
  return listPage(q, query, async (rows: OrderRow[]) => {
    const rel = await loadOrderRelations(db, rows, dependents);
    return rows.map((r) => toOrder(r, rel));
  });
}

export async function listCustomerOrders(
  db: Knex,
  scope: OrderScope,
  query: OrderListQuery,
  dependents: OrderDependents,
): Promise<Page<CustomerOrderOut>> {
  const q = filterOrders(db, scope, query);
  applySorting(q, query.sorting, orderSorts(db), ["-created_at"], "orders.id");
  return listPage(q, query, (rows: OrderRow[]) => readCustomerOrders(db, rows, dependents));
}

export type OrderUpdateInput = OpBody<"orders:update">;

function sameAddress(a: Address | null, b: Address | null): boolean {
  if (a === null || b === null) return a === b;
  return (["country", "line1", "line2", "postal_code", "city", "state"] as const).every((k) => (a[k] ?? null) === (b[k] ?? null));
}

/** Billing name and address, until the invoice is generated (it would no longer match). */
export async function updateOrderRow(
  trx: Knex.Transaction,
  scope: OrderScope,
  id: string,
  input: OrderUpdateInput,
  dependents: OrderDependents,
): Promise<OrderRow> {
  const row = await findReadable(trx, scope, id, { forUpdate: true });
  if (!row) throw new ResourceNotFound("Order not found.");
  // The client sends both fields on every update: only a real change counts.
  const patch: Record<string, unknown> = {};
  if (input.billing_name !== undefined) {
    const name = input.billing_name === null ? null : input.billing_name.trim() || null;
    if (name !== row.billing_name) patch.billing_name = name;
  }
  if (input.billing_address !== undefined) {
    const address = input.billing_address === null ? null : checkAddress(input.billing_address);
    if (!sameAddress(address, row.billing_address)) patch.billing_address = address === null ? null : JSON.stringify(address);
  }
  if (Object.keys(patch).length === 0) return row;
  if (row.is_invoice_generated) {
    throw invalid(
      ["body", "billing_name" in patch ? "billing_name" : "billing_address"],
      "Billing details can't be updated after the invoice is generated.",
    );
  }
  patch.modified_at = new Date();
  const updated = await saveOrder(trx, row.id, patch);
  await emit(trx, row.organization_id, "order.updated", await readOrder(trx, updated, dependents));
  return updated;
}

export async function updateOrder(
  db: Knex,
  scope: OrderScope,
  id: string,
  input: OrderUpdateInput,
  dependents: OrderDependents,
): Promise<OrderOut> {
  const row = await db.transaction((trx) => updateOrderRow(trx, scope, id, input, dependents));
  return readOrder(db, row, dependents);
}

export async function updateCustomerOrder(
  db: Knex,
  scope: OrderScope,
  id: string,
  input: OrderUpdateInput,
  dependents: OrderDependents,
): Promise<CustomerOrderOut> {
  const row = await db.transaction((trx) => updateOrderRow(trx, scope, id, input, dependents));
  return readCustomerOrder(db, row, dependents);
}
