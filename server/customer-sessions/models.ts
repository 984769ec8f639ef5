// The CustomerSession wire shape. The plain token appears here once, at creation.
import type { components } from "../../generated/types.js";
import { toCustomer } from "../customers/models.js";
import type { CustomerRow } from "../customers/repository.js";
import { iso, isoRequired } from "../kit/time.js";
import { apiBaseUrl } from "../checkout-links/models.js";
import type { CustomerSessionRow } from "./repository.js";
import { setting } from "../config.js";

export type CustomerSessionOut = components["schemas"]["CustomerSession"];

/** Where the portal app is served: PUBLIC_PORTAL_URL, else the API's own address. */
export function portalBaseUrl(): string {
  return (setting("PUBLIC_PORTAL_URL") ?? apiBaseUrl()).replace(/\/+$/, "");
}

/** The customer portal of an organization, signed in with a session token. */
export function portalUrl(organizationSlug: string, token: string): string {
  return `${portalBaseUrl()}/${encodeURIComponent(organizationSlug)}/portal?customer_session_token=${encodeURIComponent(token)}`;
}

export function toCustomerSession(
  row: CustomerSessionRow,
  token: string,
  customer: CustomerRow,
  organizationSlug: string,
): CustomerSessionOut {
  return {
    created_at: isoRequired(row.created_at),
    modified_at: iso(row.modified_at),
    id: row.id,
    token,
    expires_at: isoRequired(row.expires_at),
    customer_portal_url: portalUrl(organizationSlug, token),
    return_url: row.return_url,
    customer_id: row.customer_id,
    customer: toCustomer(customer),
  };
}
