// A checkout's quote with its tax: the amount after discount taxed by the organization's provider
// from the buyer's billing address, business checkbox and tax id, and the product's tax category.
// With the provider `none`, or before the billing country is known, no tax is computed (today's
// quote). Prices that include tax keep their total: the tax is carved out of it. The buyer's
// address or tax id refused is an issue a confirm answers with a 422; a provider that fails
// (Stripe Tax down) is a 503 for the whole request, so the checkout keeps its last quote.
import type { ValidationIssue } from "../kit/errors.js";
import { computeAmounts, type Amounts } from "../discounts/amounts.js";
import { providerTaxSettings, taxSettingsOf } from "../organizations/tax-settings.js";
import type { OrganizationRow } from "../organizations/repository.js";
import { isProviderFailure, TaxError, TaxUnavailable } from "../tax/errors.js";
import type { TaxBuyer, TaxCalculation } from "../tax/models.js";
import { taxProvider } from "../tax/providers.js";
import { isTaxIdType } from "../tax/tax-ids.js";
import type { CheckoutContext, CheckoutRow } from "./repository.js";

export interface TaxedQuote {
  amounts: Amounts;
  calculation: TaxCalculation | null;
  /** Why the tax can't be computed yet (a Canadian buyer without a province): confirm refuses it. */
  issue: ValidationIssue | null;
}

function buyerOf(row: CheckoutRow, country: string): TaxBuyer {
  const address = row.customer_billing_address;
  const taxId = row.customer_tax_id;
  return {
    country,
    state: address?.state ?? null,
    postal_code: address?.postal_code ?? null,
    business: row.is_business_customer,
    tax_id: taxId && isTaxIdType(taxId[1]) ? [taxId[0], taxId[1]] : null,
  };
}

/** The quote of `row` (its amount and `ctx`'s discount) with the tax the organization's provider computes now. */
export async function taxedQuote(row: CheckoutRow, ctx: CheckoutContext, org: Pick<OrganizationRow, "tax_settings">, now = new Date()): Promise<TaxedQuote> {
  const base = computeAmounts(Number(row.amount), ctx.discount);
  const settings = providerTaxSettings(taxSettingsOf(org.tax_settings));
  const country = row.customer_billing_address?.country;
  if (settings === null || !country) return { amounts: base, calculation: null, issue: null };
  try {
    const calculation = await taxProvider(settings.provider).calculate({
      settings,
      buyer: buyerOf(row, country),
      currency: row.currency,
      lines: [{ amount: base.net_amount, category: ctx.product.row.tax_category, reference: row.product_price_id }],
      date: now,
    });
    const { net_amount, tax_amount, total_amount } = calculation;
    return { amounts: { amount: base.amount, discount_amount: base.discount_amount, net_amount, tax_amount, total_amount }, calculation, issue: null };
  } catch (err) {
    if (!(err instanceof TaxError)) throw err;
    if (isProviderFailure(err)) throw new TaxUnavailable(err);
    const loc = err.code === "location_incomplete" ? ["body", "customer_billing_address", "state"] : ["body", "customer_billing_address"];
    return { amounts: base, calculation: null, issue: { loc, msg: err.message, type: "value_error" } };
  }
}
