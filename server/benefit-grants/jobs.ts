// Carries out benefit grant jobs (the grant workflow's activity). Under the grant's row lock, one
// transaction applies every pending job of the grant up to this one, in sequence order; a pending
// revoke supersedes the grant/cycle/update jobs before it. Each action writes its webhooks and
// system event in the same transaction. A provider failure rolls it all back, records the grant's
// `error` separately and rethrows so Temporal retries; the next success clears the error.
import type { Knex } from "knex";
import { findBenefit } from "../benefits/repository.js";
import { findCustomer } from "../customers/repository.js";
import type { BenefitRow } from "../benefits/models.js";
import type { CustomerRow } from "../customers/repository.js";
import type { CustomerStateOut } from "../customers/models.js";
import { emit, emitInternal, type WebhookEventType } from "../kit/outbox.js";
import { toBenefitGrantWebhook } from "./models.js";
import {
  findJob,
  insertSystemEvent,
  lockGrant,
  markJobDone,
  pendingJobsUpTo,
  recordGrantError,
  updateGrant,
  type GrantRow,
  type JobRow,
} from "./repository.js";
import { strategyFor, type StrategyContext } from "./strategies.js";
import { clockNow } from "../test-clocks/repository.js";

type Props = Record<string, unknown>;
export type JobResult = "applied" | "skipped" | "superseded" | "waiting" | "missing";

const WEBHOOK: Record<JobRow["action"], WebhookEventType> = {
  grant: "benefit_grant.created",
  revoke: "benefit_grant.revoked",
  cycle: "benefit_grant.cycled",
  update: "benefit_grant.updated",
};
const SYSTEM_EVENT: Record<JobRow["action"], string> = {
  grant: "benefit.granted",
  revoke: "benefit.revoked",
  cycle: "benefit.cycled",
  update: "benefit.updated",
};

/**
 * What a job reads from above benefit grants: the customer state view (subscriptions/customer-state.ts,
 * which shows subscriptions, and subscriptions schedule grants), handed in by workflows/activity-deps.ts.
 */
export interface GrantJobDependents {
  readCustomerState(db: Knex, row: CustomerRow): Promise<CustomerStateOut>;
}

export async function runBenefitGrantJob(
  knex: Knex,
  jobId: number,
  dependents: GrantJobDependents,
  now: () => Date = () => new Date(),
): Promise<JobResult> {
  const job = await findJob(knex, jobId);
  // Not committed (yet, or ever): the sweep starts this job again should it commit.
  if (!job) return "missing";
  if (job.done_at) return (job.outcome as JobResult) ?? "applied";
  try {
    return await knex.transaction(async (trx) => {
      const grant = await lockGrant(trx, job.grant_id);
      if (!grant) return "missing";
      const pending = await pendingJobsUpTo(trx, grant.id, job.seq);
      const lastRevoke = pending.map((j) => j.action).lastIndexOf("revoke");
      let result: JobResult = "skipped";
      let current = grant;
      for (const [i, j] of pending.entries()) {
        let outcome: JobResult;
        if (i < lastRevoke && j.action !== "revoke") outcome = "superseded";
        else [outcome, current] = await apply(trx, current, j, now(), dependents);
        await markJobDone(trx, j.id, outcome);
        if (j.id === job.id) result = outcome;
      }
      return result;
    });
  } catch (err) {
    await recordError(knex, job.grant_id, err, now());
    throw err;
  }
}

async function recordError(knex: Knex, grantId: string, err: unknown, at: Date): Promise<void> {
  const e = err as { type?: unknown; message?: unknown; name?: unknown };
  const error = {
    message: typeof e?.message === "string" ? e.message : String(err),
    type: typeof e?.type === "string" ? e.type : typeof e?.name === "string" ? e.name : "Error",
    timestamp: at.toISOString(),
  };
  await recordGrantError(knex, grantId, error, at);
}

async function apply(
  trx: Knex.Transaction,
  grant: GrantRow,
  job: JobRow,
  now: Date,
  dependents: GrantJobDependents,
): Promise<[JobResult, GrantRow]> {
  const benefit = (await findBenefit(trx, grant.benefit_id)) as BenefitRow;
  const customer = (await findCustomer(trx, grant.customer_id)) as CustomerRow;
  // A renewal's cycle happens at the period boundary; anything else at its customer's now (a test clock's time).
  const eventAt =
    typeof job.payload.at === "string"
      ? new Date(job.payload.at)
      : customer.test_clock_id
        ? await clockNow(trx, customer.test_clock_id)
        : now;
  const ctx: StrategyContext = { trx, now, eventAt, grant, benefit, customer };
  const strategy = strategyFor(benefit.type);
  const granted = grant.granted_at !== null && grant.revoked_at === null;
  const patch: Record<string, unknown> = { modified_at: now, error: null };
  let previous: Props | null = null;

  switch (job.action) {
    case "grant": {
      if (grant.revoked_at === null && grant.granted_at !== null && !strategy.needsRegrant?.(grant)) return ["skipped", grant];
      const outcome = await strategy.grant(ctx);
      patch.properties = JSON.stringify(outcome.properties);
      if (outcome.waiting) {
        // Not an error: the grant is granted once the customer links their account (who is told so by email).
        await emitInternal(trx, benefit.organization_id, "email.benefit_grant_waiting", { benefit_grant_id: grant.id });
        return ["waiting", await updateGrant(trx, grant.id, Object.assign({}, patch, { revoked_at: null }))];
      }
      patch.granted_at = now;
      patch.revoked_at = null;
      break;
    }
    case "revoke": {
      if (grant.revoked_at !== null) return ["skipped", grant];
      if (grant.granted_at !== null) patch.properties = JSON.stringify(await strategy.revoke(ctx));
      patch.granted_at = null;
      patch.revoked_at = now;
      break;
    }
    case "cycle": {
      if (!granted) return ["skipped", grant];
      patch.properties = JSON.stringify(await strategy.cycle(ctx));
      break;
    }
    case "update": {
      if (!granted) return ["skipped", grant];
      previous = grant.properties;
      patch.properties = JSON.stringify(
        await strategy.update(ctx, (job.payload.previous_properties as Props | undefined) ?? benefit.properties),
      );
      break;
    }
  }
  const updated = await updateGrant(trx, grant.id, patch);
  await emit(trx, benefit.organization_id, WEBHOOK[job.action], toBenefitGrantWebhook(updated, customer, benefit, previous));
  if (job.action !== "cycle" && customer.deleted_at === null) {
    await emit(trx, benefit.organization_id, "customer.state_changed", await dependents.readCustomerState(trx, customer));
  }
  await insertSystemEvent(ctx, SYSTEM_EVENT[job.action], {
    benefit_id: benefit.id,
    benefit_grant_id: grant.id,
    benefit_type: benefit.type,
  });
  return ["applied", updated];
}
