// The seller as its invoices name it (a Borealis extension): a legal name, an address and a tax id,
// each checked as a customer's are, and refused with a 422 naming the field.
import type { components } from "../../generated/types.js";
import { checkAddress, type Address } from "../customers/address.js";
import { checkTaxId, type TaxId } from "../customers/tax-id.js";
import { invalid } from "../kit/errors.js";

export interface SellerDetails {
  name: string | null;
  address: Address | null;
  tax_id: TaxId | null;
}
type SellerDetailsUpdate = components["schemas"]["OrganizationSellerDetailsUpdate"];

const LOC = ["body", "seller_details"];

/** The details `input` gives, replacing the stored ones whole. */
export function checkSellerDetails(input: SellerDetailsUpdate): SellerDetails {
  const name = input.name === undefined || input.name === null || input.name.trim() === "" ? null : input.name.trim();
  if (name !== null && name.length > 200)
    throw invalid([...LOC, "name"], "String should have at most 200 characters", "string_too_long", input.name);
  const address = input.address === undefined || input.address === null ? null : checkAddress(input.address, [...LOC, "address"]);
  const tax_id =
    input.tax_id === undefined || input.tax_id === null ? null : checkTaxId(input.tax_id, address?.country ?? null, [...LOC, "tax_id"]);
  return { name, address, tax_id };
}
