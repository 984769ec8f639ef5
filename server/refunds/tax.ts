// A refund's tax: its share of the order's tax, and the provider's reversal of it. The share
// follows the part of the net amount refunded (rounded half away from zero); the refund that
// empties the order takes whatever tax is left, so refunds of one order hand back at most its
// tax, and all of it once the order is fully refunded. The built-in provider reverts in the
// refund's transaction; Stripe Tax after the commit, in the worker.
import type { Knex } from "knex";
import { findOrder, type OrderRow } from "../orders/repository.js";
import { orderTaxTransaction, recordDueOrderTax } from "../orders/tax.js";
import { roundHalfAwayFromZero } from "../tax/calculator.js";
import { builtinTaxProvider } from "../tax/provider.js";
import { taxProvider } from "../tax/providers.js";
import { startTaxSyncsAfterCommit } from "../workflows-door.js";
import { findRefund, updateRefund, type RefundRow } from "./repository.js";

type RefundedOrder = Pick<
  OrderRow,
  "subtotal_amount" | "discount_amount" | "tax_amount" | "applied_balance_amount" | "refunded_amount" | "refunded_tax_amount"
>;

/** The tax a refund of `amount` (net, within what is left) hands back of `order`. */
export function refundTax(order: RefundedOrder, amount: number): number {
  const net = order.subtotal_amount - order.discount_amount;
  const taxLeft = Math.max(0, order.tax_amount - order.refunded_tax_amount);
  // What the wallet paid (applied_balance_amount, negative) is not refundable.
  if (amount >= net + order.applied_balance_amount - order.refunded_amount) return taxLeft;
  if (net <= 0) return 0;
  return Math.min(taxLeft, Number(roundHalfAwayFromZero(BigInt(order.tax_amount) * BigInt(amount), BigInt(net))));
}

/** A refund of the order's whole: its whole net and tax (a refund never exceeds what is left, so nothing went back before). */
function wholeRefund(order: RefundedOrder, amount: number, tax: number): boolean {
  return amount === order.subtotal_amount - order.discount_amount && tax === order.tax_amount;
}

/**
 * What reverts the refund's tax, in the refund's transaction: the built-in provider's reversal at
 * once (it calls nothing), or, for an order taxed by Stripe Tax, the reversal marked due and made
 * after the commit by the worker (revertDueRefundTax). Nothing when the order carries no tax
 * calculation, or its tax is not recorded.
 */
export async function refundTaxColumns(
  trx: Knex.Transaction,
  order: RefundedOrder & Pick<OrderRow, "id" | "tax_calculation" | "tax_transaction_id">,
  refundId: string,
  amount: number,
  tax: number,
): Promise<Required<Pick<RefundRow, "tax_reversal_id" | "tax_revert_due_at">>> {
  if (order.tax_calculation?.provider === "stripe") {
    startTaxSyncsAfterCommit(trx, [{ kind: "revert", id: refundId }]);
    return { tax_reversal_id: null, tax_revert_due_at: new Date() };
  }
  const transaction = orderTaxTransaction(order);
  if (transaction === null) return { tax_reversal_id: null, tax_revert_due_at: null };
  const refund = wholeRefund(order, amount, tax) ? undefined : { total_amount: amount + tax, tax_amount: tax };
  return { tax_reversal_id: (await builtinTaxProvider.revert(transaction, refundId, refund)).id, tax_revert_due_at: null };
}

/**
 * Reverts a refund's tax with Stripe Tax, outside any transaction: the whole transaction for a
 * refund of the order's whole, else the refund's share; the order's record first when it is still
 * due. The reversal's id is stored under the refund's lock; once stored nothing is sent again, and
 * a retry before that sends the same idempotency key (`tax-revert:<refund>`).
 */
export async function revertDueRefundTax(db: Knex, refundId: string): Promise<string | null> {
  const refund = await findRefund(db, refundId);
  if (!refund?.tax_revert_due_at) return refund?.tax_reversal_id ?? null;
  const order = await findOrder(db, refund.order_id);
  const transactionId = order ? await recordDueOrderTax(db, order.id) : null;
  const transaction = order && transactionId ? orderTaxTransaction(Object.assign({}, order, { tax_transaction_id: transactionId })) : null;
  const whole = order !== undefined && wholeRefund(order, refund.amount, refund.tax_amount);
  const reversalId = transaction
    ? (
        await taxProvider(transaction.provider).revert(
          transaction,
          refund.id,
          whole ? undefined : { total_amount: refund.amount + refund.tax_amount, tax_amount: refund.tax_amount },
        )
      ).id
    : null;
  return db.transaction(async (trx) => {
    const locked = await findRefund(trx, refundId, { forUpdate: true });
    if (!locked?.tax_revert_due_at) return locked?.tax_reversal_id ?? null;
    await updateRefund(trx, refundId, { tax_reversal_id: reversalId, tax_revert_due_at: null });
    return reversalId;
  });
}
