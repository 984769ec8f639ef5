// How the API wakes endpoint delivery workflows (after a redelivery commits): a Temporal client
// connected on first use to TEMPORAL_ADDRESS, on the Borealis task queue. Tests and embedders may
// swap the waker (another client, namespace or task queue).
import { createTemporalClient } from "../../workflows/client.js";
import { temporalWebhookWaker, type WebhookWaker } from "../../workflows/activities/webhooks.js";
import { BOREALIS_TASK_QUEUE } from "../../workflows/shared/task-queues.js";

let waker: WebhookWaker | null = null;

export function getWebhookWaker(): WebhookWaker {
  if (!waker) {
    const client = createTemporalClient(process.env.TEMPORAL_ADDRESS ?? "127.0.0.1:7233", process.env.TEMPORAL_NAMESPACE ?? "default");
    // A failed connection is retried on the next request instead of being cached.
    client.catch(() => {
      waker = null;
    });
    waker = temporalWebhookWaker(client, BOREALIS_TASK_QUEUE);
  }
  return waker;
}

export function setWebhookWaker(w: WebhookWaker | null): void {
  waker = w;
}
