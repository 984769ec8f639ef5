// The webhook delivery shapes both sides of the boundary speak: the queued event a hand-over
// names (server/webhooks/delivery.ts reads and settles it), and the signal that wakes an
// endpoint's delivery workflow.
import { defineSignal } from "@temporalio/workflow";

/** One queued webhook event: its id and the queueing it belongs to (a redelivery queues it again). */
export interface QueuedEvent {
  eventId: string;
  queued: number;
}

/**
 * A direct run (server/webhooks/direct.ts) made this event's first attempt outside the workflow
 * and it failed: the workflow goes on with it from attempt 2, if it is still the queue's head.
 */
export interface WebhookHandOver {
  failed: QueuedEvent;
}

/** "Events were queued for this endpoint" (sent after commit; the table is the truth), or a hand-over. */
export const webhookEventsSignal = defineSignal<[WebhookHandOver?]>("webhookEvents");
