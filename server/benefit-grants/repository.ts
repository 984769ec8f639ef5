// Benefit grant queries. Portal reads are scoped to the session's customer and organization (a
// grant is the organization's through its benefit); the job runner reads by id under the lock.
import type { Knex } from "knex";
import type { BenefitGrantRow } from "../benefits/models.js";
import { storeEvents } from "../events/store.js";
import { isUuid } from "../kit/ids.js";

export interface GrantRow extends BenefitGrantRow {
  job_seq: number;
}

export interface JobRow {
  id: number;
  grant_id: string;
  seq: number;
  action: "grant" | "revoke" | "cycle" | "update";
  payload: Record<string, unknown>;
  created_at: Date;
  done_at: Date | null;
  outcome: string | null;
}

/** Who reads in the portal: one customer of one organization. */
export interface CustomerScope {
  customerId: string;
  organizationId: string;
}

/** The customer's grants, on benefits of the session's organization that still exist. */
export function customerGrants(db: Knex, scope: CustomerScope): Knex.QueryBuilder {
  return db("benefit_grants")
    .join("benefits", "benefits.id", "benefit_grants.benefit_id")
    .where("benefit_grants.customer_id", scope.customerId)
    .where("benefits.organization_id", scope.organizationId)
    .whereNull("benefits.deleted_at");
}

export async function findCustomerGrant(db: Knex, scope: CustomerScope, id: string, opts: { forUpdate?: boolean } = {}): Promise<GrantRow | undefined> {
  if (!isUuid(id)) return undefined;
  const q = customerGrants(db, scope).where("benefit_grants.id", id).first("benefit_grants.*");
  return (opts.forUpdate ? q.forUpdate("benefit_grants") : q) as Promise<GrantRow | undefined>;
}

/** A system event (source "system") in the events table, for the grant's customer. */
export async function insertSystemEvent(
  ctx: { trx: Knex.Transaction; now: Date; eventAt?: Date; benefit: { organization_id: string }; customer: { id: string; external_id: string | null } },
  name: string,
  metadata: Record<string, unknown>,
): Promise<void> {
  await storeEvents(ctx.trx, ctx.benefit.organization_id, [
    { timestamp: ctx.eventAt ?? ctx.now, name, source: "system", customerId: ctx.customer.id, externalCustomerId: ctx.customer.external_id, metadata },
  ]);
}

/** Pending jobs whose workflow should have finished by now (the sweep's work list). */
export function stalePendingJobs(db: Knex, olderThan: Date, limit: number, afterId = 0): Promise<Pick<JobRow, "id" | "grant_id" | "seq" | "action">[]> {
  return db("benefit_grant_jobs")
    .whereNull("done_at")
    .where("created_at", "<", olderThan)
    .where("id", ">", afterId)
    .orderBy("id")
    .limit(limit)
    .select("id", "grant_id", "seq", "action");
}
