// An order's tax: what it stores of the calculation it was charged with, the provider's record of
// it when the order is paid, and the recorded transaction a refund reverts.
import type { TaxCalculation } from "../tax/models.js";
import type { TaxTransaction } from "../tax/provider.js";
import { taxProvider } from "../tax/providers.js";
import type { OrderRow } from "./repository.js";

export type OrderTax = Pick<OrderRow, "tax_rate" | "taxability_reason" | "tax_calculation">;

/** What an order stores of the calculation it was quoted with: the rate with its jurisdiction, why, and the calculation. */
export function orderTaxOf(calculation: TaxCalculation): OrderTax {
  const { jurisdiction } = calculation;
  const taxed = calculation.lines.find((l) => l.jurisdiction !== null);
  return {
    tax_rate: jurisdiction && taxed
      ? { basis_points: taxed.basis_points, display_name: jurisdiction.display_name, country: jurisdiction.country, state: jurisdiction.state }
      : null,
    taxability_reason: calculation.taxability_reason,
    tax_calculation: calculation,
  };
}

/**
 * Records the order's tax with the provider that computed it, as the order is paid: the
 * transaction's id, or the one it has already (null without a calculation). The provider's
 * idempotency key is the order's id, so a paid transaction rolled back after the call records once.
 */
export async function recordOrderTax(order: Pick<OrderRow, "id" | "tax_calculation" | "tax_transaction_id">): Promise<string | null> {
  if (!order.tax_calculation || order.tax_transaction_id) return order.tax_transaction_id;
  return (await taxProvider(order.tax_calculation.provider).record(order.tax_calculation, order.id)).id;
}

/** The recorded tax transaction of a paid order, for a refund to revert; null when none was recorded. */
export function orderTaxTransaction(order: Pick<OrderRow, "id" | "tax_calculation" | "tax_transaction_id">): TaxTransaction | null {
  if (!order.tax_calculation || !order.tax_transaction_id) return null;
  return { provider: order.tax_calculation.provider, id: order.tax_transaction_id, reference: order.id, calculation: order.tax_calculation };
}
