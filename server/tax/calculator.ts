// The built-in tax calculator: which tax applies to a buyer under the seller's registrations (the
// EU's rules for digital services, and elsewhere the rate of a country where the seller is
// registered), then each line's tax, rounded half away from zero to the minor unit once per line.
// Prices that include tax keep their total; the tax is carved out of them.
import { TaxError } from "./errors.js";
import type {
  TaxabilityReason,
  TaxBuyer,
  TaxCalculation,
  TaxCalculationInput,
  TaxCategory,
  TaxComponent,
  TaxJurisdiction,
  TaxLine,
  TaxSettings,
} from "./models.js";
import { canadianProvince, COVERAGE_START, countryRates, isEuCountry, onDay, utcDay, type CountryRates } from "./rates.js";
import { checkTaxId, type TaxIdCheck } from "./tax-ids.js";

const PCM = 100_000n;

/** numerator / denominator (denominator > 0) rounded to an integer, halves away from zero. */
export function roundHalfAwayFromZero(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  const rounded = (2n * magnitude + denominator) / (2n * denominator);
  return negative ? -rounded : rounded;
}

/** The tax of one line at `ratePcm`: on top of the amount, or carved out of it when it includes tax. */
export function lineTax(amount: number, ratePcm: number, inclusive: boolean): number {
  const rate = BigInt(ratePcm);
  return Number(roundHalfAwayFromZero(BigInt(amount) * rate, inclusive ? PCM + rate : PCM));
}

/** 20000 → "20%", 5500 → "5.5%", 9975 → "9.975%". */
export function percent(ratePcm: number): string {
  const whole = Math.trunc(ratePcm / 1000);
  const fraction = String(ratePcm % 1000)
    .padStart(3, "0")
    .replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}%` : `${whole}%`;
}

/** pcm to Polar's basis points, halves away from zero. */
export function basisPoints(ratePcm: number): number {
  return Number(roundHalfAwayFromZero(BigInt(ratePcm), 10n));
}

interface Tax {
  tax: string;
  rate: number;
  country: string;
  state: string | null;
  place: string;
}

interface Decision {
  reason: TaxabilityReason;
  taxes: Tax[];
  jurisdiction: TaxJurisdiction | null;
}

interface Order {
  settings: TaxSettings;
  buyer: TaxBuyer;
  country: string;
  taxId: TaxIdCheck | null;
  day: string;
}

const none = (reason: TaxabilityReason): Decision => ({ reason, taxes: [], jurisdiction: null });

function registered(settings: TaxSettings, country: string, state: string | null = null): boolean {
  return settings.registrations.some(
    (r) => r.country.toUpperCase() === country && (state === null ? !r.state : r.state?.toUpperCase() === state),
  );
}

/** A state's code without its country's prefix ("US-NY" and "ny" are "NY"); null when not given. */
function subdivision(country: string, state: string | null | undefined): string | null {
  const code = state?.trim().toUpperCase() ?? "";
  const bare = code.startsWith(`${country}-`) ? code.slice(country.length + 1) : code;
  return bare === "" ? null : bare;
}

function hasOss(settings: TaxSettings): boolean {
  return settings.registrations.some((r) => r.country.toUpperCase() === "EU" && r.scheme?.toLowerCase() === "oss");
}

/** Not collected: a buyer who gave a valid tax id is not subject to it, anyone else is not collected from. */
function notCollected(order: Order): Decision {
  return none(order.taxId?.valid ? "not_subject_to_tax" : "not_collecting");
}

function rateOf(entry: CountryRates, category: TaxCategory, day: string): number {
  const standard = onDay(entry.standard, day);
  if (standard === undefined) {
    throw new TaxError("no_rate", `No ${entry.tax} rate for ${entry.name} on ${day}: the tables start on ${COVERAGE_START}.`);
  }
  return category === "ebook" && entry.ebook ? (onDay(entry.ebook, day) ?? standard) : standard;
}

function display(taxes: Tax[]): string {
  return `${taxes.map((t) => `${t.tax} ${percent(t.rate)}`).join(" + ")} (${taxes[taxes.length - 1].place})`;
}

function taxed(taxes: Tax[]): Decision {
  const last = taxes[taxes.length - 1];
  const total = taxes.reduce((sum, t) => sum + t.rate, 0);
  return {
    reason: total === 0 ? "product_exempt" : "standard_rated",
    taxes,
    jurisdiction: { country: last.country, state: last.state, display_name: display(taxes) },
  };
}

function countryTax(country: string, category: TaxCategory, day: string): Decision {
  const entry = countryRates(country);
  if (entry === undefined) throw new TaxError("no_rate", `No rates for ${country}.`);
  return taxed([{ tax: entry.tax, rate: rateOf(entry, category, day), country, state: null, place: entry.name }]);
}

/**
 * The EU's rules for digital services: a business with a valid VAT number in another member
 * state than the seller's reverse-charges; a buyer in the seller's own country pays its rate; a
 * consumer elsewhere pays their country's rate under OSS (or a registration there), else the
 * origin's rate; where the seller is not registered, nothing is collected.
 */
function euTax(order: Order, category: TaxCategory): Decision {
  const { settings, country, taxId } = order;
  const origin = settings.origin_country.toUpperCase();
  const originRegistered = isEuCountry(origin) && registered(settings, origin);
  const oss = hasOss(settings);
  const validVat =
    order.buyer.business && taxId !== null && taxId.valid && taxId.checked && taxId.type === "eu_vat" && taxId.country === country;
  if (validVat && country !== origin) {
    if (!oss && !originRegistered && !registered(settings, country)) return notCollected(order);
    return { reason: "reverse_charge", taxes: [], jurisdiction: { country, state: null, display_name: "Reverse charge" } };
  }
  if (registered(settings, country) || (country !== origin && oss)) return countryTax(country, category, order.day);
  if (country !== origin && originRegistered) return countryTax(origin, category, order.day);
  return notCollected(order);
}

/** GST or HST under a Canadian registration, plus the province's PST or QST under a registration there. */
function canadaTax(order: Order): Decision {
  const { settings, buyer, day } = order;
  const federal = registered(settings, "CA");
  const anyProvincial = settings.registrations.some((r) => r.country.toUpperCase() === "CA" && r.state);
  if (!federal && !anyProvincial) return notCollected(order);
  const province = canadianProvince(buyer.state, buyer.postal_code);
  if (province === undefined) {
    throw new TaxError("location_incomplete", "A Canadian buyer's province (or postal code) is needed to compute the tax.");
  }
  const rate = onDay(province.rate, day);
  const gst = countryRates("CA");
  if (rate === undefined || gst === undefined) throw new TaxError("no_rate", `No rate for ${province.name} on ${day}.`);
  const taxes: Tax[] = [];
  if (federal && province.kind === "HST") taxes.push({ tax: "HST", rate, country: "CA", state: province.province, place: province.name });
  else if (federal) taxes.push({ tax: gst.tax, rate: rateOf(gst, "general", day), country: "CA", state: null, place: gst.name });
  if (province.kind !== "HST" && rate > 0 && registered(settings, "CA", province.province)) {
    taxes.push({ tax: province.kind, rate, country: "CA", state: province.province, place: province.name });
  }
  return taxes.length > 0 ? taxed(taxes) : notCollected(order);
}

function decide(order: Order, category: TaxCategory): Decision {
  // The provider "none" is Borealis without tax: nothing is collected anywhere.
  if (order.settings.provider === "none") return none("not_collecting");
  if (order.buyer.exempt) return none("customer_exempt");
  const { settings, country } = order;
  if (isEuCountry(country)) return euTax(order, category);
  if (country === "CA") return canadaTax(order);
  if (countryRates(country) !== undefined) {
    return registered(settings, country) ? countryTax(country, category, order.day) : notCollected(order);
  }
  // Registered where the tables have no rates (US sales tax): the built-in calculator cannot say.
  // A registration in another state than the buyer's collects nothing there.
  const state = subdivision(country, order.buyer.state);
  const here = settings.registrations.some(
    (r) => r.country.toUpperCase() === country && (!r.state || state === null || subdivision(country, r.state) === state),
  );
  return here ? none("not_supported") : notCollected(order);
}

/** Splits a line's tax between its taxes in proportion to their rates; the last takes the remainder. */
function components(decision: Decision, tax: number): TaxComponent[] {
  const total = decision.taxes.reduce((sum, t) => sum + t.rate, 0);
  let left = tax;
  return decision.taxes.map((t, i) => {
    const amount =
      i === decision.taxes.length - 1 || total === 0 ? left : Number(roundHalfAwayFromZero(BigInt(tax) * BigInt(t.rate), BigInt(total)));
    left -= amount;
    return {
      tax: t.tax,
      rate_pcm: t.rate,
      basis_points: basisPoints(t.rate),
      amount,
      jurisdiction: { country: t.country, state: t.state, display_name: display([t]) },
    };
  });
}

function line(order: Order, amount: number, category: TaxCategory, reference: string | null): TaxLine {
  const decision = decide(order, category);
  const rate = decision.taxes.reduce((sum, t) => sum + t.rate, 0);
  const inclusive = order.settings.prices_include_tax;
  const tax = lineTax(amount, rate, inclusive);
  return {
    reference,
    category,
    amount,
    net_amount: inclusive ? amount - tax : amount,
    tax_amount: tax,
    total_amount: inclusive ? amount : amount + tax,
    rate_pcm: rate,
    basis_points: basisPoints(rate),
    taxability_reason: decision.reason,
    jurisdiction: decision.jurisdiction,
    components: components(decision, tax),
  };
}

/** The buyer's country, the currency and the day, checked (any provider's first step). */
export function checkInput(input: TaxCalculationInput): { country: string; currency: string; day: string } {
  const country = input.buyer.country.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(country)) throw new TaxError("invalid_input", "The buyer's country must be an ISO 3166-1 alpha-2 code.");
  if (!/^[a-zA-Z]{3}$/.test(input.currency)) throw new TaxError("invalid_input", "The currency must be a three-letter ISO 4217 code.");
  if (Number.isNaN(input.date.getTime())) throw new TaxError("invalid_input", "The date is not a valid date.");
  for (const l of input.lines) {
    if (!Number.isSafeInteger(l.amount)) throw new TaxError("invalid_input", "A line's amount must be an integer number of minor units.");
  }
  return { country, currency: input.currency.toLowerCase(), day: utcDay(input.date) };
}

/** The buyer's tax id, checked now when given as [value, type]. */
export function buyerTaxId(buyer: TaxBuyer, country: string): TaxIdCheck | null {
  const raw = buyer.tax_id ?? null;
  return raw === null ? null : Array.isArray(raw) ? checkTaxId(raw[0], raw[1], country) : raw;
}

/** The tax of every line of an order, and the totals. */
export function calculate(input: TaxCalculationInput): TaxCalculation {
  const { settings, buyer } = input;
  if (settings.provider === "stripe")
    throw new TaxError("wrong_provider", "The built-in calculator does not compute for the Stripe Tax provider.");
  const { country, currency, day } = checkInput(input);
  const order: Order = { settings, buyer, country, taxId: buyerTaxId(buyer, country), day };
  const lines = input.lines.map((l) => line(order, l.amount, l.category ?? "digital_service", l.reference ?? null));
  return {
    provider: settings.provider,
    processor_id: null,
    currency,
    date: day,
    prices_include_tax: settings.prices_include_tax,
    ...orderOf(lines),
  };
}

/** An order's totals, reason (standard_rated when any line is taxed, else the first line's) and jurisdiction. */
export function orderOf(
  lines: TaxLine[],
): Pick<TaxCalculation, "lines" | "net_amount" | "tax_amount" | "total_amount" | "taxability_reason" | "jurisdiction"> {
  const sum = (pick: (l: TaxLine) => number) => lines.reduce((s, l) => s + pick(l), 0);
  const taxedLine = lines.find((l) => l.tax_amount !== 0) ?? lines.find((l) => l.jurisdiction !== null);
  return {
    lines,
    net_amount: sum((l) => l.net_amount),
    tax_amount: sum((l) => l.tax_amount),
    total_amount: sum((l) => l.total_amount),
    taxability_reason: lines.some((l) => l.tax_amount !== 0) ? "standard_rated" : (lines[0]?.taxability_reason ?? null),
    jurisdiction: taxedLine?.jurisdiction ?? null,
  };
}
