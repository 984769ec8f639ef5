// The Payment wire shape: a card payment carries its brand and last four digits.
import type { components } from "../../generated/types.js";
import { iso, isoRequired } from "../kit/time.js";
import type { PaymentRow } from "./repository.js";

export type PaymentOut = components["schemas"]["Payment"];

export function toPayment(row: PaymentRow): PaymentOut {
  const base = {
    created_at: isoRequired(row.created_at),
    modified_at: iso(row.modified_at),
    id: row.id,
    processor: row.processor,
    status: row.status,
    amount: row.amount,
    currency: row.currency,
    method: row.method,
    decline_reason: row.decline_reason,
    decline_message: row.decline_message,
    organization_id: row.organization_id,
    checkout_id: row.checkout_id,
    order_id: row.order_id,
    trigger: row.trigger,
    processor_metadata: row.processor_metadata,
  };
  if (row.method === "card" && row.method_metadata) {
    return Object.assign(base, {
      method: "card" as const,
      method_metadata: { brand: row.method_metadata.brand, last4: row.method_metadata.last4 },
    });
  }
  return base;
}
