// The Dispute wire shape, and which statuses end a dispute.
import type { components } from "../../generated/types.js";
import { toCustomerBase } from "../customers/models.js";
import type { CustomerRow } from "../customers/repository.js";
import type { DisputeStatus } from "../processors/processor.js";
import { iso, isoRequired } from "../kit/time.js";
import type { DisputeRow } from "./repository.js";

export type DisputeOut = components["schemas"]["Dispute"];

/** Decided: the card network settled it, for the merchant or the card holder. */
export const isResolved = (status: DisputeStatus) => status === "won" || status === "lost";
/** Nothing more happens to it: resolved, or prevented by a refund. */
export const isClosed = (status: DisputeStatus) => isResolved(status) || status === "prevented";

export function toDispute(row: DisputeRow, customer: CustomerRow): DisputeOut {
  return {
    created_at: isoRequired(row.created_at),
    modified_at: iso(row.modified_at),
    id: row.id,
    status: row.status,
    resolved: isResolved(row.status),
    closed: isClosed(row.status),
    amount: row.amount,
    tax_amount: row.tax_amount,
    currency: row.currency,
    reason: row.reason,
    evidence_due_by: iso(row.evidence_due_by),
    past_due: row.past_due,
    order_id: row.order_id,
    payment_id: row.payment_id,
    customer: toCustomerBase(customer),
    case_id: null,
  };
}
