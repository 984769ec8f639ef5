// The outbox relay: one long-running workflow (id `outboxRelayWorkflowId`) that drains the
// outbox table in batches. It only decides when to claim the next batch — at once after a full
// batch, otherwise after an idle sleep or as soon as `outboxSignal` says rows were committed.
// The claiming itself, and the truth about what is published, stay in the database.
import { ApplicationFailure, condition, continueAsNew, proxyLocalActivities, setHandler, workflowInfo } from "@temporalio/workflow";
import type { OutboxActivities } from "../activities/outbox.js";
import { relayStatsQuery } from "../shared/queries.js";
import { outboxSignal } from "../shared/signals.js";

export interface OutboxRelayInput {
  /** Rows claimed per activity call; a full batch means more are waiting, so the next call is immediate. */
  batchSize: number;
  /** How long to wait for new rows when the outbox is drained, unless signalled sooner. */
  idleSleepMs: number;
  /** Batches per run before continuing as new, so the history stays small. Default 500. */
  maxIterations?: number;
  /** Rows relayed by earlier runs; set by continueAsNew so relayStats keeps the running total. */
  relayedBefore?: number;
}

const DEFAULT_MAX_ITERATIONS = 500;

// A local activity: the claim runs inside the relay's workflow task, saving the schedule / poll /
// complete round trips to the Temporal server between a commit and its webhooks' fan-out.
const { claimOutboxBatch } = proxyLocalActivities<OutboxActivities>({
  startToCloseTimeout: "30 seconds",
  // No attempt limit: while the database is down the relay should keep trying, just less often.
  retry: { initialInterval: "1 second", backoffCoefficient: 2, maximumInterval: "1 minute" },
});

export async function outboxRelayWorkflow(input: OutboxRelayInput): Promise<never> {
  if (!Number.isInteger(input.batchSize) || input.batchSize < 1) {
    // A zero batch is never "full" nor empty-handed: the loop would spin without sleeping.
    throw ApplicationFailure.nonRetryable(`batchSize must be a positive integer, got ${input.batchSize}`);
  }
  const maxIterations = input.maxIterations ?? DEFAULT_MAX_ITERATIONS;
  let relayed = input.relayedBefore ?? 0;
  let iterations = 0;
  let woken = false;

  setHandler(outboxSignal, () => {
    woken = true;
  });
  setHandler(relayStatsQuery, () => ({ relayed, iterations }));

  while (iterations < maxIterations && !workflowInfo().continueAsNewSuggested) {
    iterations++;
    // Cleared before the claim, not after: rows committed while the claim runs may have missed
    // it, so a signal arriving meanwhile must still cut the following sleep short.
    woken = false;
    const batch = await claimOutboxBatch(input.batchSize);
    relayed += batch.ids.length;
    if (batch.ids.length < input.batchSize) await condition(() => woken, input.idleSleepMs);
  }
  // A wake-up signal that races this is harmless to lose: the next run claims right away.
  return continueAsNew<typeof outboxRelayWorkflow>(Object.assign({}, input, { relayedBefore: relayed }));
}
