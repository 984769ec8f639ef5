// The CustomerSession wire shape. The plain token appears here once, at creation.
import type { components } from "../../generated/types.js";
import { toCustomer } from "../customers/models.js";
import type { CustomerRow } from "../customers/repository.js";
import { iso, isoRequired } from "../kit/time.js";
import type { CustomerSessionRow } from "./repository.js";

export type CustomerSessionOut = components["schemas"]["CustomerSession"];

export function portalUrl(organizationSlug: string, token: string): string {
  const base = (process.env.PUBLIC_PORTAL_URL ?? "http://127.0.0.1:8000/portal").replace(/\/+$/, "");
  return `${base}/${encodeURIComponent(organizationSlug)}?customer_session_token=${encodeURIComponent(token)}`;
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
    customer_id: row.customer_id,
    customer: toCustomer(customer),
  } as CustomerSessionOut;
}
