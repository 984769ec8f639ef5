// What a checkout asks of the buyer: the quote a checkout row holds, the trial it starts, the tax
// behavior it shows and the flags the payment form reads. What a price costs with a discount is
// server/discounts/amounts.ts (subscriptions charge by it too).
import type { Amounts } from "../discounts/amounts.js";
import { isFreePrice } from "../products/models.js";
import type { Interval, PriceRow, ProductRow } from "../products/repository.js";
import type { CheckoutRow } from "./repository.js";

export interface Flags {
  is_discount_applicable: boolean;
  is_free_product_price: boolean;
  is_payment_required: boolean;
  is_payment_setup_required: boolean;
  is_payment_form_required: boolean;
}

/**
 * The quote a checkout row holds (written with every change to it). The net amount is before
 * tax: the total less the tax, which a price including tax carves out of its amount.
 */
export function quoteOf(row: { amount: number; discount_amount: number; tax_amount: number; total_amount: number }): Amounts {
  const tax_amount = Number(row.tax_amount);
  const total_amount = Number(row.total_amount);
  return {
    amount: Number(row.amount),
    discount_amount: Number(row.discount_amount),
    net_amount: total_amount - tax_amount,
    tax_amount,
    total_amount,
  };
}

/**
 * The trial a checkout starts, as Polar decides it: none when the checkout disallows trials or
 * the product is not recurring; else the checkout's own trial, or the product's.
 */
export function activeTrial(
  row: Pick<CheckoutRow, "allow_trial" | "trial_interval" | "trial_interval_count">,
  product: Pick<ProductRow, "recurring_interval" | "trial_interval" | "trial_interval_count">,
): { interval: Interval; count: number } | null {
  if (!row.allow_trial || product.recurring_interval === null) return null;
  const interval = row.trial_interval ?? product.trial_interval;
  const count = row.trial_interval_count ?? product.trial_interval_count;
  return interval !== null && count !== null ? { interval, count } : null;
}

/** Buyers in these countries are shown prices before sales tax; elsewhere prices include VAT or GST. */
const TAX_ADDED_ON_TOP = new Set(["US", "CA"]);

/**
 * Whether the checkout's amounts include tax: as its tax was computed, else the price's own
 * behavior when it says, else the buyer's country decides (`location`), unknown (null) until the
 * billing country is given.
 */
export function taxBehaviorOf(
  price: Pick<PriceRow, "tax_behavior">,
  row: Pick<CheckoutRow, "customer_billing_address" | "tax_calculation">,
): "inclusive" | "exclusive" | null {
  // A computed tax says how it was computed: the organization's prices_include_tax.
  if (row.tax_calculation) return row.tax_calculation.prices_include_tax ? "inclusive" : "exclusive";
  if (price.tax_behavior === "inclusive" || price.tax_behavior === "exclusive") return price.tax_behavior;
  const country = row.customer_billing_address?.country;
  if (!country) return null;
  return TAX_ADDED_ON_TOP.has(country) ? "exclusive" : "inclusive";
}

/** The flags of a checkout quoting `amounts`; one with a trial (`trialEnd`) charges nothing now. */
export function computeFlags(product: ProductRow, price: PriceRow, amounts: Amounts, trialEnd: Date | null): Flags {
  const isFree = isFreePrice(price);
  const isPaymentRequired = amounts.total_amount > 0 && trialEnd === null;
  // A subscription keeps a payment method for its renewals even when the first charge is 0 (a
  // trial, a 100% first-period discount).
  const isSetupRequired = product.recurring_interval !== null && !isFree;
  return {
    is_discount_applicable: (price.amount_type === "fixed" && !isFree) || price.amount_type === "custom",
    is_free_product_price: isFree,
    is_payment_required: isPaymentRequired,
    is_payment_setup_required: isSetupRequired,
    is_payment_form_required: isPaymentRequired || isSetupRequired,
  };
}
