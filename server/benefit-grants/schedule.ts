// Scheduling benefit grant work inside the caller's transaction. Each function writes the grant
// rows it needs and one job row per grant action, then starts the jobs' workflows after commit
// (through server/workflows-door.ts): the intent commits with the change that causes it and is never lost.
import type { Knex } from "knex";
import { liveBenefitIdsOf } from "../products/repository.js";
import { startGrantJobsAfterCommit, type GrantJob } from "../workflows-door.js";
import {
  appendJob,
  grantedGrantIds,
  grantsOfScope,
  insertGrantIfMissing,
  unrevokedGrantIds,
  unrevokedGrantIdsOfBenefit,
  type GrantScope,
} from "./repository.js";

type Trx = Knex.Transaction;

export type GrantAction = "grant" | "revoke" | "cycle" | "update";

/** A committed job: its workflow id is built from grant, action and sequence (workflows/shared/ids.ts). */
export interface ScheduledJob extends GrantJob {
  action: GrantAction;
}

/** Appends one job per grant (sequence numbers taken under each grant's row lock). */
export async function enqueueJobs(
  trx: Trx,
  grantIds: string[],
  action: GrantAction,
  payload: Record<string, unknown> = {},
): Promise<ScheduledJob[]> {
  const jobs: ScheduledJob[] = [];
  // Sorted so concurrent schedulers lock grants in one order (no deadlock).
  for (const grantId of [...new Set(grantIds)].sort()) {
    const { id, seq } = await appendJob(trx, grantId, action, payload);
    jobs.push({ jobId: id, grantId, action, seq });
  }
  startGrantJobsAfterCommit(trx, jobs);
  return jobs;
}

export interface GrantScheduleInput {
  organizationId: string;
  customerId: string;
  productId: string;
  orderId?: string | null;
  subscriptionId?: string | null;
}

/**
 * Grants the product's benefits to the customer, scoped to the subscription when there is one,
 * else to the order. Grants of that scope whose benefit the product no longer has are revoked
 * (a subscription that changed product). Already granted grants are left as they are.
 */
export async function scheduleBenefitGrants(trx: Trx, input: GrantScheduleInput): Promise<ScheduledJob[]> {
  const scope: GrantScope | null = input.subscriptionId
    ? { column: "subscription_id", id: input.subscriptionId }
    : input.orderId
      ? { column: "order_id", id: input.orderId }
      : null;
  if (!scope) throw new Error("scheduleBenefitGrants needs an orderId or a subscriptionId");
  const benefitIds = await liveBenefitIdsOf(trx, input.organizationId, input.productId);
  for (const benefitId of benefitIds) {
    await insertGrantIfMissing(trx, benefitId, input.customerId, scope);
  }
  const grants = await grantsOfScope(trx, input.customerId, scope);
  const wanted = new Set(benefitIds);
  const toGrant = grants.filter((g) => wanted.has(g.benefit_id) && !(g.granted_at && !g.revoked_at));
  // Not granted yet counts too: its grant job may still be pending, and the revoke supersedes it.
  const toRevoke = grants.filter((g) => !wanted.has(g.benefit_id) && !g.revoked_at);
  return [
    ...(await enqueueJobs(
      trx,
      toGrant.map((g) => g.id),
      "grant",
    )),
    ...(await enqueueJobs(
      trx,
      toRevoke.map((g) => g.id),
      "revoke",
    )),
  ];
}

export interface RevocationScheduleInput {
  customerId: string;
  orderId?: string | null;
  subscriptionId?: string | null;
}

/** Revokes every grant of the order's or subscription's scope that is not revoked yet. */
export async function scheduleBenefitRevocations(trx: Trx, input: RevocationScheduleInput): Promise<ScheduledJob[]> {
  if (!input.orderId && !input.subscriptionId) throw new Error("scheduleBenefitRevocations needs an orderId or a subscriptionId");
  return enqueueJobs(trx, await unrevokedGrantIds(trx, input.customerId, input), "revoke");
}

/**
 * A renewal: every granted grant of the subscription runs its cycle (meter credits), its system
 * events stamped `at` the period boundary (when the job runs later, usage in between stays in the
 * new period).
 */
export async function scheduleBenefitCycles(trx: Trx, input: { subscriptionId: string; at?: Date }): Promise<ScheduledJob[]> {
  const ids = await grantedGrantIds(trx, { subscription_id: input.subscriptionId });
  return enqueueJobs(trx, ids, "cycle", input.at ? { at: input.at.toISOString() } : {});
}

/** The benefit's properties changed: every granted grant of it follows (`previous` as they were). */
export async function scheduleBenefitUpdates(
  trx: Trx,
  input: { benefitId: string; previousProperties: Record<string, unknown> },
): Promise<ScheduledJob[]> {
  return enqueueJobs(trx, await grantedGrantIds(trx, { benefit_id: input.benefitId }), "update", {
    previous_properties: input.previousProperties,
  });
}

/** The benefit is deleted: every grant of it that is not revoked is. */
export async function scheduleBenefitDeletion(trx: Trx, input: { benefitId: string }): Promise<ScheduledJob[]> {
  return enqueueJobs(trx, await unrevokedGrantIdsOfBenefit(trx, input.benefitId), "revoke");
}
