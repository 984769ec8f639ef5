// HTTP handlers of the webhook operations: endpoints, their secret, deliveries and redelivery.
import { orgCaller, type Handlers } from "../kit/context.js";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  getWebhookQueue,
  listWebhookDeliveries,
  listWebhookEndpoints,
  redeliverWebhookEvent,
  replayFailedEvents,
  resetWebhookEndpointSecret,
  skipWebhookQueueHead,
  updateWebhookEndpoint,
} from "./service.js";

type WebhookOps =
  | "webhooks:create_webhook_endpoint"
  | "webhooks:get_webhook_endpoint"
  | "webhooks:list_webhook_endpoints"
  | "webhooks:update_webhook_endpoint"
  | "webhooks:delete_webhook_endpoint"
  | "webhooks:reset_webhook_endpoint_secret"
  | "webhooks:list_webhook_deliveries"
  | "webhooks:redeliver_webhook_event"
  | "webhooks:replay_failed_events"
  | "webhooks:get_webhook_queue"
  | "webhooks:skip_webhook_queue_head";

export const webhookHandlers: Handlers<WebhookOps> = {
  "webhooks:create_webhook_endpoint": async ({ body }, ctx) => ({
    status: 201,
    body: await createWebhookEndpoint(ctx.db, orgCaller(ctx), body, ctx.apiVersion),
  }),
  "webhooks:get_webhook_endpoint": async ({ params }, ctx) => ({
    status: 200,
    body: await getWebhookEndpoint(ctx.db, orgCaller(ctx), params.id),
  }),
  "webhooks:list_webhook_endpoints": async ({ query }, ctx) => ({
    status: 200,
    body: await listWebhookEndpoints(ctx.db, orgCaller(ctx), query),
  }),
  "webhooks:update_webhook_endpoint": async ({ params, body }, ctx) => ({
    status: 200,
    body: await updateWebhookEndpoint(ctx.db, orgCaller(ctx), params.id, body),
  }),
  "webhooks:delete_webhook_endpoint": async ({ params }, ctx) => {
    await deleteWebhookEndpoint(ctx.db, orgCaller(ctx), params.id);
    return { status: 204, body: null };
  },
  "webhooks:reset_webhook_endpoint_secret": async ({ params }, ctx) => ({
    status: 200,
    body: await resetWebhookEndpointSecret(ctx.db, orgCaller(ctx), params.id),
  }),
  "webhooks:list_webhook_deliveries": async ({ query }, ctx) => ({
    status: 200,
    body: await listWebhookDeliveries(ctx.db, orgCaller(ctx), query),
  }),
  // 202 with a JSON body: the client fails on an empty one (COMPAT).
  "webhooks:redeliver_webhook_event": async ({ params }, ctx) => ({
    status: 202,
    body: await redeliverWebhookEvent(ctx.db, orgCaller(ctx), params.id),
  }),
  // A Borealis extension: every failed event matching the filter, queued again at once.
  "webhooks:replay_failed_events": async ({ params, body }, ctx) => ({
    status: 202,
    body: await replayFailedEvents(ctx.db, orgCaller(ctx), params.id, body),
  }),
  // Borealis extensions: the endpoint's ordered queue, and skipping its head.
  "webhooks:get_webhook_queue": async ({ params }, ctx) => ({
    status: 200,
    body: await getWebhookQueue(ctx.db, orgCaller(ctx), params.id),
  }),
  "webhooks:skip_webhook_queue_head": async ({ params, body }, ctx) => ({
    status: 200,
    body: await skipWebhookQueueHead(ctx.db, orgCaller(ctx), params.id, body.event_id),
  }),
};
