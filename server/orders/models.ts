// The Order (merchant) and CustomerOrder (portal) wire shapes, their line items and the subscription
// inside them (whose base fields every subscription shape shares). Amounts are
// minor units: net = subtotal − discount, total = net + tax.
import type { components } from "../../generated/types.js";
import { toCustomerBase } from "../customers/models.js";
import { toDiscountBase } from "../discounts/models.js";
import type { DiscountRow } from "../discounts/repository.js";
import { iso, isoRequired } from "../kit/time.js";
import { toPublicOrganization } from "../organizations/models.js";
import type { OrganizationRow } from "../organizations/repository.js";
import { toCustomerProduct, toProductBase } from "../products/models.js";
import type { ProductRelations, ProductRow } from "../products/repository.js";
import type { OrderItemRow, OrderRelations, OrderRow, SubscriptionBaseRow } from "./repository.js";

export type OrderOut = components["schemas"]["Order"];
export type CustomerOrderOut = components["schemas"]["CustomerOrder"];
export type OrderSubscriptionOut = components["schemas"]["OrderSubscription"];

/** A draft, or an order whose payment has not succeeded yet. */
export function isUnpaid(status: OrderRow["status"]): boolean {
  return status === "pending" || status === "draft";
}

export function netAmount(row: Pick<OrderRow, "subtotal_amount" | "discount_amount">): number {
  return row.subtotal_amount - row.discount_amount;
}
export function totalAmount(row: Pick<OrderRow, "subtotal_amount" | "discount_amount" | "tax_amount">): number {
  return netAmount(row) + row.tax_amount;
}

/** What is still to pay: the total with the applied balance while the order is pending, nothing once paid. */
export function dueAmount(
  row: Pick<OrderRow, "status" | "subtotal_amount" | "discount_amount" | "tax_amount" | "applied_balance_amount">,
): number {
  return isUnpaid(row.status) ? Math.max(0, totalAmount(row) + row.applied_balance_amount) : 0;
}

/** What a refund can still give back, before taxes (nothing before the order is paid). */
export function refundableAmount(
  row: Pick<OrderRow, "status" | "subtotal_amount" | "discount_amount" | "applied_balance_amount" | "refunded_amount">,
): number {
  return isUnpaid(row.status) ? 0 : Math.max(0, netAmount(row) + row.applied_balance_amount - row.refunded_amount);
}

/** The tax a full refund of the refundable amount gives back. */
export function refundableTaxAmount(row: Pick<OrderRow, "status" | "tax_amount" | "refunded_tax_amount">): number {
  return isUnpaid(row.status) ? 0 : Math.max(0, row.tax_amount - row.refunded_tax_amount);
}

function toItem(row: OrderItemRow) {
  return {
    created_at: isoRequired(row.created_at),
    modified_at: iso(row.modified_at),
    id: row.id,
    label: row.label,
    amount: row.amount,
    tax_amount: row.tax_amount,
    proration: row.proration,
    product_price_id: row.product_price_id,
    start_timestamp: iso(row.start_timestamp),
    end_timestamp: iso(row.end_timestamp),
  };
}

function toOrderBase(row: OrderRow, items: OrderItemRow[], product: ProductRow) {
  return {
    id: row.id,
    created_at: isoRequired(row.created_at),
    modified_at: iso(row.modified_at),
    status: row.status,
    paid: !isUnpaid(row.status),
    subtotal_amount: row.subtotal_amount,
    discount_amount: row.discount_amount,
    net_amount: netAmount(row),
    amount: netAmount(row),
    tax_amount: row.tax_amount,
    total_amount: totalAmount(row),
    applied_balance_amount: row.applied_balance_amount,
    due_amount: dueAmount(row),
    refunded_amount: row.refunded_amount,
    refunded_tax_amount: row.refunded_tax_amount,
    currency: row.currency,
    billing_reason: row.billing_reason,
    billing_name: row.billing_name,
    billing_address: row.billing_address,
    invoice_number: row.invoice_number,
    is_invoice_generated: row.is_invoice_generated,
    receipt_number: row.receipt_number,
    customer_id: row.customer_id,
    product_id: row.product_id,
    discount_id: row.discount_id,
    subscription_id: row.subscription_id,
    checkout_id: row.checkout_id,
    next_payment_attempt_at: iso(row.next_payment_attempt_at ?? null),
    // The client still reads the deprecated user_id: it is the customer's id.
    user_id: row.user_id ?? row.customer_id,
    items: items.map(toItem),
    // As Polar describes an order: its product's name, else its first line.
    description: product?.name ?? items[0]?.label ?? "",
    refundable_amount: refundableAmount(row),
    refundable_tax_amount: refundableTaxAmount(row),
    // Unit-based prices are not offered: an order sells no units.
    units: null,
  };
}

/**
 * The fields every subscription shape shares: the OrderSubscription inside an order here, and the
 * Subscription shapes of subscriptions/models.ts (declared here, the lower domain).
 */
export function toSubscriptionBase(row: SubscriptionBaseRow) {
  return {
    created_at: isoRequired(row.created_at),
    modified_at: iso(row.modified_at),
    id: row.id,
    amount: Number(row.amount),
    currency: row.currency,
    recurring_interval: row.recurring_interval,
    recurring_interval_count: row.recurring_interval_count,
    status: row.status,
    current_period_start: isoRequired(row.current_period_start),
    current_period_end: isoRequired(row.current_period_end),
    // Metered usage follows the billing period: there is no meter period apart from it.
    current_meter_period_start: null,
    current_meter_period_end: null,
    trial_start: iso(row.trial_start),
    trial_end: iso(row.trial_end),
    cancel_at_period_end: row.cancel_at_period_end,
    canceled_at: iso(row.canceled_at),
    started_at: iso(row.started_at),
    ends_at: iso(row.ends_at),
    ended_at: iso(row.ended_at),
    // Nothing pauses a subscription here.
    pause_at_period_end: false,
    paused_at: null,
    resumes_at: null,
    customer_id: row.customer_id,
    product_id: row.product_id,
    discount_id: row.discount_id,
    checkout_id: row.checkout_id,
    seats: row.seats ?? null,
    customer_cancellation_reason: row.customer_cancellation_reason,
    customer_cancellation_comment: row.customer_cancellation_comment,
    // Unit-based prices are not offered: a subscription has no units.
    units: null,
  };
}

export function toOrderSubscription(row: SubscriptionBaseRow): OrderSubscriptionOut {
  return { metadata: row.metadata, ...toSubscriptionBase(row) };
}

function subscriptionOf(row: OrderRow, rel: OrderRelations): SubscriptionBaseRow | null {
  return (row.subscription_id && rel.subscriptions.get(row.subscription_id)) || null;
}

function toOrderDiscount(row: DiscountRow | undefined) {
  return row ? toDiscountBase(row) : null;
}

function toOrderProduct(row: ProductRow) {
  return Object.assign({ metadata: row.metadata }, toProductBase(row));
}

export function toOrder(row: OrderRow, rel: OrderRelations): OrderOut {
  const sub = subscriptionOf(row, rel);
  return Object.assign(toOrderBase(row, rel.items.get(row.id) ?? [], rel.products.get(row.product_id)!), {
    subscription: sub ? toOrderSubscription(sub) : null,
    metadata: row.metadata,
    custom_field_data: row.custom_field_data,
    platform_fee_amount: row.platform_fee_amount,
    platform_fee_currency: row.platform_fee_currency,
    customer: toCustomerBase(rel.customers.get(row.customer_id)!),
    product: toOrderProduct(rel.products.get(row.product_id)!),
    discount: row.discount_id ? toOrderDiscount(rel.discounts.get(row.discount_id)) : null,
    tax_rate: row.tax_rate ?? null,
    taxability_reason: row.taxability_reason ?? null,
  });
}

export function toCustomerOrder(
  row: OrderRow,
  rel: OrderRelations,
  productRel: Map<string, ProductRelations>,
  organization: OrganizationRow,
): CustomerOrderOut {
  const product = rel.products.get(row.product_id)!;
  const sub = subscriptionOf(row, rel);
  return Object.assign(toOrderBase(row, rel.items.get(row.id) ?? [], product), {
    // CustomerOrderSubscription: the customer sees no merchant's metadata.
    subscription: sub ? toSubscriptionBase(sub) : null,
    product: Object.assign(toCustomerProduct(product, productRel.get(product.id)!), { organization: toPublicOrganization(organization) }),
  });
}
