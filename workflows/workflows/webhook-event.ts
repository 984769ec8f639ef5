// A set-aside webhook event (`webhook-event:<event id>:<queueing>`): one that failed past its
// endpoint's hold left the ordered queue (webhook-delivery.ts), which started this abandoned child
// to go on with the rest of its retry schedule alone. It attempts only while that queueing is still
// set aside; a disabled or deleted endpoint ends it. At the end the event is settled, as the
// ordered queue settles its head.
import { proxyActivities, sleep } from "@temporalio/workflow";
import type { WebhookActivities } from "../activities/webhooks.js";
import type { QueuedEvent } from "../shared/webhooks.js";

export interface WebhookEventWorkflowInput {
  endpointId: string;
  event: QueuedEvent;
  /** The endpoint workflow's schedule: the wait before each attempt. */
  retryDelaysMs: number[];
  /** The index of the attempt to go on with (the first one past the hold). */
  from: number;
  disableAfterMs?: number;
}

const { attemptSetAsideWebhookDelivery } = proxyActivities<WebhookActivities>({
  // 10 s HTTP timeout plus the database writes; a lost attempt counts as failed, as in the endpoint's queue.
  startToCloseTimeout: "30 seconds",
  retry: { maximumAttempts: 1 },
});

const { settleWebhookEvent } = proxyActivities<WebhookActivities>({
  startToCloseTimeout: "30 seconds",
  retry: { initialInterval: "1 second", backoffCoefficient: 2, maximumInterval: "1 minute" },
});

export async function webhookEventWorkflow(input: WebhookEventWorkflowInput): Promise<void> {
  const { event, disableAfterMs } = input;
  for (let attempt = input.from; attempt < input.retryDelaysMs.length; attempt++) {
    const delay = input.retryDelaysMs[attempt];
    if (delay > 0) await sleep(delay);
    const outcome = await outcomeOf(() => attemptSetAsideWebhookDelivery(event, attempt + 1, { at: Date.now(), disableAfterMs }));
    // Back in the ordered queue: that queueing is not this workflow's to settle.
    if (outcome === "requeued") return;
    if (outcome !== "failed") break;
  }
  await settleWebhookEvent(event);
}

/**
 * An attempt's outcome; one whose activity failed (worker killed, database down) counts as failed.
 * Date.now() in the attempt's options is the workflow's deterministic clock (skipped time included).
 */
export async function outcomeOf(attempt: () => Promise<{ outcome: string }>): Promise<string> {
  try {
    return (await attempt()).outcome;
  } catch {
    return "failed";
  }
}
