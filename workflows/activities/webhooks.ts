// Webhook activities: thin adapters over server/webhooks/delivery.ts for the endpoint delivery
// workflow (read the endpoint's next queued event, make one attempt, set an event aside, settle
// it) and a set-aside event's workflow (its attempts), and the worker-side wake-up of delivery
// workflows (the door's, on the worker's own client and queue).
import { Context } from "@temporalio/activity";
import type { AttemptResult, QueuedEvent, QueueRun } from "../../server/webhooks/delivery.js";
import type { HandOver } from "../../server/webhooks/direct.js";
import type { WorkflowsDoor } from "../../server/workflows-door.js";
import type { ActivityDeps } from "./deps.js";

/** What a workflow gives an attempt: its time (ms) and its override of WEBHOOK_DISABLE_AFTER_MS. */
interface WorkflowAttemptOptions {
  at?: number;
  disableAfterMs?: number;
}

export function createWebhookActivities(
  { knex, webhooks }: Pick<ActivityDeps, "knex" | "webhooks">,
  {
    deliveryTimeoutMs,
    maxListeners,
  }: {
    /** The HTTP timeout of one attempt; DELIVERY_TIMEOUT_MS (10 s) unless a test injects a short one. */
    deliveryTimeoutMs?: number;
    /** Runs of first attempts listening at once in this worker at most (DEFAULT_MAX_LISTENERS). */
    maxListeners?: number;
  } = {},
) {
  /** An attempt's options from the workflow's: its clock and disable span, this worker's timeout. */
  const attemptOptions = (opts: WorkflowAttemptOptions) => ({
    at: opts.at === undefined ? undefined : new Date(opts.at),
    disableAfterMs: opts.disableAfterMs,
    timeoutMs: deliveryTimeoutMs,
  });
  return {
    async nextWebhookEvent(endpointId: string): Promise<QueuedEvent | null> {
      return webhooks.nextQueuedEvent(knex, endpointId);
    },
    /**
     * `attempt` (1-based) is for the history and logs. `at` is the workflow's time of the attempt
     * and `disableAfterMs` the workflow's override of WEBHOOK_DISABLE_AFTER_MS (both optional).
     */
    /** One attempt of an event; of a queued event (the queue's head), only while it is queued as that queueing. */
    async attemptWebhookDelivery(event: string | QueuedEvent, attempt: number, opts: WorkflowAttemptOptions = {}): Promise<AttemptResult> {
      void attempt;
      if (typeof event === "string") return webhooks.attemptDelivery(knex, event, attemptOptions(opts));
      return webhooks.attemptQueued(knex, event, attemptOptions(opts));
    },
    /**
     * First attempts of the endpoint's queued events while they deliver (see deliverQueued);
     * with `listenMs`, then listening for the endpoint's next events that long.
     */
    async deliverQueuedWebhooks(endpointId: string, opts: WorkflowAttemptOptions & { listenMs?: number } = {}): Promise<QueueRun> {
      return webhooks.deliverQueued(
        knex,
        endpointId,
        // Worker shutdown or cancellation ends a listening wait at once.
        Object.assign(attemptOptions(opts), { listenMs: opts.listenMs, maxListeners, signal: Context.current().cancellationSignal }),
      );
    },
    async settleWebhookEvent(event: QueuedEvent): Promise<void> {
      await webhooks.settleEvent(knex, event);
    },
    /** Takes the event out of its endpoint's ordered queue; false: it was queued again meanwhile (it stays). */
    async setAsideWebhookEvent(event: QueuedEvent): Promise<boolean> {
      return webhooks.setAsideEvent(knex, event);
    },
    /** One attempt of a set-aside event, as attemptWebhookDelivery's; "requeued" when it is no longer set aside. */
    async attemptSetAsideWebhookDelivery(event: QueuedEvent, attempt: number, opts: WorkflowAttemptOptions = {}): Promise<AttemptResult> {
      void attempt;
      return webhooks.attemptSetAside(knex, event, attemptOptions(opts));
    },
  };
}

export type WebhookActivities = ReturnType<typeof createWebhookActivities>;

/** Wakes (or starts) delivery workflows: the door's wakeWebhookEndpoints (server/workflows-door.ts). */
export type WebhookWaker = WorkflowsDoor["wakeWebhookEndpoints"];

/** Inside an activity: the worker's own client, namespace and task queue. */
export function activityContextWebhookWaker(temporalDoor: ActivityDeps["temporalDoor"]): WebhookWaker {
  return (endpointIds, how) => {
    if (endpointIds.length === 0) return Promise.resolve();
    return boundWebhookWaker(temporalDoor)(endpointIds, how);
  };
}

/** Inside an activity: a waker on the worker's client and task queue that still works after the activity ends. */
export function boundWebhookWaker(temporalDoor: ActivityDeps["temporalDoor"]): WebhookWaker {
  const ctx = Context.current();
  return temporalDoor(ctx.client, ctx.info.taskQueue).wakeWebhookEndpoints;
}

/** A direct run's hand-over to the endpoint's workflow (server/webhooks/direct.ts) through a waker. */
export function handOverThrough(wake: WebhookWaker): HandOver {
  return (endpointId, failed) => wake([endpointId], failed ? { failed } : "signal");
}
