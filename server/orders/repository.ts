// Order queries, always scoped to the reader's organization (and, for a portal customer, to that
// customer), and the batch loading of what an Order carries: customer, product, discount, items.
import type { Knex } from "knex";
import type { Address } from "../customers/address.js";
import type { CustomerRow } from "../customers/repository.js";
import type { DiscountRow } from "../discounts/repository.js";
import { isUuid } from "../kit/ids.js";
import type { ProductRow } from "../products/repository.js";
import type { SubscriptionRow } from "../subscriptions/repository.js";

export type OrderStatus = "pending" | "paid" | "refunded" | "partially_refunded";
export type BillingReason = "purchase" | "subscription_create" | "subscription_cycle" | "subscription_update";

export interface OrderRow {
  id: string;
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
  invoice_number: number | null;
  is_invoice_generated: boolean;
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
  /** The period a renewal bills (subscription_cycle orders). */
  billing_period_start?: Date | null;
  /** While a subscription is past due: when this order's payment is tried next. */
  next_payment_attempt_at?: Date | null;
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
}

/** Who reads orders: an organization, or one customer of it in the portal. */
export interface OrderScope {
  organizationId: string;
  customerId?: string;
}

export function readable(db: Knex, scope: OrderScope): Knex.QueryBuilder {
  const q = db("orders").where("orders.organization_id", scope.organizationId);
  if (scope.customerId) q.where("orders.customer_id", scope.customerId);
  return q;
}

export async function findReadable(db: Knex, scope: OrderScope, id: string, opts: { forUpdate?: boolean } = {}): Promise<OrderRow | undefined> {
  if (!isUuid(id)) return undefined;
  const q = readable(db, scope).where("orders.id", id).first("orders.*");
  return (opts.forUpdate ? q.forUpdate() : q) as Promise<OrderRow | undefined>;
}

export interface OrderRelations {
  customers: Map<string, CustomerRow>;
  products: Map<string, ProductRow>;
  discounts: Map<string, DiscountRow>;
  items: Map<string, OrderItemRow[]>;
  subscriptions: Map<string, SubscriptionRow>;
}

/**
 * Loads the relations of many orders in at most five queries; a relation the caller already holds
 * (`known`, e.g. rows it has just written or read in the same transaction) is not read again.
 */
export async function loadOrderRelations(db: Knex, orders: OrderRow[], known: Partial<OrderRelations> = {}): Promise<OrderRelations> {
  const uniq = (xs: (string | null)[]) => [...new Set(xs.filter((x): x is string => x !== null))];
  // No query for an empty id list (an order without a discount or a subscription).
  const byIds = <T extends object>(table: string, ids: string[]) => (ids.length ? db<T>(table).whereIn("id", ids) : []) as Promise<T[]>;
  const [customers, products, discounts, items, subscriptions] = await Promise.all([
    known.customers ? [] : byIds<CustomerRow>("customers", uniq(orders.map((o) => o.customer_id))),
    known.products ? [] : byIds<ProductRow>("products", uniq(orders.map((o) => o.product_id))),
    known.discounts ? [] : byIds<DiscountRow>("discounts", uniq(orders.map((o) => o.discount_id))),
    known.items ? [] : db<OrderItemRow>("order_items").whereIn("order_id", orders.map((o) => o.id)).orderBy([{ column: "position" }, { column: "created_at" }]),
    known.subscriptions ? [] : byIds<SubscriptionRow>("subscriptions", uniq(orders.map((o) => o.subscription_id))),
  ]);
  const byOrder = new Map<string, OrderItemRow[]>();
  for (const it of items as OrderItemRow[]) {
    const list = byOrder.get(it.order_id);
    if (list) list.push(it);
    else byOrder.set(it.order_id, [it]);
  }
  return {
    customers: known.customers ?? new Map((customers as CustomerRow[]).map((c) => [c.id, c])),
    products: known.products ?? new Map((products as ProductRow[]).map((p) => [p.id, p])),
    discounts: known.discounts ?? new Map((discounts as DiscountRow[]).map((d) => [d.id, d])),
    items: known.items ?? byOrder,
    subscriptions: known.subscriptions ?? new Map((subscriptions as SubscriptionRow[]).map((x) => [x.id, x])),
  };
}
