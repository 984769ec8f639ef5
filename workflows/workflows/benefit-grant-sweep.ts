// The benefit grant sweep: one long-running workflow (id `benefit-grant-sweep`) that now and
// then starts the workflow of every grant job still pending after a grace period. Jobs are
// started right after their transaction commits; this is the backstop for a start that was lost.
// Starting is idempotent (a running workflow is joined), so sweeping a job twice is harmless.
import { continueAsNew, proxyActivities, sleep } from "@temporalio/workflow";
import type { BenefitGrantActivities } from "../activities/benefit-grants.js";

export const benefitGrantSweepWorkflowId = "benefit-grant-sweep";

export interface BenefitGrantSweepInput {
  /** Time between sweeps. Default 1 minute. */
  intervalMs?: number;
  /** A job younger than this is left to its own start. Default 30 seconds. */
  graceMs?: number;
  /** Sweeps per run before continuing as new. Default 500. */
  maxIterations?: number;
}

const { sweepBenefitGrantJobs } = proxyActivities<BenefitGrantActivities>({
  startToCloseTimeout: "1 minute",
  retry: { initialInterval: "1 second", backoffCoefficient: 2, maximumInterval: "1 minute" },
});

const BATCH = 200;

export async function benefitGrantSweepWorkflow(input: BenefitGrantSweepInput = {}): Promise<never> {
  const intervalMs = input.intervalMs ?? 60_000;
  const graceMs = input.graceMs ?? 30_000;
  for (let i = 0; i < (input.maxIterations ?? 500); i++) {
    // A full batch means more are waiting: the next one follows at once, after the last job seen.
    let cursor: number | null = 0;
    while (cursor !== null) cursor = await sweepBenefitGrantJobs(graceMs, BATCH, cursor);
    await sleep(intervalMs);
  }
  return continueAsNew<typeof benefitGrantSweepWorkflow>(input);
}
