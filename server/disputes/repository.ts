// Dispute queries: the merchant's reads scoped to the caller's organization, and the processor's
// writes keyed by its own dispute id.
import type { Knex } from "knex";
import type { RowPatch } from "../kit/db.js";
import { isUuid } from "../kit/ids.js";
import { updateReturning } from "../kit/rows.js";
import type { DisputeStatus } from "../processors/processor.js";

export interface DisputeRow {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  organization_id: string;
  order_id: string;
  payment_id: string;
  customer_id: string;
  status: DisputeStatus;
  amount: number;
  tax_amount: number;
  currency: string;
  reason: string | null;
  evidence_due_by: Date | null;
  past_due: boolean;
  processor: string;
  processor_ref: string;
}

export function readable(db: Knex, scope: { organizationId: string }): Knex.QueryBuilder {
  return db("disputes").where("disputes.organization_id", scope.organizationId);
}

export async function findReadable(
  db: Knex,
  scope: { organizationId: string },
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<DisputeRow | undefined> {
  if (!isUuid(id)) return undefined;
  const q = readable(db, scope).where("disputes.id", id).first("disputes.*");
  return (opts.forUpdate ? q.forUpdate() : q) as Promise<DisputeRow | undefined>;
}

/**
 * The dispute the processor knows by `ref`, locked; inserted from `values` first when there is none
 * (a concurrent delivery of the same event inserts nothing and waits for the lock).
 */
export async function lockOrInsertByProcessorRef(
  trx: Knex.Transaction,
  processor: string,
  ref: string,
  values: () => Promise<Omit<DisputeRow, "id" | "created_at" | "modified_at" | "processor" | "processor_ref"> | null>,
): Promise<{ row: DisputeRow; created: boolean } | null> {
  const existing = await lockByProcessorRef(trx, processor, ref);
  if (existing) return { row: existing, created: false };
  const fresh = await values();
  if (!fresh) return null;
  const inserted: DisputeRow[] = await trx("disputes")
    .insert(Object.assign({ processor, processor_ref: ref }, fresh))
    .onConflict(["processor", "processor_ref"])
    .ignore()
    .returning("*");
  if (inserted.length) return { row: inserted[0], created: true };
  const row = await lockByProcessorRef(trx, processor, ref);
  return row ? { row, created: false } : null;
}

function lockByProcessorRef(db: Knex, processor: string, ref: string): Promise<DisputeRow | undefined> {
  return db("disputes").where({ processor, processor_ref: ref }).forUpdate().first();
}

/** Writes `patch` (with its own modified_at) and returns the dispute. */
export function updateDispute(db: Knex, id: string, patch: RowPatch<DisputeRow>): Promise<DisputeRow> {
  return updateReturning<DisputeRow>(db, "disputes", id, patch);
}

/** Whether a dispute holds the order's money: awaiting a response, under review, or lost (Stripe refuses such a charge's refund). */
export async function holdsOrderMoney(db: Knex, orderId: string): Promise<boolean> {
  const row = await db("disputes").where({ order_id: orderId }).whereIn("status", ["needs_response", "under_review", "lost"]).first("id");
  return row !== undefined;
}
