// The tax of an order made without a checkout (a subscription's renewal, plan change or last usage;
// a draft order): computed when the order is made from the customer's billing address and tax id,
// with the organization's tax settings as they are then, on the day the period starts. Each line
// is taxed on its own (the discount comes off the first, the base price); prices that include tax
// have it carved out of the line, so the total charged stays the listed price.
import type { Knex } from "knex";
import type { CustomerRow } from "../customers/repository.js";
import { logger } from "../kit/logger.js";
import type { OrderItemInput } from "./service.js";
import { orderTaxOf, type OrderTax } from "./tax.js";
import { findOrganization } from "../organizations/repository.js";
import { providerTaxSettings, taxSettingsOf } from "../organizations/tax-settings.js";
import type { ProductRow } from "../products/repository.js";
import { isProviderFailure, TaxError, TaxUnavailable } from "../tax/errors.js";
import type { TaxBuyer } from "../tax/models.js";
import { taxProvider } from "../tax/providers.js";
import { isTaxIdType } from "../tax/tax-ids.js";

/** The customer's billing address can't be taxed (absent, incomplete or invalid). */
export class UntaxableCustomer extends Error {
  constructor() {
    super("Tax could not be calculated for this order: the customer's billing address is missing or incomplete.");
  }
}

export interface TaxedLines {
  items: OrderItemInput[];
  /** Before discount and tax (a tax-inclusive line counts without its tax). */
  subtotal: number;
  taxAmount: number;
  tax: OrderTax | null;
}

/** The customer as a buyer; null without a billing country (nothing is computed then). */
function buyerOf(customer: CustomerRow): TaxBuyer | null {
  const address = customer.billing_address;
  if (!address?.country) return null;
  const taxId = customer.tax_id;
  return {
    country: address.country,
    state: address.state ?? null,
    postal_code: address.postal_code ?? null,
    // Polar's customers have no business checkbox: a customer with a tax id buys as a business.
    business: taxId !== null,
    tax_id: taxId && isTaxIdType(taxId[1]) ? [taxId[0], taxId[1]] : null,
  };
}

/**
 * `items` (before discount) with their tax; `discountAmount` comes off the first. Nothing is
 * computed for the provider `none`, a customer without a billing country, or an order that
 * charges nothing. A provider that fails throws TaxUnavailable (the activity retries; a plan
 * change asked over HTTP answers 503 and changes nothing); a customer
 * whose address can't be taxed (a Canadian one without a province) is billed without tax, logged,
 * unless `strict` (a draft order keeps the tax it is made with): then, as without a billing country
 * when tax is collected, UntaxableCustomer is thrown.
 */
export async function taxOrderLines(
  db: Knex,
  order: { organizationId: string; customer: CustomerRow; product: ProductRow; currency: string; date: Date },
  items: OrderItemInput[],
  discountAmount: number,
  opts: { strict?: boolean } = {},
): Promise<TaxedLines> {
  const subtotal = items.reduce((n, it) => n + it.amount, 0);
  const untaxed: TaxedLines = { items, subtotal, taxAmount: 0, tax: null };
  const org = await findOrganization(db, order.organizationId);
  const settings = org ? providerTaxSettings(taxSettingsOf(org.tax_settings)) : null;
  const buyer = buyerOf(order.customer);
  if (opts.strict && settings !== null && buyer === null) throw new UntaxableCustomer();
  if (settings === null || buyer === null || items.length === 0 || subtotal - discountAmount <= 0) return untaxed;
  try {
    const calculation = await taxProvider(settings.provider).calculate({
      settings,
      buyer,
      currency: order.currency,
      lines: items.map((it, i) => ({
        amount: i === 0 ? it.amount - discountAmount : it.amount,
        category: order.product.tax_category,
        reference: it.productPriceId ?? `line-${i + 1}`,
      })),
      date: order.date,
    });
    const taxed = items.map((it, i) => {
      const line = calculation.lines[i];
      return Object.assign({}, it, { amount: line.net_amount + (i === 0 ? discountAmount : 0), taxAmount: line.tax_amount });
    });
    return {
      items: taxed,
      subtotal: taxed.reduce((n, it) => n + it.amount, 0),
      taxAmount: calculation.tax_amount,
      tax: orderTaxOf(calculation),
    };
  } catch (err) {
    if (!(err instanceof TaxError)) throw err;
    if (isProviderFailure(err)) throw new TaxUnavailable(err);
    if (!["location_incomplete", "location_invalid", "invalid_input"].includes(err.code)) throw err;
    if (opts.strict) throw new UntaxableCustomer();
    logger.warn(
      { err, organizationId: order.organizationId, customerId: order.customer.id },
      "order billed without tax: the customer's address can't be taxed",
    );
    return untaxed;
  }
}
