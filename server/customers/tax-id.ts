// Tax ids at the API's edge: the pair [value, type] the API carries, or a bare value whose type is
// found from the billing country, each checked by server/tax/tax-ids.ts (format and checksum, with
// stdnum, or the form alone, with validator) and refused with a 422 naming the field.
import { invalid } from "../kit/errors.js";
import { checkTaxId as checkTaxIdOf, detectTaxId as detectTaxIdOf, isTaxIdType } from "../tax/tax-ids.js";

export type TaxId = [string, string];
type Loc = (string | number)[];

/** Validates the API's [value, type] pair; a missing EU country prefix comes from the billing country. */
export function checkTaxIdPair(input: unknown, country: string | null, loc: Loc = ["body", "tax_id"]): TaxId {
  if (!Array.isArray(input) || input.length !== 2 || typeof input[0] !== "string" || typeof input[1] !== "string") {
    throw invalid(loc, 'Tax ID must be a pair of the value and its type, e.g. ["DE123456789", "eu_vat"].', "value_error", input);
  }
  const [raw, type] = input as [string, string];
  if (!isTaxIdType(type)) throw invalid([...loc, 1], `Unknown tax ID type: ${type}.`, "enum", type);
  const checked = checkTaxIdOf(raw, type, country);
  if (!checked.valid) throw invalid(loc, `Invalid tax ID for the type ${type}: ${checked.reason ?? "it is not valid"}`, "value_error", raw);
  return [checked.value, type];
}

/**
 * A tax id as the API takes it: the [value, type] pair, or the value alone, whose type is found
 * from the billing country (which is then required).
 */
export function checkTaxId(input: unknown, country: string | null, loc: Loc = ["body", "tax_id"]): TaxId {
  if (typeof input !== "string") return checkTaxIdPair(input, country, loc);
  if (country === null) throw invalid(["body", "billing_address"], "Country is required to validate tax ID.", "missing");
  return detectTaxId(input, country, loc);
}

/** Finds the type of a bare tax id value from the billing country (the portal's single-string form). */
export function detectTaxId(raw: string, country: string, loc: Loc = ["body", "tax_id"]): TaxId {
  const checked = detectTaxIdOf(raw, country);
  if (checked === null) throw invalid(loc, "Invalid tax ID.", "value_error", raw);
  return [checked.value, checked.type];
}
