// A checkout's quote with its tax, computed by the organization's provider from the buyer's
// address, business flag and tax id and the product's tax category; none with provider `none` or
// no billing country yet. Tax-inclusive prices keep their total. A refused address or tax id is a
// 422 at confirm; a failing provider is a 503 and the checkout keeps its last quote. A network
// provider is never asked inside a transaction (`withTaxQuotes`). docs/TAX.md.
import type { Knex } from "knex";
import { invalid, type ValidationIssue } from "../kit/errors.js";
import { computeAmounts, type Amounts } from "../discounts/amounts.js";
import { providerTaxSettings, taxSettingsOf } from "../organizations/tax-settings.js";
import type { OrganizationRow } from "../organizations/repository.js";
import { isProviderFailure, TaxError, TaxUnavailable } from "../tax/errors.js";
import type { TaxBuyer, TaxCalculation, TaxCalculationInput } from "../tax/models.js";
import { taxProvider } from "../tax/providers.js";
import { isTaxIdType } from "../tax/tax-ids.js";
import type { CheckoutContext, CheckoutRow } from "./repository.js";

export interface TaxedQuote {
  amounts: Amounts;
  calculation: TaxCalculation | null;
  /** Why the tax can't be computed yet (a Canadian buyer without a province): confirm refuses it. */
  issue: ValidationIssue | null;
}

/** The provider's answer to one calculation: the calculation, or the TaxError it refused with. */
type Answer = { calculation: TaxCalculation } | { error: TaxError };

/** How many times a write runs before giving up on a checkout whose tax inputs change under every run. */
const ATTEMPTS = 5;

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

/** The calculation a quote of `row` asks for; null when no tax is computed (provider `none`, no billing country). */
function requestOf(
  row: CheckoutRow,
  base: Amounts,
  ctx: CheckoutContext,
  org: Pick<OrganizationRow, "tax_settings">,
  now: Date,
): TaxCalculationInput | null {
  const settings = providerTaxSettings(taxSettingsOf(org.tax_settings));
  const country = row.customer_billing_address?.country;
  if (settings === null || !country) return null;
  return {
    settings,
    buyer: buyerOf(row, country),
    currency: row.currency,
    lines: [{ amount: base.net_amount, category: ctx.product.row.tax_category, reference: row.product_price_id }],
    date: now,
  };
}

/** The tax inputs of a calculation (all but its date): two requests with the same key get the same answer. */
const keyOf = ({ settings, buyer, currency, lines }: TaxCalculationInput) => JSON.stringify([settings, buyer, currency, lines]);

async function ask(input: TaxCalculationInput): Promise<Answer> {
  try {
    return { calculation: await taxProvider(input.settings.provider).calculate(input) };
  } catch (err) {
    if (err instanceof TaxError) return { error: err };
    throw err;
  }
}

function quoteOf(base: Amounts, answer: Answer): TaxedQuote {
  if ("error" in answer) {
    const err = answer.error;
    if (isProviderFailure(err)) throw new TaxUnavailable(err);
    const loc = err.code === "location_incomplete" ? ["body", "customer_billing_address", "state"] : ["body", "customer_billing_address"];
    return { amounts: base, calculation: null, issue: { loc, msg: err.message, type: "value_error" } };
  }
  const { calculation } = answer;
  const { net_amount, tax_amount, total_amount } = calculation;
  return {
    amounts: { amount: base.amount, discount_amount: base.discount_amount, net_amount, tax_amount, total_amount },
    calculation,
    issue: null,
  };
}

/** A quote the transaction needs from a provider over the network: it is rolled back and the provider asked outside it. */
class QuoteNeeded extends Error {
  constructor(readonly input: TaxCalculationInput) {
    super("a tax quote is needed from the provider");
  }
}

/**
 * The quotes of one request. The built-in calculator runs in process and is asked in place;
 * Stripe Tax answers only from what was asked of it before the transaction, for the same tax
 * inputs (amount after discount, currency, address, business checkbox, tax id, category, the
 * organization's settings); other inputs stop the transaction (`withTaxQuotes`).
 */
export class CheckoutQuotes {
  private readonly answers = new Map<string, Answer>();

  /** The quote of `row` (its amount and `ctx`'s discount) with the tax the organization's provider computes. */
  async quote(row: CheckoutRow, ctx: CheckoutContext, org: Pick<OrganizationRow, "tax_settings">, now = new Date()): Promise<TaxedQuote> {
    const base = computeAmounts(Number(row.amount), ctx.discount);
    const input = requestOf(row, base, ctx, org, now);
    if (input === null) return { amounts: base, calculation: null, issue: null };
    if (input.settings.provider === "builtin") return quoteOf(base, await ask(input));
    const answer = this.answers.get(keyOf(input));
    if (answer === undefined) throw new QuoteNeeded(input);
    return quoteOf(base, answer);
  }

  /** Asks the provider, outside any transaction, for what a run needed. */
  async fetch(input: TaxCalculationInput): Promise<void> {
    this.answers.set(keyOf(input), await ask(input));
  }
}

/**
 * Runs `work` in a transaction whose quotes come from `CheckoutQuotes`. A run that needs a quote
 * Stripe Tax has not given for its tax inputs is rolled back (releasing the checkout's lock and
 * the connection), Stripe asked, and the work run again under the lock; the locked row is read
 * afresh each time, so its quote is always for its current inputs. A checkout whose inputs
 * change under every run is a 422.
 */
export async function withTaxQuotes<T>(db: Knex, work: (trx: Knex.Transaction, quotes: CheckoutQuotes) => Promise<T>): Promise<T> {
  const quotes = new CheckoutQuotes();
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction((trx) => work(trx, quotes));
    } catch (err) {
      if (!(err instanceof QuoteNeeded)) throw err;
      if (attempt === ATTEMPTS) throw invalid(["body"], "The checkout changed while its tax was computed; try again.", "value_error");
      await quotes.fetch(err.input);
    }
  }
}
