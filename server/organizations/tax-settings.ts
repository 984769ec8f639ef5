// An organization's tax settings (`tax_settings`): the defaults a row written before
// them reads as, and the checks of a change, each refused with a 422 naming its field.
import type { components } from "../../generated/types.js";
import { isCountry } from "../customers/address.js";
import { invalid } from "../kit/errors.js";
import type { TaxSettings as CalculatorSettings } from "../tax/models.js";
import { stripeTaxConfig } from "../tax/providers.js";
import { canadianProvince } from "../tax/rates.js";

export type TaxSettings = components["schemas"]["OrganizationTaxSettings"];
type TaxRegistration = components["schemas"]["OrganizationTaxRegistration"];
type TaxSettingsUpdate = components["schemas"]["OrganizationTaxSettingsUpdate"];
type Loc = (string | number)[];

/** The states, district and territories of the US, by their USPS codes. */
const US_STATES = new Set(
  (
    "AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY " +
    "AS GU MP PR VI"
  ).split(" "),
);

/** Nothing collected: every amount carries 0 tax (also the column's default, migration 0110). */
export const DEFAULT_TAX_SETTINGS: TaxSettings = { provider: "none", origin_country: null, prices_include_tax: false, registrations: [] };

/** The stored settings with the defaults of what the row does not hold. */
export function taxSettingsOf(stored: Partial<TaxSettings> | null | undefined): TaxSettings {
  return Object.assign({}, DEFAULT_TAX_SETTINGS, stored);
}

function checkCountry(value: string, loc: Loc): string {
  const country = value.trim().toUpperCase();
  if (!isCountry(country)) throw invalid(loc, "Input should be a valid ISO 3166-1 alpha-2 country code", "enum", value);
  return country;
}

/** A registration: a country (a US state or Canadian province of it), or the EU's One-Stop Shop. */
function checkRegistration(r: TaxRegistration, loc: Loc): TaxRegistration {
  const scheme = r.scheme ?? null;
  const state = r.state === undefined || r.state === null || r.state.trim() === "" ? null : r.state.trim().toUpperCase();
  if (r.country.trim().toUpperCase() === "EU") {
    if (scheme !== "oss")
      throw invalid(
        [...loc, "scheme"],
        "A registration in the EU as a whole is the One-Stop Shop: its scheme is `oss`.",
        "value_error",
        scheme,
      );
    if (state !== null)
      throw invalid([...loc, "state"], "A state is only given for a registration in the US or Canada.", "value_error", r.state);
    return { country: "EU", scheme: "oss" };
  }
  const country = checkCountry(r.country, [...loc, "country"]);
  if (scheme !== null) throw invalid([...loc, "scheme"], "The scheme `oss` is only given with the country `EU`.", "value_error", scheme);
  if (state === null) return { country };
  if (country === "CA") {
    if (canadianProvince(state, null) === undefined)
      throw invalid([...loc, "state"], "Input should be a Canadian province or territory code, e.g. QC.", "value_error", r.state);
  } else if (country === "US") {
    if (!US_STATES.has(state)) throw invalid([...loc, "state"], "Input should be a US state code, e.g. CA.", "value_error", r.state);
  } else {
    throw invalid([...loc, "state"], "A state is only given for a registration in the US or Canada.", "value_error", r.state);
  }
  return { country, state };
}

/** The settings after `input` (the fields given replace the stored ones), checked as a whole. */
export function updatedTaxSettings(stored: TaxSettings, input: TaxSettingsUpdate): TaxSettings {
  const loc: Loc = ["body", "tax_settings"];
  const next: TaxSettings = { ...stored };
  if (input.provider !== undefined) next.provider = input.provider;
  if (input.origin_country !== undefined) {
    next.origin_country = input.origin_country === null ? null : checkCountry(input.origin_country, [...loc, "origin_country"]);
  }
  if (input.prices_include_tax !== undefined) next.prices_include_tax = input.prices_include_tax;
  if (input.registrations !== undefined) {
    const seen = new Set<string>();
    next.registrations = input.registrations.map((r, i) => {
      const checked = checkRegistration(r, [...loc, "registrations", i]);
      const key = `${checked.country}/${checked.state ?? ""}`;
      if (seen.has(key)) throw invalid([...loc, "registrations", i], "This registration is already in the list.", "value_error", r);
      seen.add(key);
      return checked;
    });
  }
  if (next.provider === "stripe" && stripeTaxConfig() === null) {
    throw invalid(
      [...loc, "provider"],
      "Stripe Tax needs STRIPE_SECRET_KEY on this server; use `builtin` or `none`.",
      "value_error",
      next.provider,
    );
  }
  if (next.provider !== "none" && next.origin_country === null) {
    throw invalid([...loc, "origin_country"], "Collecting tax needs the country the organization sells from.", "missing");
  }
  return next;
}

/** The settings its provider (built-in or Stripe Tax) computes with, or null when the organization collects no tax. */
export function providerTaxSettings(settings: TaxSettings): CalculatorSettings | null {
  if (settings.provider === "stripe" && settings.origin_country !== null) {
    const { prices_include_tax, registrations } = settings;
    return { provider: "stripe", origin_country: settings.origin_country, prices_include_tax, registrations };
  }
  return builtinTaxSettings(settings);
}

/** The settings the built-in calculator takes, or null when the organization does not compute tax with it. */
export function builtinTaxSettings(settings: TaxSettings): CalculatorSettings | null {
  if (settings.provider !== "builtin" || settings.origin_country === null) return null;
  const { prices_include_tax, registrations } = settings;
  return { provider: "builtin", origin_country: settings.origin_country, prices_include_tax, registrations };
}
