// The tax provider port, Polar's calculate / record / revert: calculate on every checkout change,
// record when the order is paid, revert (whole or in part) on a refund. The built-in provider
// runs the offline calculator, and record and revert answer what the caller stores: the tax
// charged per line, and the tax handed back per line. A Stripe Tax provider implements the same
// port (tax.calculations.create, tax.transactions.createFromCalculation, and a reversal).
import { calculate, roundHalfAwayFromZero } from "./calculator.js";
import { TaxError } from "./errors.js";
import type { TaxCalculation, TaxCalculationInput, TaxLine, TaxProviderName } from "./models.js";

/** A recorded calculation: the tax a paid order carries. */
export interface TaxTransaction {
  provider: TaxProviderName;
  /** The provider's transaction id (Stripe's tax transaction); the built-in one's is made from the reference. */
  id: string;
  /** The order it records. */
  reference: string;
  calculation: TaxCalculation;
}

export interface TaxReversalLine {
  reference: string | null;
  /** What is handed back of the line, tax included. */
  total_amount: number;
  tax_amount: number;
}

/** Tax handed back on a refund. */
export interface TaxReversal {
  provider: TaxProviderName;
  /** The provider's reversal id; the built-in one's is made from the reference. */
  id: string;
  transaction_id: string;
  /** The refund it reverses. */
  reference: string;
  total_amount: number;
  tax_amount: number;
  lines: TaxReversalLine[];
}

/** What a partial refund hands back: its total with tax, and the tax in it when the caller knows it. */
export interface TaxRefund {
  total_amount: number;
  tax_amount?: number;
}

export interface TaxProvider {
  readonly name: Exclude<TaxProviderName, "none">;
  calculate(input: TaxCalculationInput): Promise<TaxCalculation>;
  record(calculation: TaxCalculation, reference: string): Promise<TaxTransaction>;
  /** Reverses the whole transaction, or the part a refund hands back. */
  revert(transaction: TaxTransaction, reference: string, refund?: TaxRefund): Promise<TaxReversal>;
}

/** What the Stripe Tax provider needs (STRIPE_SECRET_KEY, and stripe-mock's URL in the tests). */
export interface StripeTaxConfig {
  secretKey: string;
  apiBase?: string;
}

/** Splits `total` over the lines in proportion to `weight`; the last line takes the remainder. */
function spread(lines: TaxLine[], weight: (l: TaxLine) => number, total: number): number[] {
  const sum = lines.reduce((s, l) => s + weight(l), 0);
  let left = total;
  return lines.map((l, i) => {
    const share =
      i === lines.length - 1 || sum === 0 ? left : Number(roundHalfAwayFromZero(BigInt(total) * BigInt(weight(l)), BigInt(sum)));
    left -= share;
    return share;
  });
}

/** The reversal of a whole transaction, or of a refund's share of it (its tax in proportion to the total). */
export function reversal(transaction: TaxTransaction, reference: string, refund?: TaxRefund): TaxReversal {
  const { calculation } = transaction;
  const total = refund?.total_amount ?? calculation.total_amount;
  if (!Number.isSafeInteger(total) || total < 0 || total > calculation.total_amount) {
    throw new TaxError("invalid_input", `A refund's total must be an integer from 0 to the order's ${calculation.total_amount}.`);
  }
  const tax =
    refund?.tax_amount ??
    (calculation.total_amount === 0
      ? 0
      : Number(roundHalfAwayFromZero(BigInt(calculation.tax_amount) * BigInt(total), BigInt(calculation.total_amount))));
  if (!Number.isSafeInteger(tax) || tax < 0 || tax > calculation.tax_amount || tax > total) {
    throw new TaxError(
      "invalid_input",
      `A refund's tax must be an integer from 0 to the order's ${calculation.tax_amount} and to the refund's total.`,
    );
  }
  const totals = spread(calculation.lines, (l) => l.total_amount, total);
  const taxes = spread(calculation.lines, (l) => l.tax_amount, tax);
  return {
    provider: transaction.provider,
    id: `${transaction.id}:reversal:${reference}`,
    transaction_id: transaction.id,
    reference,
    total_amount: total,
    tax_amount: tax,
    lines: calculation.lines.map((l, i) => ({ reference: l.reference, total_amount: totals[i], tax_amount: taxes[i] })),
  };
}

/** The offline calculator behind the provider port; nothing is sent anywhere. */
export const builtinTaxProvider: TaxProvider = {
  name: "builtin",
  async calculate(input) {
    return calculate(input);
  },
  async record(calculation, reference) {
    return { provider: calculation.provider, id: `builtin:${reference}`, reference, calculation };
  },
  async revert(transaction, reference, refund) {
    return reversal(transaction, reference, refund);
  },
};
