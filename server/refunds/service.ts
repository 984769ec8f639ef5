// Refund rules: full or partial refunds of what a paid order charged in cash (tax in proportion,
// reverted with its tax provider; a wallet-paid part is not refundable), never past what is left
// (RefundAmountTooHigh), nor on a refunded order or while a dispute holds its money. The processor
// refunds with a key from the refund id; the order, and the customer's wallet (takeBackOnRefund),
// follow in the same transaction, the order row locked against concurrent refunds.
import type { OpBody } from "../../generated/handlers.js";
import { randomUUID } from "node:crypto";
import type { Knex } from "knex";
import { scheduleBenefitRevocations } from "../benefit-grants/service.js";
import { customerWithExternalId } from "../customers/repository.js";
import type { OrganizationCaller } from "../kit/auth.js";
import { invalid } from "../kit/errors.js";
import { asList, isUuid } from "../kit/ids.js";
import { checkMetadata } from "../kit/metadata.js";
import { emit } from "../kit/outbox.js";
import { applySorting, listPage, type Page } from "../kit/pagination.js";
import { holdsOrderMoney } from "../disputes/repository.js";
import { RefundAmountTooHigh, RefundDisputedPayment, RefundedAlready } from "../orders/errors.js";
import { isUnpaid, netAmount, refundableAmount } from "../orders/models.js";
import { findReadable as findOrder, saveOrder, type OrderRow } from "../orders/repository.js";
import { readOrder } from "../orders/service.js";
import { latestSucceededForOrder } from "../payments/repository.js";
import { getProcessor } from "../processors/index.js";
import { revokeSeatsOf } from "../seats/service.js";
import { takeBackOnRefund } from "../wallets/service.js";
import { orderDependents } from "../subscriptions/repository.js";
import type { PaymentProcessor } from "../processors/processor.js";
import { toRefund, type RefundOut } from "./models.js";
import { insertRefund, readable, updateRefund, type RefundRow } from "./repository.js";
import { jsonb } from "../kit/db.js";
import { refundTax, refundTaxColumns } from "./tax.js";

/** What refunds need from a payment processor. */
export type Refunder = Pick<PaymentProcessor, "refund">;

export type RefundCreateInput = OpBody<"refunds:create">;

export async function createRefund(
  db: Knex,
  caller: OrganizationCaller,
  input: RefundCreateInput,
  opts: { refunder?: Refunder; requestKey?: string | null } = {},
): Promise<RefundOut> {
  const refunder = opts.refunder ?? getProcessor();
  if (!Number.isInteger(input.amount) || input.amount < 1) {
    throw invalid(["body", "amount"], "Input should be greater than or equal to 1", "greater_than_equal", input.amount);
  }
  const metadata = checkMetadata(input.metadata);
  return db.transaction(async (trx) => {
    const order = await findOrder(trx, caller, input.order_id, { forUpdate: true });
    if (!order) throw invalid(["body", "order_id"], "Order not found.", "value_error", input.order_id);
    if (order.status === "refunded") throw new RefundedAlready("The order is already fully refunded.");
    if (isUnpaid(order.status)) throw invalid(["body", "order_id"], "The order is not paid.", "value_error", input.order_id);
    if (await holdsOrderMoney(trx, order.id)) throw new RefundDisputedPayment();
    // What the wallet paid is not refundable, as on Polar: only the cash charged goes back.
    const left = refundableAmount(order);
    if (input.amount > left) throw new RefundAmountTooHigh(`The refund amount exceeds what is left to refund on this order (${left}).`);
    if (input.revoke_benefits && order.subscription_id) {
      throw invalid(["body", "revoke_benefits"], "Benefits can only be revoked on refunds of one-time purchases.");
    }
    const payment = await latestSucceededForOrder(trx, order.id);
    if (!payment) throw invalid(["body", "order_id"], "The order has no succeeded payment to refund.", "value_error", input.order_id);

    const tax = refundTax(order, input.amount);
    const id = randomUUID();
    const pending = await insertRefund(trx, {
      id,
      organization_id: order.organization_id,
      status: "pending",
      reason: input.reason,
      amount: input.amount,
      tax_amount: tax,
      currency: order.currency,
      order_id: order.id,
      subscription_id: order.subscription_id,
      customer_id: order.customer_id,
      payment_id: payment.id,
      revoke_benefits: input.revoke_benefits ?? false,
      comment: input.comment ?? null,
      metadata: jsonb(trx, metadata),
    });
    await emit(trx, order.organization_id, "refund.created", toRefund(pending));

    // With an Idempotency-Key, the processor's key comes from it: a retry after a crash between
    // the processor's answer and our commit asks for the same refund, not a second one.
    const idempotencyKey = opts.requestKey ? `refund:request:${opts.requestKey}` : `refund:${id}`;
    const result = await refunder.refund({ paymentRef: payment.processor_ref!, amount: input.amount + tax, idempotencyKey });
    // The tax handed back is reverted with the provider that recorded it, unless nothing went back.
    const reversal = result.status === "failed" ? {} : await refundTaxColumns(trx, order, id, input.amount, tax);
    const refund = await updateRefund(
      trx,
      id,
      Object.assign({ status: result.status, processor_ref: result.refundRef, modified_at: new Date() }, reversal),
    );
    if (result.status !== "pending") await emit(trx, order.organization_id, "refund.updated", toRefund(refund));
    // A pending refund holds its amount too: what is in flight can't be refunded twice.
    if (result.status !== "failed") {
      await applyToOrder(trx, order, input.amount, tax);
      await takeBackOnRefund(trx, {
        id,
        orderId: order.id,
        customerId: order.customer_id,
        currency: order.currency,
        total: input.amount + tax,
      });
    }
    if (input.revoke_benefits && result.status !== "failed") {
      await scheduleBenefitRevocations(trx, { customerId: order.customer_id, orderId: order.id });
      await revokeSeatsOf(trx, { column: "order_id", id: order.id });
    }
    return toRefund(refund);
  });
}

async function applyToOrder(trx: Knex.Transaction, order: OrderRow, amount: number, tax: number): Promise<void> {
  const refunded = order.refunded_amount + amount;
  const status = refunded >= netAmount(order) + order.applied_balance_amount ? "refunded" : "partially_refunded";
  const updated = await saveOrder(trx, order.id, {
    refunded_amount: refunded,
    refunded_tax_amount: order.refunded_tax_amount + tax,
    status,
    modified_at: new Date(),
  });
  const out = await readOrder(trx, updated, orderDependents);
  await emit(trx, order.organization_id, "order.updated", out);
  await emit(trx, order.organization_id, "order.refunded", out);
}

export interface RefundListQuery {
  id?: string | string[] | null;
  organization_id?: string | string[] | null;
  order_id?: string | string[] | null;
  subscription_id?: string | string[] | null;
  customer_id?: string | string[] | null;
  external_customer_id?: string | string[] | null;
  succeeded?: boolean | null;
  page?: number;
  limit?: number;
  sorting?: string[] | null;
}

export async function listRefunds(db: Knex, caller: OrganizationCaller, query: RefundListQuery): Promise<Page<RefundOut>> {
  const q = readable(db, caller).select("refunds.*");
  for (const key of ["id", "organization_id", "order_id", "subscription_id", "customer_id"] as const) {
    const ids = asList(query[key]);
    if (ids.length) q.whereIn(`refunds.${key}`, ids.filter(isUuid));
  }
  const external = asList(query.external_customer_id);
  if (external.length) q.whereExists(customerWithExternalId(db, "refunds.customer_id", external));
  if (query.succeeded === true) q.where("refunds.status", "succeeded");
  if (query.succeeded === false) q.whereNot("refunds.status", "succeeded");
  applySorting(q, query.sorting, { created_at: "refunds.created_at", amount: "refunds.amount" }, ["-created_at"], "refunds.id");
  return listPage(q, query, (rows: RefundRow[]) => rows.map(toRefund));
}
