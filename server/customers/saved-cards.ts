// A customer's saved cards: as stored (payment_methods.method_metadata, what the processor
// reported when a checkout or the portal saved one), as the API shows them, and their list.
import type { Knex } from "knex";
import type { components } from "../../generated/types.js";
import { listPage, type ListQuery, type Page } from "../kit/pagination.js";
import { iso, isoRequired } from "../kit/time.js";
import { readablePaymentMethods, type PaymentMethodRow } from "./repository.js";

export type PaymentMethodOut = components["schemas"]["CustomerPaymentMethod"];
/** As the merchant reads it: with whether it is the default. */
export type MerchantPaymentMethodOut = components["schemas"]["PaymentMethod"];

/** A saved card's method_metadata: what the processor reported of it; an expiry it did not report is 0. */
export function savedCardMetadata(
  card: { brand: string; last4: string; expMonth?: number; expYear?: number } | null,
): PaymentMethodRow["method_metadata"] {
  return { brand: card?.brand, last4: card?.last4, exp_month: card?.expMonth ?? 0, exp_year: card?.expYear ?? 0, wallet: null };
}

export function toPaymentMethod(row: PaymentMethodRow): PaymentMethodOut {
  const base = {
    id: row.id,
    created_at: isoRequired(row.created_at),
    modified_at: iso(row.modified_at),
    processor: row.processor,
    customer_id: row.customer_id,
    type: row.type,
  };
  if (row.type !== "card") return base;
  // Cards saved by a checkout carry what the processor seam reports (brand, last4): an
  // expiry it did not report is 0.
  const m = row.method_metadata;
  return Object.assign(base, {
    type: "card" as const,
    method_metadata: {
      brand: m.brand ?? "unknown",
      last4: m.last4 ?? "",
      exp_month: m.exp_month ?? 0,
      exp_year: m.exp_year ?? 0,
      wallet: m.wallet ?? null,
    },
  });
}

export function toMerchantPaymentMethod(row: PaymentMethodRow): MerchantPaymentMethodOut {
  return Object.assign(toPaymentMethod(row), { is_default: row.is_default });
}

/** The customer's live saved methods, the default first, then the newest, each shown by `show`. */
export function listSavedCards<T>(
  db: Knex,
  scope: { organizationId: string; customerId: string },
  query: ListQuery,
  show: (row: PaymentMethodRow) => T,
): Promise<Page<T>> {
  const q = readablePaymentMethods(db, scope)
    .select("*")
    .orderBy([{ column: "is_default", order: "desc" }, { column: "created_at", order: "desc" }, { column: "id" }]);
  return listPage(q, query, (rows: PaymentMethodRow[]) => rows.map(show));
}
