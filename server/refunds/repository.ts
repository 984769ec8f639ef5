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
  /** Set while Stripe Tax's reversal of the refund's tax is due in the worker (0150). */
  tax_revert_due_at?: Date | null;
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

/** A refund by id, whatever the organization (the worker's tax reversal), optionally locked. */
export async function findRefund(db: Knex, id: string, opts: { forUpdate?: boolean } = {}): Promise<RefundRow | undefined> {
  const q = db("refunds").where({ id });
  return (await (opts.forUpdate ? q.forUpdate() : q).first()) as RefundRow | undefined;
}

/** Refunds whose tax reversal has been due since before `before`, oldest first (the backstop sweep). */
export async function dueTaxReverts(db: Knex, before: Date, limit: number): Promise<string[]> {
  const rows: { id: string }[] = await db("refunds")
    .where("tax_revert_due_at", "<=", before)
    .orderBy("tax_revert_due_at")
    .limit(limit)
    .select("id");
  return rows.map((r) => r.id);
}
