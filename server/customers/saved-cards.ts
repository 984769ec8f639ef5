// A customer's saved card as stored (payment_methods.method_metadata), from what the processor
// reported of it when it was saved (a checkout's or the portal's).
import type { PaymentMethodRow } from "./repository.js";

/** A saved card's method_metadata: what the processor reported of it; an expiry it did not report is 0. */
export function savedCardMetadata(
  card: { brand: string; last4: string; expMonth?: number; expYear?: number } | null,
): PaymentMethodRow["method_metadata"] {
  return { brand: card?.brand, last4: card?.last4, exp_month: card?.expMonth ?? 0, exp_year: card?.expYear ?? 0, wallet: null };
}
