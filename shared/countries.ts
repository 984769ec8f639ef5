// The assigned ISO 3166-1 alpha-2 country codes, for the server's address check, the portal's
// country picker and the console's tax settings, from the i18n-iso-countries package (a test holds
// them equal to the contract's CountryAlpha2). Never derived from the runtime's region names: ICU
// maps withdrawn codes to current countries (DD to Germany, YU to Serbia), each browser its own way.
import isoCountries from "i18n-iso-countries";

/** Kosovo's XK is a user-assigned code, not ISO 3166-1's, and Polar's CountryAlpha2 lacks it. */
const CODES = Object.keys(isoCountries.getAlpha2Codes())
  .filter((code) => code !== "XK")
  .sort();

const ASSIGNED = new Set(CODES);

/** Whether `code` (upper case) is an assigned ISO 3166-1 alpha-2 country code. */
export function isCountryCode(code: string): boolean {
  return ASSIGNED.has(code);
}

/** Every assigned ISO 3166-1 alpha-2 country code, in alphabetical order. */
export function countryCodes(): string[] {
  return CODES.slice();
}
