// The Refund wire shape.
import type { components } from "../../generated/types.js";
import { iso, isoRequired } from "../kit/time.js";
import type { RefundRow } from "./repository.js";

export type RefundOut = components["schemas"]["Refund"];

export function toRefund(row: RefundRow): RefundOut {
  return {
    created_at: isoRequired(row.created_at),
    modified_at: iso(row.modified_at),
    id: row.id,
    metadata: row.metadata,
    status: row.status,
    reason: row.reason,
    amount: row.amount,
    tax_amount: row.tax_amount,
    currency: row.currency,
    organization_id: row.organization_id,
    order_id: row.order_id,
    subscription_id: row.subscription_id,
    customer_id: row.customer_id,
    revoke_benefits: row.revoke_benefits,
    // A refund names a dispute when it prevented one (a dispute alert's refund); Borealis receives no such alerts.
    dispute: null,
  };
}
