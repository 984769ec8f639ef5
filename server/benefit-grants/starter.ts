// How committed benefit grant jobs reach Temporal: one workflow per job, id
// `benefit-grant:<grant id>:<action>:<seq>`, started right after the scheduling transaction
// commits. A start that is lost (Temporal unreachable, process killed after commit) is recovered
// by the sweep workflow, which restarts the workflow of every job still pending. Tests and
// embedders may swap the starter (another client, namespace or task queue).
import type { Client } from "@temporalio/client";
import { temporalPort } from "../../workflows/client.js";
import { BOREALIS_TASK_QUEUE } from "../../workflows/shared/task-queues.js";
import type { benefitGrantJobWorkflow } from "../../workflows/workflows/benefit-grant.js";
import type { Knex } from "knex";
import { afterCommit } from "../kit/after-commit.js";
import { logger } from "../kit/logger.js";

export type GrantAction = "grant" | "revoke" | "cycle" | "update";

export interface ScheduledJob {
  jobId: number;
  grantId: string;
  action: GrantAction;
  seq: number;
}

export const benefitGrantWorkflowId = (job: Pick<ScheduledJob, "grantId" | "action" | "seq">) => `benefit-grant:${job.grantId}:${job.action}:${job.seq}`;

export interface BenefitGrantStarter {
  start(jobs: ScheduledJob[]): Promise<void>;
}

export function temporalBenefitGrantStarter(client: Client | Promise<Client>, taskQueue = BOREALIS_TASK_QUEUE): BenefitGrantStarter {
  return {
    async start(jobs) {
      if (jobs.length === 0) return;
      const c = await client;
      await Promise.all(
        jobs.map((job) =>
          c.workflow.start<typeof benefitGrantJobWorkflow>("benefitGrantJobWorkflow", {
            workflowId: benefitGrantWorkflowId(job),
            taskQueue,
            args: [{ jobId: job.jobId, grantId: job.grantId }],
            // A running one is joined; a finished one may run again (the sweep found its job pending).
            workflowIdConflictPolicy: "USE_EXISTING",
            workflowIdReusePolicy: "ALLOW_DUPLICATE",
          }),
        ),
      );
    },
  };
}

const port = temporalPort((client) => temporalBenefitGrantStarter(client));

export function getBenefitGrantStarter(): BenefitGrantStarter {
  return port.get();
}

export function setBenefitGrantStarter(s: BenefitGrantStarter | null): void {
  port.set(s);
}

/** Starts the jobs' workflows once `trx` (and any transaction around it) commits; nothing on rollback. Never throws. */
export function startAfterCommit(trx: Knex.Transaction, jobs: ScheduledJob[]): void {
  if (jobs.length === 0) return;
  afterCommit(trx, () =>
    getBenefitGrantStarter()
      .start(jobs)
      .catch((err: unknown) => logger.warn({ err, jobs: jobs.map((j) => j.jobId) }, "benefit grant workflows not started; the sweep starts them")),
  );
}
