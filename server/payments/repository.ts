// Payment queries, always scoped to the caller's organization.
import type { Knex } from "knex";
import { isUuid } from "../kit/ids.js";

export interface PaymentRow {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  organization_id: string;
  processor: "stripe";
  status: "pending" | "succeeded" | "failed";
  amount: number;
  currency: string;
  method: string;
  method_metadata: { brand: string; last4: string } | null;
  decline_reason: string | null;
  decline_message: string | null;
  processor_metadata: Record<string, unknown>;
  processor_ref: string | null;
  checkout_id: string | null;
  order_id: string | null;
}

export function readable(db: Knex, scope: { organizationId: string }): Knex.QueryBuilder {
  return db("payments").where("payments.organization_id", scope.organizationId);
}

export async function findReadable(db: Knex, scope: { organizationId: string }, id: string): Promise<PaymentRow | undefined> {
  if (!isUuid(id)) return undefined;
  return readable(db, scope).where("payments.id", id).first("payments.*") as Promise<PaymentRow | undefined>;
}
