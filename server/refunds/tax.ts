// A refund's tax: its share of the order's tax, and the provider's reversal of it. The share
// follows the part of the net amount refunded (rounded half away from zero); the refund that
// empties the order takes whatever tax is left, so refunds of one order hand back at most its
// tax, and all of it once the order is fully refunded.
import { orderTaxTransaction } from "../orders/tax.js";
import type { OrderRow } from "../orders/repository.js";
import { roundHalfAwayFromZero } from "../tax/calculator.js";
import { taxProvider } from "../tax/providers.js";

type RefundedOrder = Pick<OrderRow, "subtotal_amount" | "discount_amount" | "tax_amount" | "refunded_amount" | "refunded_tax_amount">;

/** The tax a refund of `amount` (net, within what is left) hands back of `order`. */
export function refundTax(order: RefundedOrder, amount: number): number {
  const net = order.subtotal_amount - order.discount_amount;
  const taxLeft = Math.max(0, order.tax_amount - order.refunded_tax_amount);
  if (amount >= net - order.refunded_amount) return taxLeft;
  if (net <= 0) return 0;
  return Math.min(taxLeft, Number(roundHalfAwayFromZero(BigInt(order.tax_amount) * BigInt(amount), BigInt(net))));
}

/**
 * Reverts the refund's tax with the provider that recorded the order's: the whole transaction
 * when the refund is the order's whole, else its share. The reversal's id; null when the order's
 * tax was not recorded (no tax computed, or an order from before).
 */
export async function revertRefundTax(
  order: RefundedOrder & Pick<OrderRow, "id" | "tax_calculation" | "tax_transaction_id">,
  refundId: string,
  amount: number,
  tax: number,
): Promise<string | null> {
  const transaction = orderTaxTransaction(order);
  if (transaction === null) return null;
  const whole = order.refunded_amount === 0 && order.refunded_tax_amount === 0 && amount === order.subtotal_amount - order.discount_amount && tax === order.tax_amount;
  const provider = taxProvider(transaction.provider);
  const reversal = await provider.revert(transaction, refundId, whole ? undefined : { total_amount: amount + tax, tax_amount: tax });
  return reversal.id;
}
