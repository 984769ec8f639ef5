// Billing addresses: an ISO 3166-1 alpha-2 country is required (an assigned code, any case given,
// the contract's CountryAlpha2 once stored); the other lines are optional text.
import type { components } from "../../generated/types.js";
import { isCountryCode } from "../../shared/countries.js";
import { invalid } from "../kit/errors.js";

export type Country = components["schemas"]["CountryAlpha2"];

export interface Address {
  line1: string | null;
  line2: string | null;
  postal_code: string | null;
  city: string | null;
  state: string | null;
  country: Country;
}

/** An assigned code (shared/countries.ts), so the contract's CountryAlpha2. */
export function isCountry(code: string): code is Country {
  return isCountryCode(code);
}

const LINES = ["line1", "line2", "postal_code", "city", "state"] as const;
// The longest postal codes in use are 10 characters (a US ZIP+4 "12345-6789", Iran's ten digits);
// 16 leaves room for spacing and country prefixes ("CH-8001", "KY1-1100") while keeping
// free text (a street line pasted in the wrong field) out of invoices and tax lookups.
const MAX_POSTAL_CODE = 16;

export function checkAddress(input: unknown, loc: (string | number)[] = ["body", "billing_address"]): Address {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw invalid(loc, "Input should be a valid address", "model_type");
  }
  const a = input as Record<string, unknown>;
  if (typeof a.country !== "string" || a.country.trim() === "") throw invalid([...loc, "country"], "Field required", "missing");
  const country = a.country.trim().toUpperCase();
  if (!isCountry(country)) throw invalid([...loc, "country"], "Input should be a valid ISO 3166-1 alpha-2 country code", "enum", a.country);
  const out: Address = { country, line1: null, line2: null, postal_code: null, city: null, state: null };
  for (const key of LINES) {
    const v = a[key];
    if (v !== undefined && v !== null && typeof v !== "string")
      throw invalid([...loc, key], "Input should be a valid string", "string_type");
    const trimmed = typeof v === "string" ? v.trim() : "";
    out[key] = trimmed === "" ? null : trimmed;
  }
  if (out.postal_code && out.postal_code.length > MAX_POSTAL_CODE) {
    throw invalid([...loc, "postal_code"], `String should have at most ${MAX_POSTAL_CODE} characters`, "string_too_long", out.postal_code);
  }
  return out;
}

/** The address lines as export columns (Polar's names), the country left to each export. */
export const ADDRESS_LINE_COLUMNS = [
  "Billing Address Line 1",
  "Billing Address Line 2",
  "Billing Address City",
  "Billing Address State",
  "Billing Address Zip",
] as const;

export function addressLineCells(address: Address | null): (string | null)[] {
  return address ? [address.line1, address.line2, address.city, address.state, address.postal_code] : [null, null, null, null, null];
}
