// An order's tax: what it stores of the calculation it was charged with, the provider's record of
// it when the order is paid (the built-in one's in the paying transaction, Stripe Tax's after the
// commit, in the worker), and the recorded transaction a refund reverts.
import type { Knex } from "knex";
import type { TaxCalculation } from "../tax/models.js";
import { builtinTaxProvider, type TaxTransaction } from "../tax/provider.js";
import { taxProvider } from "../tax/providers.js";
import { startTaxSyncsAfterCommit } from "../workflows-door.js";
import { isUnpaid } from "./models.js";
import { findOrder, patchOrder, type OrderRow } from "./repository.js";

export type OrderTax = Pick<OrderRow, "tax_rate" | "taxability_reason" | "tax_calculation">;

/** What an order stores of the calculation it was quoted with: the rate with its jurisdiction, why, and the calculation. */
export function orderTaxOf(calculation: TaxCalculation): OrderTax {
  const { jurisdiction } = calculation;
  const taxed = calculation.lines.find((l) => l.jurisdiction !== null);
  return {
    tax_rate:
      jurisdiction && taxed
        ? {
            basis_points: taxed.basis_points,
            display_name: jurisdiction.display_name,
            country: jurisdiction.country,
            state: jurisdiction.state,
          }
        : null,
    taxability_reason: calculation.taxability_reason,
    tax_calculation: calculation,
  };
}

/**
 * What records the order's tax as it is paid, in the paying transaction: the built-in provider's
 * transaction at once (it calls nothing), or Stripe Tax's record marked due, made after the
 * commit by the worker (recordDueOrderTax). Nothing without a calculation or when recorded already.
 */
export async function paidOrderTax(
  trx: Knex.Transaction,
  order: Pick<OrderRow, "id" | "tax_calculation" | "tax_transaction_id">,
): Promise<Required<Pick<OrderRow, "tax_transaction_id" | "tax_record_due_at">>> {
  if (!order.tax_calculation || order.tax_transaction_id) return { tax_transaction_id: order.tax_transaction_id, tax_record_due_at: null };
  if (order.tax_calculation.provider === "stripe") {
    startTaxSyncsAfterCommit(trx, [{ kind: "record", id: order.id }]);
    return { tax_transaction_id: null, tax_record_due_at: new Date() };
  }
  return { tax_transaction_id: (await builtinTaxProvider.record(order.tax_calculation, order.id)).id, tax_record_due_at: null };
}

/**
 * Records a paid order's tax with its provider, outside any transaction (no row stays locked while
 * Stripe answers), then stores the transaction's id under the order's lock. Once it is stored
 * nothing is sent again; a retry before that sends the same idempotency key (`tax-record:<order>`),
 * so Stripe records it once. The transaction's id; null when there is nothing to record.
 */
export async function recordDueOrderTax(db: Knex, orderId: string): Promise<string | null> {
  const order = await findOrder(db, orderId);
  if (!order?.tax_calculation || isUnpaid(order.status)) return null;
  if (order.tax_transaction_id) return order.tax_transaction_id;
  const transaction = await taxProvider(order.tax_calculation.provider).record(order.tax_calculation, order.id);
  return db.transaction(async (trx) => {
    const locked = await findOrder(trx, orderId, { forUpdate: true });
    if (locked?.tax_transaction_id) return locked.tax_transaction_id;
    await patchOrder(trx, orderId, { tax_transaction_id: transaction.id, tax_record_due_at: null });
    return transaction.id;
  });
}

/** The recorded tax transaction of a paid order, for a refund to revert; null when none was recorded. */
export function orderTaxTransaction(order: Pick<OrderRow, "id" | "tax_calculation" | "tax_transaction_id">): TaxTransaction | null {
  if (!order.tax_calculation || !order.tax_transaction_id) return null;
  return {
    provider: order.tax_calculation.provider,
    id: order.tax_transaction_id,
    reference: order.id,
    calculation: order.tax_calculation,
  };
}
