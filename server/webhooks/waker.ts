// How the API wakes endpoint delivery workflows (after a redelivery commits): a Temporal client
// connected on first use to TEMPORAL_ADDRESS, on the Borealis task queue. Tests and embedders may
// swap the waker (another client, namespace or task queue).
import { temporalPort } from "../../workflows/client.js";
import { temporalWebhookWaker, type WebhookWaker } from "../../workflows/activities/webhooks.js";
import { BOREALIS_TASK_QUEUE } from "../../workflows/shared/task-queues.js";

const port = temporalPort((client) => temporalWebhookWaker(client, BOREALIS_TASK_QUEUE));

export function getWebhookWaker(): WebhookWaker {
  return port.get();
}

export function setWebhookWaker(w: WebhookWaker | null): void {
  port.set(w);
}
