// Webhook delivery: one workflow per endpoint (`webhook-endpoint:<id>`) working through its queue
// (webhook_events rows) in outbox order, so deliveries keep event order; woken by
// `webhookEventsSignal`, and after first attempts made directly (server/webhooks/direct.ts). Each
// event follows the Standard Webhooks retry schedule (about three days); an event failing past
// `holdMs` is set aside to a child workflow (webhook-event.ts) so the rest go on. docs/CONTRACT.md.
import {
  condition,
  continueAsNew,
  ParentClosePolicy,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  startChild,
  workflowInfo,
} from "@temporalio/workflow";
import type { WebhookActivities } from "../activities/webhooks.js";
import { webhookEventWorkflowId } from "../shared/ids.js";
import { webhookEventsSignal, type QueuedEvent } from "../shared/webhooks.js";
import type { WebhookEndpointStart } from "../shared/workflows.js";
import { outcomeOf, webhookEventWorkflow } from "./webhook-event.js";

type QueueRun = Awaited<ReturnType<WebhookActivities["deliverQueuedWebhooks"]>>;

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** The wait before each attempt of one event. */
export const WEBHOOK_RETRY_DELAYS_MS = [
  0,
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
  14 * HOUR,
  20 * HOUR,
  24 * HOUR,
];

/** WEBHOOK_HOLD_MS's default; the door passes the setting's value. */
export const DEFAULT_WEBHOOK_HOLD_MS = HOUR;

/**
 * Defaults: WEBHOOK_RETRY_DELAYS_MS, idle 1 minute, listening 5 s (0: none), 100 events per run,
 * the worker's WEBHOOK_DISABLE_AFTER_MS, a hold of DEFAULT_WEBHOOK_HOLD_MS.
 */
export type WebhookEndpointWorkflowInput = WebhookEndpointStart;

const { attemptWebhookDelivery } = proxyActivities<WebhookActivities>({
  // 10 s HTTP timeout plus the database writes.
  startToCloseTimeout: "30 seconds",
  // No retries of its own, so the schedule stays exact: a failed activity counts as a failed attempt.
  retry: { maximumAttempts: 1 },
});

// A run of first attempts: its budget (15 s) for starting attempts, plus the last attempt's 10 s
// timeout and the database writes. A local activity: it runs inside this workflow's task on the
// worker that holds the run, without the three server round trips of a scheduled activity (the
// common path, one run per wake-up, costs the Temporal server little). Once the queue is empty
// the run listens for `listenMs` more: events fanned out meanwhile are handed to it in process
// and delivered without a signal or a workflow task each (a run longer than 8 s heartbeats its
// workflow task, about one task per 8 s for a busy endpoint). A run lost with its worker is made
// again by the worker that takes the workflow over (same webhook-id).
const { deliverQueuedWebhooks } = proxyLocalActivities<WebhookActivities>({
  startToCloseTimeout: "45 seconds",
  retry: { maximumAttempts: 1 },
});

const { nextWebhookEvent, settleWebhookEvent, setAsideWebhookEvent } = proxyActivities<WebhookActivities>({
  startToCloseTimeout: "30 seconds",
  // Bookkeeping only: keep trying while the database is away.
  retry: { initialInterval: "1 second", backoffCoefficient: 2, maximumInterval: "1 minute" },
});

/**
 * What to do next: an event to go on with from attempt index `from`, or the queue's state; `busyMs`:
 * another run (a direct one, or a run of this workflow lost with its worker) holds the endpoint that long.
 */
type Head = { event: QueuedEvent; from: number } | { busyMs: number } | "empty" | "more" | "stop";

export async function webhookEndpointWorkflow(input: WebhookEndpointWorkflowInput): Promise<void> {
  const delays = input.retryDelaysMs?.length ? input.retryDelaysMs : WEBHOOK_RETRY_DELAYS_MS;
  const idleMs = input.idleMs ?? MINUTE;
  const listenMs = input.listenMs ?? 5 * SECOND;
  const maxEvents = input.maxEvents ?? 100;
  let woken = false;
  let handedOver = input.handedOver;
  setHandler(webhookEventsSignal, (handOver) => {
    woken = true;
    if (handOver) handedOver = handOver.failed;
  });
  const holdMs = input.holdMs ?? DEFAULT_WEBHOOK_HOLD_MS;

  let handled = 0;
  let idleEnded = false;

  /** The first attempts of whatever is ready, in one activity; the head that failed, if any. */
  async function firstAttempts(): Promise<Head> {
    let run: QueueRun;
    try {
      run = await deliverQueuedWebhooks(input.endpointId, { at: Date.now(), disableAfterMs: input.disableAfterMs, listenMs });
    } catch {
      // The run was lost (worker killed, database down): its attempt in flight counts as failed.
      const next = await nextWebhookEvent(input.endpointId);
      return next === null ? "empty" : { event: next, from: 1 };
    }
    handled += run.delivered;
    if (run.head === null) return run.more ? "more" : run.busyMs ? { busyMs: run.busyMs } : "empty";
    const event = { eventId: run.head.eventId, queued: run.head.queued };
    if (run.head.outcome === "failed") return { event, from: 1 };
    // Gone, disabled or skipped: the queue stops.
    await settleWebhookEvent(event);
    return "stop";
  }

  /**
   * Takes the event out of the ordered queue and starts the rest of its schedule, from attempt index
   * `from`, in a workflow of its own that outlives this run. Not set aside when a redelivery queued
   * it again meanwhile: the queue's next read finds it at the head again.
   */
  async function setAside(event: QueuedEvent, from: number): Promise<void> {
    if (!(await setAsideWebhookEvent(event))) return;
    // Once per queueing: a set-aside queueing never comes back to the ordered queue.
    await startChild(webhookEventWorkflow, {
      workflowId: webhookEventWorkflowId(event.eventId, event.queued),
      args: [{ endpointId: input.endpointId, event, retryDelaysMs: delays, from, disableAfterMs: input.disableAfterMs }],
      parentClosePolicy: ParentClosePolicy.ABANDON,
    });
  }

  /** A hand-over still at the queue's head goes on from attempt 2 (a stale one is dropped). */
  async function handedOverHead(event: QueuedEvent): Promise<Head | null> {
    const next = await nextWebhookEvent(input.endpointId);
    return next?.eventId === event.eventId && next.queued === event.queued ? { event: next, from: 1 } : null;
  }

  /**
   * Waits `ms` before the head's next attempt; false as soon as a wake-up finds it no longer at the
   * head as that queueing (the merchant skipped or redelivered it), so that takes effect at once.
   */
  async function waitAtHead(event: QueuedEvent, ms: number): Promise<boolean> {
    const until = Date.now() + ms;
    for (let left = ms; left > 0; left = until - Date.now()) {
      woken = false;
      if (!(await condition(() => woken, left))) return true;
      const next = await nextWebhookEvent(input.endpointId);
      if (next?.eventId !== event.eventId || next.queued !== event.queued) return false;
    }
    return true;
  }

  for (;;) {
    if (handled >= maxEvents || workflowInfo().continueAsNewSuggested) {
      return continueAsNew<typeof webhookEndpointWorkflow>(Object.assign({}, input, { handedOver }));
    }
    // Cleared before reading the queue: an event queued while the read runs still wakes us.
    woken = false;
    const handed = handedOver;
    handedOver = undefined;
    const head = (handed ? await handedOverHead(handed) : null) ?? (await firstAttempts());
    if (head === "stop") return;
    if (head === "more") {
      idleEnded = false;
      continue;
    }
    if (head === "empty" || "busyMs" in head) {
      // Idle for idleMs and the queue read once more (a lost wake-up): the next fan-out starts a new run.
      // Busy: the other run delivers what is queued or hands it over; read again once its lease is over.
      if (idleEnded) return;
      idleEnded = !(await condition(() => woken, head === "empty" ? idleMs : Math.min(head.busyMs + 100, idleMs)));
      continue;
    }
    idleEnded = false;
    const done = await deliver(head.event, delays, input.disableAfterMs, head.from, holdMs, waitAtHead);
    // Skipped or redelivered while it waited: read the queue again (this queueing is not settled).
    if (done === "moved") continue;
    if (typeof done === "number") {
      await setAside(head.event, done);
    } else {
      await settleWebhookEvent(head.event);
      if (done === "stop") return;
    }
    handled++;
  }
}

/**
 * Tries one event on the schedule from attempt index `from`: "settle" once delivered or its schedule
 * ran out, "stop" when the endpoint is gone and the queue must stop, or the index of the attempt
 * due past `holdMs` after the first, before which the event is to be set aside.
 */
async function deliver(
  event: QueuedEvent,
  delays: number[],
  disableAfterMs: number | undefined,
  from: number,
  holdMs: number,
  wait: (event: QueuedEvent, ms: number) => Promise<boolean>,
): Promise<"settle" | "stop" | "moved" | number> {
  for (const [attempt, delay] of delays.entries()) {
    if (attempt < from) continue;
    if (attempt > 0 && dueAfterFirst(delays, attempt) > holdMs) return attempt;
    if (delay > 0 && !(await wait(event, delay))) return "moved";
    const outcome = await outcomeOf(() => attemptWebhookDelivery(event, attempt + 1, { at: Date.now(), disableAfterMs }));
    if (outcome === "requeued") return "moved";
    if (outcome === "delivered") return "settle";
    if (outcome === "gone" || outcome === "skipped" || outcome === "disabled") return "stop";
  }
  return "settle";
}

/** When attempt `index` is due, after the first attempt: the schedule's waits since then. */
function dueAfterFirst(delays: number[], index: number): number {
  return delays.slice(1, index + 1).reduce((sum, d) => sum + d, 0);
}
