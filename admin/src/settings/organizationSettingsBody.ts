// The organization settings form's values as the PATCH body: tax registrations and seller details.
import type { Organization } from "../api";

type TaxRegistration = Organization["tax_settings"]["registrations"][number];

/** The registrations as the API takes them: the EU is the One-Stop Shop, a state only in the US or Canada. */
function registrationsBody(rows: Partial<TaxRegistration>[] | undefined): TaxRegistration[] {
  return (rows ?? [])
    .filter((r) => r.country)
    .map((r) => {
      const country = String(r.country);
      if (country === "EU") return { country, scheme: "oss" };
      return (country === "US" || country === "CA") && r.state ? { country, state: r.state.trim().toUpperCase() } : { country };
    });
}

type SellerDetails = Organization["seller_details"];

/** The invoice details as the API takes them: the tax id's value alone (its type found from the address's country), null when empty. */
function sellerDetailsBody(s: Partial<NonNullable<SellerDetails>> | null | undefined): Record<string, unknown> | null {
  const a = s?.address;
  const address = a?.country
    ? {
        line1: a.line1 || null,
        line2: a.line2 || null,
        postal_code: a.postal_code || null,
        city: a.city || null,
        state: a.state || null,
        country: a.country,
      }
    : null;
  const taxId = (Array.isArray(s?.tax_id) ? s.tax_id[0] : null) || null;
  const name = s?.name || null;
  return name || address || taxId ? { name, address, tax_id: taxId } : null;
}

/** The body of PATCH /v1/organizations/{id} this page sends. */
export function settingsBody(v: Record<string, unknown>): Record<string, unknown> {
  const tax = v.tax_settings as Organization["tax_settings"];
  return {
    name: v.name,
    email: v.email || null,
    website: v.website || null,
    default_presentment_currency: v.default_presentment_currency,
    default_tax_behavior: v.default_tax_behavior,
    subscription_settings: v.subscription_settings,
    tax_settings: {
      provider: tax.provider,
      origin_country: tax.origin_country || null,
      prices_include_tax: !!tax.prices_include_tax,
      registrations: registrationsBody(tax.registrations),
    },
    seller_details: sellerDetailsBody(v.seller_details as SellerDetails),
  };
}
