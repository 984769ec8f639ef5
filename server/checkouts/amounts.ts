// What a checkout asks of the buyer: the quote a checkout row holds and the flags the payment
// form reads. What a price costs with a discount is server/discounts/amounts.ts (subscriptions
// charge by it too).
import type { Amounts } from "../discounts/amounts.js";
import { isFreePrice } from "../products/models.js";
import type { PriceRow, ProductRow } from "../products/repository.js";

export interface Flags {
  is_discount_applicable: boolean;
  is_free_product_price: boolean;
  is_payment_required: boolean;
  is_payment_setup_required: boolean;
  is_payment_form_required: boolean;
}

/** The quote a checkout row holds (written with every change to it). */
export function quoteOf(row: { amount: number; discount_amount: number; tax_amount: number; total_amount: number }): Amounts {
  const amount = Number(row.amount);
  const discount_amount = Number(row.discount_amount);
  return { amount, discount_amount, net_amount: amount - discount_amount, tax_amount: Number(row.tax_amount), total_amount: Number(row.total_amount) };
}

export function computeFlags(product: ProductRow, price: PriceRow, amounts: Amounts): Flags {
  const isFree = isFreePrice(price);
  const isPaymentRequired = amounts.total_amount > 0;
  // A subscription keeps a payment method for its renewals even when the first charge is 0.
  const isSetupRequired = product.recurring_interval !== null && !isFree;
  return {
    is_discount_applicable: (price.amount_type === "fixed" && !isFree) || price.amount_type === "custom",
    is_free_product_price: isFree,
    is_payment_required: isPaymentRequired,
    is_payment_setup_required: isSetupRequired,
    is_payment_form_required: isPaymentRequired || isSetupRequired,
  };
}
