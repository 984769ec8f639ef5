// The runs of the worker's periodic Schedules (workflows/schedules.ts). The backstop sweep and the
// idempotency key clean-up are one activity per run. The confirm recovery and the usage fold are
// due every few seconds: a run of theirs makes a pass every `everyMs` for `forMs` (the Schedule's
// interval, a minute by default) as local activities, so the Schedule starts one run a minute, not
// one every second or two.
import { proxyActivities, proxyLocalActivities, sleep } from "@temporalio/workflow";
import type { PeriodicActivities } from "../activities/periodic.js";

// The activities log their own failures; a pass that times out is not retried, the next one is due.
const { sweepBackstop, deleteExpiredIdempotencyKeys } = proxyActivities<PeriodicActivities>({
  startToCloseTimeout: "10 minutes",
  retry: { maximumAttempts: 1 },
});
const { recoverConfirms, foldUsage } = proxyLocalActivities<PeriodicActivities>({
  startToCloseTimeout: "1 minute",
  retry: { maximumAttempts: 1 },
});

export interface RepeatedPassesInput {
  /** Time between passes. */
  everyMs: number;
  /** How long the run goes on making passes. */
  forMs: number;
}

export async function backstopSweepWorkflow(): Promise<void> {
  await sweepBackstop();
}

export async function idempotencyKeyCleanupWorkflow(): Promise<number> {
  return deleteExpiredIdempotencyKeys();
}

export async function confirmRecoveryWorkflow(input: RepeatedPassesInput): Promise<void> {
  await repeat(recoverConfirms, input);
}

export async function usageFoldWorkflow(input: RepeatedPassesInput): Promise<void> {
  await repeat(foldUsage, input);
}

/** Makes a pass at once and then every `everyMs`, while the next one would still start within `forMs`. */
async function repeat(pass: () => Promise<unknown>, { everyMs, forMs }: RepeatedPassesInput): Promise<void> {
  const until = Date.now() + forMs;
  for (;;) {
    await pass().catch(() => undefined);
    if (Date.now() + everyMs >= until) return;
    await sleep(everyMs);
  }
}
