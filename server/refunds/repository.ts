// Refund queries, always scoped to the caller's organization.
import type { Knex } from "knex";
import { insertReturning, updateReturning } from "../kit/rows.js";

export type RefundStatus = "pending" | "succeeded" | "failed" | "canceled";
export type RefundReason = "duplicate" | "fraudulent" | "customer_request" | "service_disruption" | "satisfaction_guarantee" | "other";

export interface RefundRow {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  organization_id: string;
  status: RefundStatus;
  reason: RefundReason;
  amount: number;
  tax_amount: number;
  currency: string;
  order_id: string;
  subscription_id: string | null;
  customer_id: string;
  payment_id: string | null;
  revoke_benefits: boolean;
  comment: string | null;
  processor_ref: string | null;
  /** The tax provider's reversal of the refund's tax; null when the order's tax was not recorded (0121). */
  tax_reversal_id: string | null;
  metadata: Record<string, string | number | boolean>;
}

export function readable(db: Knex, scope: { organizationId: string }): Knex.QueryBuilder {
  return db("refunds").where("refunds.organization_id", scope.organizationId);
}

export function insertRefund(db: Knex, values: Record<string, unknown>): Promise<RefundRow> {
  return insertReturning<RefundRow>(db, "refunds", values);
}

/** Writes `patch` (with its own modified_at) and returns the refund. */
export function updateRefund(db: Knex, id: string, patch: Partial<RefundRow>): Promise<RefundRow> {
  return updateReturning<RefundRow>(db, "refunds", id, patch);
}
