// Payment queries, always scoped to the caller's organization.
import type { Knex } from "knex";
import type { components } from "../../generated/types.js";
import { insertReturning } from "../kit/rows.js";
import { isUuid } from "../kit/ids.js";
import { orderOfCustomerEmails, orderOfCustomers } from "../orders/repository.js";

export interface PaymentRow {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  organization_id: string;
  processor: "stripe";
  status: "pending" | "succeeded" | "failed";
  amount: number;
  currency: string;
  method: string;
  method_metadata: { brand: string; last4: string } | null;
  decline_reason: string | null;
  decline_message: string | null;
  processor_metadata: Record<string, unknown>;
  processor_ref: string | null;
  checkout_id: string | null;
  order_id: string | null;
  /** Why the payment was attempted; null for payments recorded before it was. */
  trigger: PaymentTrigger | null;
}

export type PaymentTrigger = components["schemas"]["PaymentTrigger"];

export function readable(db: Knex, scope: { organizationId: string }): Knex.QueryBuilder {
  return db("payments").where("payments.organization_id", scope.organizationId);
}

export async function findReadable(db: Knex, scope: { organizationId: string }, id: string): Promise<PaymentRow | undefined> {
  if (!isUuid(id)) return undefined;
  return readable(db, scope).where("payments.id", id).first("payments.*") as Promise<PaymentRow | undefined>;
}

/** The order's latest payment attempt. */
export function latestForOrder(db: Knex, orderId: string): Promise<PaymentRow | undefined> {
  return db("payments")
    .where({ order_id: orderId })
    .orderBy([
      { column: "created_at", order: "desc" },
      { column: "id", order: "desc" },
    ])
    .first();
}

/** How many payment attempts the order has had. */
export async function countForOrder(db: Knex, orderId: string): Promise<number> {
  return Number((await db("payments").where({ order_id: orderId }).count({ n: "*" }))[0].n);
}

/** How many payment attempts the checkout has had. */
export async function countForCheckout(db: Knex, checkoutId: string): Promise<number> {
  return Number((await db("payments").where({ checkout_id: checkoutId }).count({ n: "*" }))[0].n);
}

/** The order's latest succeeded payment at a processor (the one a refund goes back to). */
export function latestSucceededForOrder(db: Knex, orderId: string): Promise<PaymentRow | undefined> {
  return db("payments")
    .where({ order_id: orderId, status: "succeeded" })
    .whereNotNull("processor_ref")
    .orderBy("created_at", "desc")
    .first();
}

/** A subquery for whereExists: a checkout (`checkoutIdColumn`) whose payer is one of these lowercased emails. */
export type CheckoutOfPayerEmails = (db: Knex, checkoutIdColumn: string, emails: string[]) => Knex.QueryBuilder;

/** A subquery for whereExists: a checkout (`checkoutIdColumn`) of one of these customers. */
export type CheckoutOfCustomers = (db: Knex, checkoutIdColumn: string, customerIds: string[]) => Knex.QueryBuilder;

/**
 * Narrows a payment query to payments by these payers (lowercased emails): the customer of the
 * payment's order, or the payer of its checkout (checkouts' builder, handed in: checkouts import payments).
 */
export function wherePayerEmails(db: Knex, q: Knex.QueryBuilder, emails: string[], checkoutOfPayerEmails: CheckoutOfPayerEmails): void {
  q.where((w) =>
    w
      .whereExists(orderOfCustomerEmails(db, "payments.order_id", emails))
      .orWhereExists(checkoutOfPayerEmails(db, "payments.checkout_id", emails)),
  );
}

/**
 * Narrows a payment query to these customers' payments: the customer of the payment's order, or,
 * for a payment without one (a declined checkout), of its checkout (checkouts' builder, handed in).
 */
export function whereCustomers(db: Knex, q: Knex.QueryBuilder, customerIds: string[], checkoutOfCustomers: CheckoutOfCustomers): void {
  q.where((w) =>
    w
      .whereExists(orderOfCustomers(db, "payments.order_id", customerIds))
      .orWhere((c) => c.whereNull("payments.order_id").whereExists(checkoutOfCustomers(db, "payments.checkout_id", customerIds))),
  );
}

export function insertPayment(db: Knex, values: Record<string, unknown>): Promise<PaymentRow> {
  return insertReturning<PaymentRow>(db, "payments", values);
}

/** The succeeded payment of an order that the processor knows by `processorRef` (a disputed charge), whatever the organization. */
export function succeededByProcessorRef(db: Knex, processorRef: string): Promise<PaymentRow | undefined> {
  return db("payments").where({ processor_ref: processorRef, status: "succeeded" }).whereNotNull("order_id").first();
}

/** When the order's payment succeeded; none for an order paid without one (a free one). */
export async function paidAtOf(db: Knex, orderId: string): Promise<Date | undefined> {
  const row = await db("payments").where({ order_id: orderId, status: "succeeded" }).orderBy("created_at", "desc").first("created_at");
  return row?.created_at;
}
