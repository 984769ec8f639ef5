// Stripe Tax behind the tax provider port: calculate with tax.calculations.create, record a paid
// order with tax.transactions.createFromCalculation, reverse it (whole, or a refund's share per
// line) with tax.transactions.createReversal. Where the seller is registered is the Stripe
// account's business; every write carries an idempotency key made from our reference.
import Stripe from "stripe";
import { basisPoints, buyerTaxId, checkInput, orderOf, percent, roundHalfAwayFromZero } from "./calculator.js";
import { TaxError } from "./errors.js";
import type {
  TaxabilityReason,
  TaxBuyer,
  TaxCalculation,
  TaxCalculationInput,
  TaxCategory,
  TaxJurisdiction,
  TaxLine,
  TaxLineInput,
} from "./models.js";
import { reversal, type StripeTaxConfig, type TaxProvider, type TaxRefund, type TaxReversal, type TaxTransaction } from "./provider.js";
import { utcDay } from "./rates.js";

/** Stripe's product tax code for a category (https://docs.stripe.com/tax/tax-codes). */
export function stripeTaxCode(category: TaxCategory, business: boolean): string {
  switch (category) {
    case "digital_service":
      return "txcd_10000000"; // General - Electronically Supplied Services
    case "ebook":
      return "txcd_10302000"; // Digital Books - downloaded - non subscription - with permanent rights
    case "saas":
      return business ? "txcd_10103001" : "txcd_10103000"; // Software as a service: business use, personal use
    case "general":
      return "txcd_20030000"; // General - Services
  }
}

/** Stripe's taxability reasons in Polar's vocabulary; an unknown one is not_supported. */
const REASONS = new Map<string, TaxabilityReason>([
  ["standard_rated", "standard_rated"],
  ["reduced_rated", "standard_rated"],
  ["portion_standard_rated", "standard_rated"],
  ["portion_reduced_rated", "standard_rated"],
  ["proportionally_rated", "standard_rated"],
  ["taxable_basis_reduced", "standard_rated"],
  ["zero_rated", "product_exempt"],
  ["product_exempt", "product_exempt"],
  ["product_exempt_holiday", "product_exempt"],
  ["portion_product_exempt", "product_exempt"],
  ["reverse_charge", "reverse_charge"],
  ["not_collecting", "not_collecting"],
  ["not_subject_to_tax", "not_subject_to_tax"],
  ["not_supported", "not_supported"],
  ["customer_exempt", "customer_exempt"],
]);

/** One tax of a line as Stripe breaks it down. */
interface Part {
  amount: number;
  reason: TaxabilityReason;
  ratePcm: number;
  tax: string;
  country: string;
  state: string | null;
  place: string;
}

/** "9.875" (percent) → 9875 pcm; digits past the third decimal round half away from zero. */
export function pcmOfPercentage(percentage: string): number {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(percentage.trim());
  if (!match) throw new TaxError("provider_error", `Stripe Tax answered a rate we cannot read: "${percentage}".`);
  const fraction = match[2] ?? "";
  const scale = 10n ** BigInt(Math.max(fraction.length - 3, 0));
  return Number(roundHalfAwayFromZero(BigInt(match[1] + fraction.padEnd(3, "0")), scale));
}

/** "vat" → "VAT", "sales_tax" → "Sales tax". */
function taxName(type: string | null): string {
  if (!type) return "Tax";
  return type.includes("_") ? type[0].toUpperCase() + type.slice(1).replace(/_/g, " ") : type.toUpperCase();
}

const regions = new Intl.DisplayNames(["en"], { type: "region" });

function placeOf(country: string, state: string | null): string {
  const name = /^[A-Z]{2}$/.test(country) ? (regions.of(country) ?? country) : country;
  return state ? `${state}, ${name}` : name;
}

function lineParts(breakdown: Stripe.Tax.CalculationLineItem.TaxBreakdown[]): Part[] {
  return breakdown.map((b) => ({
    amount: b.amount,
    reason: REASONS.get(b.taxability_reason) ?? "not_supported",
    ratePcm: b.tax_rate_details ? pcmOfPercentage(b.tax_rate_details.percentage_decimal) : 0,
    tax: b.tax_rate_details?.display_name ?? "Tax",
    country: b.jurisdiction.country,
    state: b.jurisdiction.state,
    place: b.jurisdiction.display_name,
  }));
}

/** The calculation's breakdown, which names no line: a single line's own when Stripe answers none for it. */
function orderParts(breakdown: Stripe.Tax.Calculation.TaxBreakdown[]): Part[] {
  return breakdown.map((b) => {
    const { country, state, percentage_decimal, tax_type } = b.tax_rate_details;
    return {
      amount: b.amount,
      reason: REASONS.get(b.taxability_reason) ?? "not_supported",
      ratePcm: pcmOfPercentage(percentage_decimal),
      tax: taxName(tax_type),
      country: country ?? "",
      state,
      place: placeOf(country ?? "", state),
    };
  });
}

function jurisdictionOf(charged: Part[], reason: TaxabilityReason, parts: Part[]): TaxJurisdiction | null {
  const last = charged.at(-1);
  if (last) {
    const names = charged.map((p) => `${p.tax} ${percent(p.ratePcm)}`).join(" + ");
    return { country: last.country, state: last.state, display_name: `${names} (${last.place})` };
  }
  const reverse = reason === "reverse_charge" ? parts.find((p) => p.reason === "reverse_charge") : undefined;
  return reverse ? { country: reverse.country, state: reverse.state, display_name: "Reverse charge" } : null;
}

function lineOf(item: Stripe.Tax.CalculationLineItem, input: TaxLineInput, parts: Part[]): TaxLine {
  const inclusive = item.tax_behavior === "inclusive";
  const tax = item.amount_tax;
  const charged = parts.filter((p) => p.reason === "standard_rated" && p.ratePcm > 0);
  const rate = charged.reduce((sum, p) => sum + p.ratePcm, 0);
  const untaxed = parts.find((p) => p.reason !== "standard_rated") ?? parts.at(0);
  const reason: TaxabilityReason = charged.length > 0 || tax !== 0 ? "standard_rated" : (untaxed?.reason ?? "not_collecting");
  return {
    reference: input.reference ?? null,
    category: input.category ?? "digital_service",
    amount: item.amount,
    net_amount: inclusive ? item.amount - tax : item.amount,
    tax_amount: tax,
    total_amount: inclusive ? item.amount : item.amount + tax,
    rate_pcm: rate,
    basis_points: basisPoints(rate),
    taxability_reason: reason,
    jurisdiction: jurisdictionOf(charged, reason, parts),
    components: charged.map((p) => ({
      tax: p.tax,
      rate_pcm: p.ratePcm,
      basis_points: basisPoints(p.ratePcm),
      amount: p.amount,
      jurisdiction: { country: p.country, state: p.state, display_name: `${p.tax} ${percent(p.ratePcm)} (${p.place})` },
    })),
  };
}

/** Stripe wants a reference per line, unique in the calculation: the caller's, numbered when it repeats. */
function lineReferences(lines: TaxLineInput[]): string[] {
  const used = new Set<string>();
  return lines.map((l, i) => {
    const base = l.reference ?? `line-${i + 1}`;
    let reference = base;
    for (let n = 2; used.has(reference); n++) reference = `${base}#${n}`;
    used.add(reference);
    return reference;
  });
}

/**
 * The buyer for Stripe: the billing address, the tax id when it passes our check (Stripe then
 * decides the reverse charge itself, as its docs prefer over an override), and customer_exempt
 * for an exempt buyer.
 */
function customerDetails(buyer: TaxBuyer, country: string): Stripe.Tax.CalculationCreateParams.CustomerDetails {
  const address: Stripe.Tax.CalculationCreateParams.CustomerDetails.Address = { country };
  if (buyer.state) address.state = buyer.state;
  if (buyer.postal_code) address.postal_code = buyer.postal_code;
  const details: Stripe.Tax.CalculationCreateParams.CustomerDetails = { address, address_source: "billing" };
  const taxId = buyerTaxId(buyer, country);
  if (buyer.business && taxId?.valid && taxId.checked) details.tax_ids = [{ type: taxId.type, value: taxId.value }];
  if (buyer.exempt) details.taxability_override = "customer_exempt";
  return details;
}

/** A Stripe error as a TaxError: the buyer's address or tax id, Stripe not answering (retryable), or anything else. */
export function taxErrorOf(err: unknown): unknown {
  if (!(err instanceof Stripe.errors.StripeError)) return err;
  const unavailable =
    err instanceof Stripe.errors.StripeConnectionError || err instanceof Stripe.errors.StripeRateLimitError || (err.statusCode ?? 0) >= 500;
  if (unavailable) return new TaxError("provider_unavailable", `Stripe Tax did not answer; try again. (${err.message})`);
  if (err instanceof Stripe.errors.StripeInvalidRequestError) {
    if (err.code === "customer_tax_location_invalid" || err.param?.startsWith("customer_details[address]")) {
      return new TaxError(
        "location_invalid",
        `Stripe Tax cannot place this address: check its country, state and postal code. (${err.message})`,
      );
    }
    if (err.code === "tax_id_invalid" || err.param?.startsWith("customer_details[tax_ids]")) {
      return new TaxError("invalid_input", `Stripe Tax refused the tax id. (${err.message})`);
    }
  }
  return new TaxError("provider_error", `Stripe Tax refused the request. (${err.message})`);
}

async function stripeCall<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw taxErrorOf(err);
  }
}

function connection(apiBase: string | undefined): Pick<Stripe.StripeConfig, "host" | "port" | "protocol"> {
  if (!apiBase) return {};
  const url = new URL(apiBase);
  const protocol = url.protocol === "http:" ? "http" : "https";
  return { host: url.hostname, port: url.port ? Number(url.port) : protocol === "http" ? 80 : 443, protocol };
}

export class StripeTaxProvider implements TaxProvider {
  readonly name = "stripe" as const;
  readonly client: Stripe;

  constructor(config: StripeTaxConfig) {
    this.client = new Stripe(config.secretKey, { maxNetworkRetries: 2, ...connection(config.apiBase) });
  }

  async calculate(input: TaxCalculationInput): Promise<TaxCalculation> {
    if (input.settings.provider !== "stripe")
      throw new TaxError("wrong_provider", `Stripe Tax does not compute for the provider ${input.settings.provider}.`);
    const { country, currency } = checkInput(input);
    if (input.lines.length === 0) throw new TaxError("invalid_input", "Stripe Tax needs at least one line to tax.");
    const references = lineReferences(input.lines);
    const tax_behavior = input.settings.prices_include_tax ? ("inclusive" as const) : ("exclusive" as const);
    const calculation = await stripeCall(() =>
      this.client.tax.calculations.create({
        currency,
        line_items: input.lines.map((l, i) => ({
          amount: l.amount,
          reference: references[i],
          tax_behavior,
          tax_code: stripeTaxCode(l.category ?? "digital_service", input.buyer.business),
        })),
        customer_details: customerDetails(input.buyer, country),
        expand: ["line_items.data.tax_breakdown"],
      }),
    );
    const items = await this.calculationLines(calculation);
    if (items.length !== input.lines.length) {
      throw new TaxError("provider_error", `Stripe Tax answered ${items.length} line(s) for the ${input.lines.length} sent.`);
    }
    const single = items.length === 1 ? orderParts(calculation.tax_breakdown) : [];
    const lines = items.map((item, i) => lineOf(item, input.lines[i], item.tax_breakdown?.length ? lineParts(item.tax_breakdown) : single));
    return {
      provider: "stripe",
      processor_id: calculation.id,
      currency: calculation.currency,
      date: utcDay(new Date(calculation.tax_date * 1000)),
      prices_include_tax: input.settings.prices_include_tax,
      ...orderOf(lines),
    };
  }

  async record(calculation: TaxCalculation, reference: string): Promise<TaxTransaction> {
    const id = calculation.provider === "stripe" ? calculation.processor_id : null;
    if (id === null) throw new TaxError("wrong_provider", "Only a Stripe Tax calculation can be recorded with Stripe Tax.");
    const transaction = await stripeCall(() =>
      this.client.tax.transactions.createFromCalculation({ calculation: id, reference }, { idempotencyKey: `tax-record:${reference}` }),
    );
    return { provider: "stripe", id: transaction.id, reference: transaction.reference, calculation };
  }

  /**
   * A whole reversal is Stripe's mode "full". A refund is mode "partial" with, per line, the share
   * `reversal` computes (the tax in proportion), so that Stripe reports what we store.
   */
  async revert(transaction: TaxTransaction, reference: string, refund?: TaxRefund): Promise<TaxReversal> {
    if (transaction.provider !== "stripe")
      throw new TaxError("wrong_provider", "Only a Stripe Tax transaction can be reversed with Stripe Tax.");
    const ours = reversal(transaction, reference, refund);
    let params: Stripe.Tax.TransactionCreateReversalParams = { original_transaction: transaction.id, reference, mode: "full" };
    if (refund !== undefined) {
      const originals = await stripeCall(() =>
        this.client.tax.transactions.listLineItems(transaction.id, { limit: 100 }).autoPagingToArray({ limit: 1000 }),
      );
      if (originals.length !== ours.lines.length) {
        throw new TaxError(
          "provider_error",
          `Stripe Tax's transaction ${transaction.id} has ${originals.length} line(s), ours ${ours.lines.length}.`,
        );
      }
      const line_items = ours.lines.flatMap((l, i) => {
        if (l.total_amount === 0 && l.tax_amount === 0) return [];
        const original = originals[i];
        const amount = original.tax_behavior === "inclusive" ? l.total_amount : l.total_amount - l.tax_amount;
        return [{ original_line_item: original.id, reference: original.reference, amount: -amount, amount_tax: -l.tax_amount }];
      });
      // A refund that hands nothing back has nothing to report.
      if (line_items.length === 0) return ours;
      params = { original_transaction: transaction.id, reference, mode: "partial", line_items };
    }
    const reversed = await stripeCall(() =>
      this.client.tax.transactions.createReversal(params, { idempotencyKey: `tax-revert:${reference}` }),
    );
    ours.id = reversed.id;
    return ours;
  }

  /** The calculation's lines: the page Stripe answers with it, then the rest when it has more. */
  private async calculationLines(calculation: Stripe.Tax.Calculation): Promise<Stripe.Tax.CalculationLineItem[]> {
    const first = calculation.line_items;
    const id = calculation.id;
    if (!first) throw new TaxError("provider_error", "Stripe Tax answered a calculation without its lines.");
    const last = first.data.at(-1);
    if (!first.has_more || last === undefined || id === null) return first.data;
    const rest = await stripeCall(() =>
      this.client.tax.calculations
        .listLineItems(id, { starting_after: last.id, limit: 100, expand: ["data.tax_breakdown"] })
        .autoPagingToArray({ limit: 1000 }),
    );
    return [...first.data, ...rest];
  }
}
