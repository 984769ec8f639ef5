// Disputes (chargebacks): opened and moved along by the processor (Stripe's charge.dispute.*
// events, the sandbox's dispute card), read and conceded by the merchant. As on Polar, a dispute
// that ends lost takes the order's money back without a refund: its row records the amount and tax
// taken, and the order's subscription is revoked (a one-time purchase's benefits, without one).
// Every change holds the dispute row locked in one transaction.
import type { Knex } from "knex";
import { scheduleBenefitRevocations } from "../benefit-grants/service.js";
import { byIds as customersByIds } from "../customers/repository.js";
import type { OrganizationCaller } from "../kit/auth.js";
import { ResourceNotFound } from "../kit/errors.js";
import { asList, isUuid } from "../kit/ids.js";
import { logger } from "../kit/logger.js";
import { applySorting, listPage, type Page } from "../kit/pagination.js";
import type { UnitOfWork } from "../kit/unit-of-work.js";
import { totalAmount } from "../orders/models.js";
import { findOrder, type OrderRow } from "../orders/repository.js";
import { succeededByProcessorRef } from "../payments/repository.js";
import { getProcessor } from "../processors/index.js";
import { ProcessorRefused, type PaymentProcessor, type ProcessorDispute } from "../processors/processor.js";
import { revokeSeatsOf } from "../seats/service.js";
import { revokeInTransaction } from "../subscriptions/changes.js";
import { DisputeNotOpenError } from "./errors.js";
import { isClosed, toDispute, type DisputeOut } from "./models.js";
import { findReadable, lockOrInsertByProcessorRef, readable, updateDispute, type DisputeRow } from "./repository.js";

/** What accepting a dispute needs from the processor. */
export type DisputeCloser = Pick<PaymentProcessor, "closeDispute">;

export interface DisputeListQuery {
  organization_id?: string | string[] | null;
  order_id?: string | string[] | null;
  status?: string | string[] | null;
  page?: number;
  limit?: number;
  sorting?: string[] | null;
}

async function withCustomers(db: Knex, rows: DisputeRow[]): Promise<DisputeOut[]> {
  const customers = new Map((await customersByIds(db, [...new Set(rows.map((r) => r.customer_id))])).map((c) => [c.id, c]));
  return rows.map((r) => {
    const customer = customers.get(r.customer_id);
    if (!customer) throw new Error(`The customer ${r.customer_id} of dispute ${r.id} is missing.`);
    return toDispute(r, customer);
  });
}

export async function listDisputes(db: Knex, scope: { organizationId: string }, query: DisputeListQuery): Promise<Page<DisputeOut>> {
  const q = readable(db, scope).select("disputes.*");
  for (const key of ["organization_id", "order_id"] as const) {
    const ids = asList(query[key]);
    if (ids.length) q.whereIn(`disputes.${key}`, ids.filter(isUuid));
  }
  const statuses = asList(query.status);
  if (statuses.length) q.whereIn("disputes.status", statuses);
  applySorting(q, query.sorting, { created_at: "disputes.created_at", amount: "disputes.amount" }, ["-created_at"], "disputes.id");
  return listPage(q, query, (rows: DisputeRow[]) => withCustomers(db, rows));
}

export async function getDispute(db: Knex, scope: { organizationId: string }, id: string): Promise<DisputeOut> {
  const row = await findReadable(db, scope, id);
  if (!row) throw new ResourceNotFound("Dispute not found.");
  return (await withCustomers(db, [row]))[0];
}

/**
 * Concedes a dispute awaiting a response: the processor closes it as lost, and the money it took
 * back is the order's loss (takeBack). Anything else is DisputeNotOpenError.
 */
export async function acceptDispute(
  uow: UnitOfWork,
  caller: OrganizationCaller,
  id: string,
  opts: { closer?: DisputeCloser } = {},
): Promise<DisputeOut> {
  const closer = opts.closer ?? getProcessor();
  return uow.db.transaction(async (trx) => {
    const row = await findReadable(trx, caller, id, { forUpdate: true });
    if (!row) throw new ResourceNotFound("Dispute not found.");
    if (row.status !== "needs_response") throw new DisputeNotOpenError(`The dispute is ${row.status}, not awaiting a response.`);
    let closed: Awaited<ReturnType<DisputeCloser["closeDispute"]>>;
    try {
      closed = await closer.closeDispute({ disputeRef: row.processor_ref, idempotencyKey: `dispute:${row.id}:accept` });
    } catch (err) {
      // The processor refuses to close a dispute that is no longer open there.
      if (err instanceof ProcessorRefused) throw new DisputeNotOpenError(`The processor did not close the dispute: ${err.message}`);
      throw err;
    }
    const updated = await updateDispute(trx, row.id, { status: closed.status, modified_at: new Date() });
    if (updated.status === "lost") await takeBack(uow, trx, updated);
    return (await withCustomers(trx, [updated]))[0];
  });
}

/** The tax part of a disputed total, in the order's proportion of tax to total. */
function taxShare(order: OrderRow, disputed: number): number {
  const total = totalAmount(order);
  return total > 0 ? Math.round((disputed * order.tax_amount) / total) : 0;
}

/**
 * A dispute as the processor reports it, applied inside `trx`: opened on the order of the payment
 * it names, or moved to its new status. A closed dispute keeps its outcome (a late or replayed
 * event changes its details only). Null when no order of ours was paid by that payment.
 */
export async function applyProcessorDispute(
  uow: UnitOfWork,
  trx: Knex.Transaction,
  processor: string,
  dispute: ProcessorDispute,
): Promise<DisputeRow | null> {
  const details = {
    reason: dispute.reason,
    evidence_due_by: dispute.evidenceDueBy ? new Date(dispute.evidenceDueBy) : null,
    past_due: dispute.pastDue,
  };
  const found = await lockOrInsertByProcessorRef(trx, processor, dispute.ref, async () => {
    const payment = await succeededByProcessorRef(trx, dispute.paymentRef);
    const order = payment?.order_id ? await findOrder(trx, payment.order_id) : undefined;
    if (!payment || !order) return null;
    const tax = taxShare(order, dispute.amount);
    return Object.assign(
      {
        organization_id: order.organization_id,
        order_id: order.id,
        payment_id: payment.id,
        customer_id: order.customer_id,
        status: dispute.status,
        amount: dispute.amount - tax,
        tax_amount: tax,
        currency: dispute.currency,
      },
      details,
    );
  });
  if (!found) {
    logger.warn({ dispute: dispute.ref, payment: dispute.paymentRef }, "a dispute on a payment we do not know");
    return null;
  }
  const { row, created } = found;
  if (created) {
    if (row.status === "lost") await takeBack(uow, trx, row);
    return row;
  }
  const status = isClosed(row.status) ? row.status : dispute.status;
  const updated = await updateDispute(trx, row.id, Object.assign({ status, modified_at: new Date() }, details));
  if (status === "lost" && row.status !== "lost") await takeBack(uow, trx, updated);
  return updated;
}

/** The dispute is lost: what the order's money bought ends (its subscription now, or a one-time purchase's benefits). */
async function takeBack(uow: UnitOfWork, trx: Knex.Transaction, dispute: DisputeRow): Promise<void> {
  const order = await findOrder(trx, dispute.order_id);
  if (!order) throw new Error(`The order ${dispute.order_id} of dispute ${dispute.id} is missing.`);
  if (order.subscription_id) await revokeInTransaction(uow, trx, order.subscription_id);
  else {
    await scheduleBenefitRevocations(trx, { customerId: order.customer_id, orderId: order.id });
    await revokeSeatsOf(trx, { column: "order_id", id: order.id });
  }
}
