// What a price costs: the amount of the chosen price, the discount's share, tax (none is computed
// yet: 0), and whether a discount applies (window, redemptions left, product restriction,
// currency). Checkouts quote by it and subscriptions charge by it.
import type { DiscountRow } from "./repository.js";
import { isFreePrice } from "../products/models.js";
import type { PriceRow, ProductRow } from "../products/repository.js";
import { invalid } from "../kit/errors.js";
import { MAXIMUM_PRICE_AMOUNT, MINIMUM_PRICE_AMOUNT } from "../kit/money.js";
import { seatBounds, seatsAmount } from "../products/seat-tiers.js";

export interface Amounts {
  amount: number;
  discount_amount: number;
  net_amount: number;
  tax_amount: number;
  total_amount: number;
}

/**
 * The amount the price asks before any discount (`amount` is the buyer's choice for a custom price;
 * `seats` the seats a seat-based one buys, its minimum when not given).
 */
export function priceAmount(
  price: PriceRow,
  amount: number | null | undefined,
  loc: (string | number)[] = ["body", "amount"],
  seats?: number | null,
): number {
  switch (price.amount_type) {
    case "fixed":
      return Number(price.price_amount);
    case "custom": {
      const min = price.minimum_amount ?? MINIMUM_PRICE_AMOUNT;
      const max = price.maximum_amount ?? MAXIMUM_PRICE_AMOUNT;
      if (amount === undefined || amount === null) return price.preset_amount ?? min;
      if (!Number.isInteger(amount)) throw invalid(loc, "Input should be a valid integer", "int_type", amount);
      if (amount < min) throw invalid(loc, `Amount must be greater than or equal to ${min}.`, "greater_than_equal", amount);
      if (amount > max) throw invalid(loc, `Amount must be less than or equal to ${max}.`, "less_than_equal", amount);
      return amount;
    }
    case "seat_based": {
      const tiers = price.seat_tiers!;
      return seatsAmount(tiers, seats ?? seatBounds(tiers).minimum);
    }
    default:
      return 0;
  }
}

export function priceCurrency(price: PriceRow): string {
  return price.price_currency ?? "usd";
}

/** Why a discount can't apply to this product and price now, or null when it can. */
export function discountProblem(
  discount: DiscountRow,
  discountProductIds: string[],
  product: ProductRow,
  price: PriceRow,
  now = new Date(),
): string | null {
  if (discount.deleted_at) return "This discount does not exist.";
  if (discount.starts_at && new Date(discount.starts_at).getTime() > now.getTime()) return "This discount is not valid yet.";
  if (discount.ends_at && new Date(discount.ends_at).getTime() <= now.getTime()) return "This discount has expired.";
  if (discount.max_redemptions !== null && discount.redemptions_count >= discount.max_redemptions) {
    return "This discount has been fully redeemed.";
  }
  if (discountProductIds.length && !discountProductIds.includes(product.id)) return "This discount does not apply to this product.";
  if (discount.type === "fixed" && discount.currency !== priceCurrency(price)) return "This discount does not apply to this currency.";
  if (isFreePrice(price)) return "A discount does not apply to a free price.";
  return null;
}

export function discountAmount(discount: DiscountRow | null, amount: number): number {
  if (!discount) return 0;
  if (discount.type === "fixed") return Math.min(amount, Number(discount.amount));
  return Math.min(amount, Math.round((amount * discount.basis_points!) / 10_000));
}

export function computeAmounts(amount: number, discount: DiscountRow | null): Amounts {
  const discount_amount = discountAmount(discount, amount);
  const net_amount = amount - discount_amount;
  const tax_amount = 0;
  return { amount, discount_amount, net_amount, tax_amount, total_amount: net_amount + tax_amount };
}
