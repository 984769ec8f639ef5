// The rate tables as one lookup: a country's entry, a Canadian province (from its code or its
// postal code), and the value of a dated history on a given day.
import { APAC_RATES } from "./rates/apac.js";
import { CANADA_GST, CANADA_PROVINCES } from "./rates/canada.js";
import { EU_RATES } from "./rates/eu.js";
import { EUROPE_RATES } from "./rates/europe.js";
import type { CountryRates, Dated, IsoDate, ProvinceRates } from "./rates/types.js";

export type { CountryRates, Dated, IsoDate, ProvinceRates } from "./rates/types.js";
export { COVERAGE_START } from "./rates/types.js";

export const ALL_COUNTRY_RATES: readonly CountryRates[] = [...EU_RATES, ...EUROPE_RATES, CANADA_GST, ...APAC_RATES];
export const ALL_PROVINCE_RATES: readonly ProvinceRates[] = CANADA_PROVINCES;

const byCountry = new Map(ALL_COUNTRY_RATES.map((c) => [c.country, c]));
const euCountries = new Set(EU_RATES.map((c) => c.country));

export function isEuCountry(country: string): boolean {
  return euCountries.has(country);
}

export function countryRates(country: string): CountryRates | undefined {
  return byCountry.get(country);
}

/** The province from its code, else from the first letter of a Canadian postal code ("K1A 0B1"). */
export function canadianProvince(state: string | null | undefined, postalCode: string | null | undefined): ProvinceRates | undefined {
  const code = state?.trim().toUpperCase().replace(/^CA-/, "");
  if (code) return CANADA_PROVINCES.find((p) => p.province === code);
  const letter = postalCode?.trim().toUpperCase().charAt(0);
  // X is shared by the Northwest Territories and Nunavut, both GST only: the first one answers.
  return letter ? CANADA_PROVINCES.find((p) => p.postal.includes(letter)) : undefined;
}

/** The value in force on `day`, or undefined before the history starts. */
export function onDay<T>(history: readonly Dated<T>[], day: IsoDate): T | undefined {
  for (const period of history) {
    if (period.from <= day && (period.to === undefined || day <= period.to)) return period.value;
  }
  return undefined;
}

/** A moment's calendar day in UTC, the day the tables are read on. */
export function utcDay(date: Date): IsoDate {
  return date.toISOString().slice(0, 10);
}
