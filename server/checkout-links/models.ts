// The CheckoutLink wire shape: its products (with prices, public benefits and medias) and its
// discount; `url` opens a fresh checkout session and redirects to the hosted checkout page.
import type { components } from "../../generated/types.js";
import { toDiscountBase } from "../discounts/models.js";
import type { DiscountRow } from "../discounts/repository.js";
import { iso, isoRequired } from "../kit/time.js";
import { toCustomerProduct } from "../products/models.js";
import type { ProductRelations, ProductRow } from "../products/repository.js";
import type { CheckoutLinkRow } from "./repository.js";
import { setting } from "../config.js";

export type CheckoutLinkOut = components["schemas"]["CheckoutLink"];

/** Absolute URLs of the API (PUBLIC_API_URL, default http://127.0.0.1:$PORT). */
export function apiBaseUrl(): string {
  return (setting("PUBLIC_API_URL") ?? `http://127.0.0.1:${setting("PORT")}`).replace(/\/+$/, "");
}

export function checkoutLinkUrl(clientSecret: string): string {
  return `${apiBaseUrl()}/v1/checkout-links/${encodeURIComponent(clientSecret)}/redirect`;
}

export function toCheckoutLink(
  row: CheckoutLinkRow,
  products: { row: ProductRow; rel: ProductRelations }[],
  discount: DiscountRow | null,
): CheckoutLinkOut {
  return {
    created_at: isoRequired(row.created_at),
    modified_at: iso(row.modified_at),
    trial_interval: row.trial_interval,
    trial_interval_count: row.trial_interval_count,
    id: row.id,
    metadata: row.metadata,
    payment_processor: "stripe",
    client_secret: row.client_secret,
    success_url: row.success_url,
    return_url: row.return_url,
    label: row.label,
    allow_discount_codes: row.allow_discount_codes,
    require_billing_address: row.require_billing_address,
    discount_id: row.discount_id,
    // Seat- and unit-based prices are not offered: no link presets seats or units.
    seats: null,
    units: null,
    organization_id: row.organization_id,
    products: products.map((p) => Object.assign(toCustomerProduct(p.row, p.rel), { metadata: p.row.metadata })),
    discount: discount ? toDiscountBase(discount) : null,
    url: checkoutLinkUrl(row.client_secret),
  };
}
