// Webhook delivery: one workflow per endpoint (id `webhook-endpoint:<endpoint id>`) that works
// through that endpoint's queue of webhook events in outbox order, one event at a time.
//
// Why per endpoint and not per event: deliveries to one endpoint keep event order (for the hold,
// below), and a per-event workflow would need to wait on its predecessors. Here order falls out of
// the loop. The queue itself is the webhook_events table (`pending` rows not set aside), so the
// workflow carries no event data: the outbox fan-out (and a redelivery) writes rows, commits, then signal-with-starts
// this workflow with `webhookEventsSignal`; a running one is woken, a finished one starts again.
// Should that wake-up be lost (Temporal unreachable right after the commit), the worker's backstop
// sweep (workflows/backstop.ts) starts the workflow of every endpoint with queued events that has none.
// An endpoint with nothing queued is not woken at all: the worker that fans its events out makes
// their first attempts directly (server/webhooks/direct.ts) and hands the workflow only what
// fails (`WebhookHandOver`: it goes on from attempt 2) or is left; a run of first attempts, here
// or there, holds the endpoint's delivery lease, so only one works the queue at a time.
//
// Each event is tried on the Standard Webhooks schedule: at once, then after 5 s, 5 min, 30 min,
// 2 h, 5 h, 10 h, 10 h, 14 h, 20 h and 24 h (about three days). The first attempts of whatever is
// queued run in one activity (`deliverQueuedWebhooks`), in order, until one does not deliver:
// a busy endpoint costs one workflow step per batch, not three per event. Every later attempt is
// one activity of its own. No activity retries by itself, so the schedule is exact and
// deterministic; an attempt whose activity fails (worker killed, database down) counts as failed.
// The webhook-id is the event id, so it is the same across every attempt and redelivery. A 410
// disables the endpoint and the queue stops; so does failing every attempt for `disableAfterMs`
// (the attempt activity decides, on this workflow's clock, and tells the organization).
//
// Order is held for a bounded time only (`holdMs`, WEBHOOK_HOLD_MS, 1 hour by default): an event
// is tried in the queue while its next attempt is due within the hold of its first (by default
// the attempts at once, +5 s, +5 min and +30 min). Past it, the event is set aside: it leaves the
// ordered queue (webhook_events.set_aside_at) and goes on with the rest of its schedule in a child
// workflow of its own (webhook-event.ts, abandoned by this one), and the events behind it go on at
// once. So a receiver that rejects one event holds the others back for the hold, not for days.
import {
  condition,
  continueAsNew,
  ParentClosePolicy,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  sleep,
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
    const done = await deliver(head.event.eventId, delays, input.disableAfterMs, head.from, holdMs);
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
  eventId: string,
  delays: number[],
  disableAfterMs: number | undefined,
  from: number,
  holdMs: number,
): Promise<"settle" | "stop" | number> {
  for (const [attempt, delay] of delays.entries()) {
    if (attempt < from) continue;
    if (attempt > 0 && dueAfterFirst(delays, attempt) > holdMs) return attempt;
    if (delay > 0) await sleep(delay);
    const outcome = await outcomeOf(() => attemptWebhookDelivery(eventId, attempt + 1, { at: Date.now(), disableAfterMs }));
    if (outcome === "delivered") return "settle";
    if (outcome === "gone" || outcome === "skipped" || outcome === "disabled") return "stop";
  }
  return "settle";
}

/** When attempt `index` is due, after the first attempt: the schedule's waits since then. */
function dueAfterFirst(delays: number[], index: number): number {
  return delays.slice(1, index + 1).reduce((sum, d) => sum + d, 0);
}
