// Addresses and countries at the UI edge: a country code by its name in the reader's language,
// an address on one line.
import type { AddressInput } from "../api";

let names: Intl.DisplayNames | undefined;

/** "FR" → "France"; the code itself where the runtime has no name for it. */
export function countryName(code: string | null | undefined): string {
  if (!code) return "—";
  names ??= new Intl.DisplayNames(undefined, { type: "region" });
  try {
    return names.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

/** An address's lines on one line, its country by name ("1 Rue de Rivoli, 75001 Paris, France"). */
export function addressText(a: AddressInput | null | undefined): string {
  if (!a) return "—";
  const place = [a.postal_code, a.city].filter(Boolean).join(" ");
  return [a.line1, a.line2, place, a.state, countryName(a.country)].filter(Boolean).join(", ");
}

/** A tax id with its type: "DE136695976 (EU VAT)". */
export function taxIdText(taxId: readonly (string | null | undefined)[] | null | undefined): string {
  if (!taxId?.[0]) return "—";
  return taxId[1] ? `${taxId[0]} (${taxId[1].replace(/_/g, " ").toUpperCase()})` : taxId[0];
}
