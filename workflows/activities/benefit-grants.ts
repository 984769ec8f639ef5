// Benefit grant activities: run one grant job (server/benefit-grants/jobs.ts) in its own
// transaction, and the sweep that restarts the workflow of every job left pending (a start
// lost between the scheduling commit and Temporal, or a workflow that ended without it).
import { Context } from "@temporalio/activity";
import type { Knex } from "knex";
import { runBenefitGrantJob } from "../../server/benefit-grants/jobs.js";
import { stalePendingJobs } from "../../server/benefit-grants/repository.js";
import { temporalBenefitGrantStarter, type BenefitGrantStarter, type GrantAction } from "../../server/benefit-grants/starter.js";

/** Inside an activity: a starter on the worker's own client and task queue. */
const activityContextStarter = (): BenefitGrantStarter => {
  const ctx = Context.current();
  return temporalBenefitGrantStarter(ctx.client, ctx.info.taskQueue);
};

export function createBenefitGrantActivities({ knex, starter = activityContextStarter }: { knex: Knex; starter?: () => BenefitGrantStarter }) {
  return {
    async runBenefitGrantJob(jobId: number): Promise<string> {
      return runBenefitGrantJob(knex, jobId);
    },
    /**
     * Starts (or joins) the workflow of up to `limit` jobs pending for longer than `graceMs`,
     * after job `afterId`; the last job id seen (the next call's cursor), null when none.
     */
    async sweepBenefitGrantJobs(graceMs: number, limit: number, afterId = 0): Promise<number | null> {
      const jobs = await stalePendingJobs(knex, new Date(Date.now() - graceMs), limit, afterId);
      await starter().start(jobs.map((j) => ({ jobId: Number(j.id), grantId: j.grant_id, action: j.action as GrantAction, seq: j.seq })));
      return jobs.length === limit ? Number(jobs[jobs.length - 1].id) : null;
    },
  };
}

export type BenefitGrantActivities = ReturnType<typeof createBenefitGrantActivities>;
