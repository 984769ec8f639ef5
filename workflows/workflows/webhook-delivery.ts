// Webhook delivery: one workflow per endpoint (id `webhook-endpoint:<endpoint id>`) that works
// through that endpoint's queue of webhook events in outbox order, one event at a time.
//
// Why per endpoint and not per event: deliveries to one endpoint must keep event order, and a
// per-event workflow would need to wait on its predecessors. Here order falls out of the loop.
// The queue itself is the webhook_events table (`pending` rows), so the workflow carries no
// event data: the outbox fan-out (and a redelivery) writes rows, commits, then signal-with-starts
// this workflow with `webhookEventsSignal`; a running one is woken, a finished one starts again.
// Should that wake-up be lost (Temporal unreachable right after the commit), the outbox relay's
// idle claim now and then starts the workflow of every endpoint with queued events that has none.
//
// Each event is tried on the Standard Webhooks schedule: at once, then after 5 s, 5 min, 30 min,
// 2 h, 5 h, 10 h, 10 h, 14 h, 20 h and 24 h (about three days). Every attempt is one activity
// with no automatic retry, so the schedule is exact and deterministic; an attempt whose
// activity fails (worker killed, database down) counts as a failed attempt. The webhook-id is the
// event id, so it is the same across every attempt and redelivery. A 410 disables the endpoint
// and the queue stops; so does failing every attempt for `disableAfterMs` (the attempt activity
// decides, on this workflow's clock, and tells the organization). Strict ordering means an event that keeps failing holds back the events
// behind it until its schedule runs out.
import { condition, continueAsNew, defineSignal, proxyActivities, setHandler, sleep, workflowInfo } from "@temporalio/workflow";
import type { WebhookActivities } from "../activities/webhooks.js";

export const webhookEndpointWorkflowId = (endpointId: string) => `webhook-endpoint:${endpointId}`;

/** "Events were queued for this endpoint" (sent after commit; the table is the truth). */
export const webhookEventsSignal = defineSignal("webhookEvents");

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** The wait before each attempt of one event. */
export const WEBHOOK_RETRY_DELAYS_MS = [
  0, 5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR, 14 * HOUR, 20 * HOUR, 24 * HOUR,
];

export interface WebhookEndpointWorkflowInput {
  endpointId: string;
  /** The wait before each attempt; tests inject a short one. Defaults to WEBHOOK_RETRY_DELAYS_MS. */
  retryDelaysMs?: number[];
  /** How long an idle run waits for a new event before it ends. Default 1 minute. */
  idleMs?: number;
  /** Events per run before continuing as new, so the history stays small. Default 100. */
  maxEvents?: number;
  /** Failing for this long disables the endpoint; tests inject it. Default: the worker's WEBHOOK_DISABLE_AFTER_MS. */
  disableAfterMs?: number;
}

const { attemptWebhookDelivery } = proxyActivities<WebhookActivities>({
  // 10 s HTTP timeout plus the database writes.
  startToCloseTimeout: "30 seconds",
  retry: { maximumAttempts: 1 },
});

const { nextWebhookEvent, settleWebhookEvent } = proxyActivities<WebhookActivities>({
  startToCloseTimeout: "30 seconds",
  // Bookkeeping only: keep trying while the database is away.
  retry: { initialInterval: "1 second", backoffCoefficient: 2, maximumInterval: "1 minute" },
});

export async function webhookEndpointWorkflow(input: WebhookEndpointWorkflowInput): Promise<void> {
  const delays = input.retryDelaysMs?.length ? input.retryDelaysMs : WEBHOOK_RETRY_DELAYS_MS;
  const idleMs = input.idleMs ?? MINUTE;
  const maxEvents = input.maxEvents ?? 100;
  let woken = false;
  setHandler(webhookEventsSignal, () => {
    woken = true;
  });

  let handled = 0;
  let idleEnded = false;
  for (;;) {
    // Cleared before reading the queue: an event queued while the read runs still wakes us.
    woken = false;
    const next = await nextWebhookEvent(input.endpointId);
    if (next === null) {
      // Idle for idleMs and the queue read once more (a lost wake-up): the next fan-out starts a new run.
      if (idleEnded) return;
      idleEnded = !(await condition(() => woken, idleMs));
      continue;
    }
    idleEnded = false;
    const stop = await deliver(next.eventId, delays, input.disableAfterMs);
    await settleWebhookEvent(next);
    if (stop) return;
    handled++;
    if (handled >= maxEvents || workflowInfo().continueAsNewSuggested) {
      return continueAsNew<typeof webhookEndpointWorkflow>(input);
    }
  }
}

/** Tries one event on the schedule; true when the endpoint is gone and the queue must stop. */
async function deliver(eventId: string, delays: number[], disableAfterMs: number | undefined): Promise<boolean> {
  for (const [attempt, delay] of delays.entries()) {
    if (delay > 0) await sleep(delay);
    let outcome: string;
    try {
      // Date.now() is the workflow's deterministic clock (skipped time included).
      outcome = (await attemptWebhookDelivery(eventId, attempt + 1, { at: Date.now(), disableAfterMs })).outcome;
    } catch {
      outcome = "failed";
    }
    if (outcome === "delivered") return false;
    if (outcome === "gone" || outcome === "skipped" || outcome === "disabled") return true;
  }
  return false;
}
