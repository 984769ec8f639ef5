// Money is an integer number of minor units plus a lowercase ISO 4217 currency.
import { invalid } from "./errors.js";

export const MINIMUM_PRICE_AMOUNT = 50;
export const MAXIMUM_PRICE_AMOUNT = 99_999_999;
export const DEFAULT_CURRENCY = "usd";

export function checkCurrency(currency: unknown, loc: (string | number)[]): string {
  if (currency === undefined || currency === null) return DEFAULT_CURRENCY;
  if (typeof currency !== "string" || !/^[a-zA-Z]{3}$/.test(currency)) {
    throw invalid(loc, "Currency must be a three-letter ISO 4217 code", "value_error");
  }
  return currency.toLowerCase();
}

export function checkAmount(
  amount: unknown,
  loc: (string | number)[],
  { min = MINIMUM_PRICE_AMOUNT, max = MAXIMUM_PRICE_AMOUNT }: { min?: number; max?: number } = {},
): number {
  if (typeof amount !== "number" || !Number.isInteger(amount)) throw invalid(loc, "Input should be a valid integer", "int_type");
  if (amount < min) throw invalid(loc, `Input should be greater than or equal to ${min}`, "greater_than_equal");
  if (amount > max) throw invalid(loc, `Input should be less than or equal to ${max}`, "less_than_equal");
  return amount;
}

/** A checkout is paid in one currency: the products offered together must all be priced in it (free prices have none). */
export function checkOneCurrency(currencies: (string | null)[], loc: (string | number)[]): void {
  if (new Set(currencies.filter((c) => c !== null)).size > 1) {
    throw invalid(loc, "All products of a checkout must be priced in the same currency.", "value_error");
  }
}

const SCALE = 12;
const scaled = (decimal: string): bigint => {
  const [whole, fraction = ""] = decimal.split(".");
  return BigInt(whole + (fraction + "0".repeat(SCALE)).slice(0, SCALE));
};

/**
 * Units (non-negative) times a decimal amount per unit (minor units, at most 12 decimals, as the
 * database returns it), in whole minor units rounded half up. Exact for up to 12 decimals of units.
 */
export function unitsTimesAmount(units: number, unitAmount: string): number {
  if (!(units > 0)) return 0;
  if (units >= 1e15) return Math.round(units * Number(unitAmount));
  const product = scaled(units.toFixed(SCALE)) * scaled(unitAmount);
  const one = 10n ** BigInt(2 * SCALE);
  return Number((product + one / 2n) / one);
}
