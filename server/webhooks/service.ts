// Webhook endpoint rules: the URL policy (server/webhooks/url.ts), a `whsec_` secret generated
// when none is given and on reset, events deduplicated, soft delete; the deliveries list; and
// redelivery, which queues the event again for its endpoint's delivery workflow (same event id,
// so the same webhook-id) and wakes that workflow after commit.
import type { OpBody } from "../../generated/handlers.js";
import type { components } from "../../generated/types.js";
import type { Knex } from "knex";
import type { OrganizationCaller } from "../kit/auth.js";
import { randomToken } from "../kit/auth.js";
import { invalid, ResourceNotFound } from "../kit/errors.js";
import { asList, isUuid } from "../kit/ids.js";
import { logger } from "../kit/logger.js";
import { listPage, type Page } from "../kit/pagination.js";
import {
  toWebhookDelivery,
  toWebhookEndpoint,
  toWebhookQueuedEvent,
  type WebhookDeliveryOut,
  type WebhookEndpointOut,
  type WebhookEventType,
} from "./models.js";
import {
  endpointQueue,
  findEndpoint,
  findEvent,
  queueHead,
  skipQueuedEvent,
  insertEndpoint,
  readableDeliveries,
  readableEndpoints,
  requeueEvent,
  requeueFailedEvents,
  updateEndpoint,
  type ApiVersion,
  type DeliveryWithEventRow,
  type WebhookEndpointRow,
} from "./repository.js";
import { checkWebhookUrl } from "./url.js";
import { workflowsDoor } from "../workflows-door.js";
import { afterCommit } from "../kit/after-commit.js";

export type WebhookEndpointCreateInput = OpBody<"webhooks:create_webhook_endpoint">;

export type WebhookEndpointUpdateInput = OpBody<"webhooks:update_webhook_endpoint">;

export interface WebhookListQuery {
  organization_id?: string | string[] | null;
  endpoint_id?: string | string[] | null;
  /** Borealis extensions of the deliveries list: the event's type, the attempt's outcome and time. */
  event_type?: WebhookEventType | WebhookEventType[] | null;
  succeeded?: boolean | null;
  start_timestamp?: string | null;
  end_timestamp?: string | null;
  query?: string | null;
  http_code_class?: "2xx" | "3xx" | "4xx" | "5xx" | null;
  page?: number;
  limit?: number;
}

export type WebhookReplayInput = OpBody<"webhooks:replay_failed_events">;

/** A window's bounds, checked in order (422 on the end when it is before the start). */
function windowOf(start: string | null | undefined, end: string | null | undefined, loc: "query" | "body"): { from?: Date; to?: Date } {
  const from = start ? new Date(start) : undefined;
  const to = end ? new Date(end) : undefined;
  if (from && to && to < from) throw invalid([loc, "end_timestamp"], "The end is before the start.", "value_error", end);
  return { from, to };
}

function notFound(what = "Webhook endpoint"): ResourceNotFound {
  return new ResourceNotFound(`${what} not found.`);
}

export function newSecret(): string {
  return randomToken("whsec_", 32);
}

function checkSecret(secret: string): string {
  if (secret.length < 8) throw invalid(["body", "secret"], "String should have at least 8 characters", "string_too_short", secret);
  return secret;
}

const uniqueEvents = (events: WebhookEventType[]) => [...new Set(events)];

/** A name, trimmed; none when blank. */
const checkName = (name: string | null | undefined) => name?.trim() || null;

/** `version`: the API version the creating call speaks, the endpoint's unless the input names one. */
export async function createWebhookEndpoint(
  db: Knex,
  caller: OrganizationCaller,
  input: WebhookEndpointCreateInput,
  version: ApiVersion,
): Promise<WebhookEndpointOut> {
  if (input.organization_id && input.organization_id !== caller.organizationId) {
    throw invalid(["body", "organization_id"], "Organization not found or not accessible with this token.");
  }
  const url = checkWebhookUrl(input.url);
  const secret = input.secret === undefined || input.secret === null ? newSecret() : checkSecret(input.secret);
  const row = await insertEndpoint(db, {
    organization_id: caller.organizationId,
    url,
    name: checkName(input.name),
    format: input.format,
    secret,
    events: uniqueEvents(input.events),
    api_version: input.api_version ?? version,
  });
  return toWebhookEndpoint(row);
}

export async function getWebhookEndpoint(db: Knex, caller: OrganizationCaller, id: string): Promise<WebhookEndpointOut> {
  const row = await findEndpoint(db, caller, id);
  if (!row) throw notFound();
  return toWebhookEndpoint(row);
}

export async function listWebhookEndpoints(
  db: Knex,
  caller: OrganizationCaller,
  query: WebhookListQuery,
): Promise<Page<WebhookEndpointOut>> {
  const q = readableEndpoints(db, caller).select("webhook_endpoints.*");
  const orgs = asList(query.organization_id);
  if (orgs.length) q.whereIn("webhook_endpoints.organization_id", orgs.filter(isUuid));
  q.orderBy([{ column: "webhook_endpoints.created_at", order: "desc" }, { column: "webhook_endpoints.id" }]);
  return listPage(q, query, (rows: WebhookEndpointRow[]) => rows.map(toWebhookEndpoint));
}

async function patchEndpoint(
  db: Knex,
  caller: OrganizationCaller,
  id: string,
  patch: (row: WebhookEndpointRow, trx: Knex.Transaction) => Record<string, unknown>,
) {
  return db.transaction(async (trx) => {
    const row = await findEndpoint(trx, caller, id, { forUpdate: true });
    if (!row) throw notFound();
    return toWebhookEndpoint(await updateEndpoint(trx, row.id, patch(row, trx)));
  });
}

/** Wakes the endpoint's delivery workflow once what it is to send is committed. */
function wakeAfterCommit(trx: Knex.Transaction, endpointId: string): void {
  // The wake-up only saves waiting for the worker's backstop sweep.
  afterCommit(trx, () =>
    workflowsDoor()
      .wakeWebhookEndpoints([endpointId])
      .catch((err: unknown) => {
        logger.warn({ err, endpointId }, "could not wake the webhook delivery workflow; the worker's sweep will start it");
      }),
  );
}

export async function updateWebhookEndpoint(
  db: Knex,
  caller: OrganizationCaller,
  id: string,
  input: WebhookEndpointUpdateInput,
): Promise<WebhookEndpointOut> {
  const patch: Record<string, unknown> = {};
  if (input.url !== undefined && input.url !== null) patch.url = checkWebhookUrl(input.url);
  if (input.secret !== undefined && input.secret !== null) patch.secret = checkSecret(input.secret);
  if (input.format !== undefined && input.format !== null) patch.format = input.format;
  if (input.events !== undefined && input.events !== null) patch.events = uniqueEvents(input.events);
  if (input.name !== undefined) patch.name = checkName(input.name);
  if (input.api_version !== undefined && input.api_version !== null) patch.api_version = input.api_version;
  return patchEndpoint(db, caller, id, (row, trx) => {
    if (input.enabled === false) patch.enabled = false;
    if (input.enabled === true && !row.enabled) {
      // Only to an address the URL policy allows now; its failing span starts over.
      try {
        checkWebhookUrl(patch.url ?? row.url);
      } catch {
        throw invalid(
          ["body", "enabled"],
          "Cannot enable a webhook endpoint whose URL is not allowed. Update the URL first.",
          "value_error",
          true,
        );
      }
      Object.assign(patch, { enabled: true, failing_since: null });
      wakeAfterCommit(trx, row.id);
    }
    return patch;
  });
}

export async function resetWebhookEndpointSecret(db: Knex, caller: OrganizationCaller, id: string): Promise<WebhookEndpointOut> {
  return patchEndpoint(db, caller, id, () => ({ secret: newSecret() }));
}

/** Soft delete: its events and deliveries stay for the record; its queue stops. */
export async function deleteWebhookEndpoint(db: Knex, caller: OrganizationCaller, id: string): Promise<void> {
  await patchEndpoint(db, caller, id, () => ({ deleted_at: new Date() }));
}

export async function listWebhookDeliveries(
  db: Knex,
  caller: OrganizationCaller,
  query: WebhookListQuery,
): Promise<Page<WebhookDeliveryOut>> {
  const q = readableDeliveries(db, caller);
  const endpoints = asList(query.endpoint_id);
  if (endpoints.length) q.whereIn("webhook_deliveries.endpoint_id", endpoints.filter(isUuid));
  const types = asList(query.event_type);
  if (types.length) q.whereIn("webhook_events.type", types);
  if (typeof query.succeeded === "boolean") q.where("webhook_deliveries.succeeded", query.succeeded);
  const { from, to } = windowOf(query.start_timestamp, query.end_timestamp, "query");
  if (from) q.where("webhook_deliveries.created_at", ">=", from);
  if (to) q.where("webhook_deliveries.created_at", "<=", to);
  if (query.query) {
    const like = `%${query.query.replace(/[\\%_]/g, "\\$&")}%`;
    q.where((w) =>
      w
        .whereRaw("webhook_deliveries.id::text ilike ?", [like])
        .orWhereRaw("webhook_deliveries.webhook_event_id::text ilike ?", [like])
        .orWhereRaw("webhook_deliveries.http_code::text ilike ?", [like]),
    );
  }
  if (query.http_code_class) {
    // "4xx": 400 to 499; a delivery without an answer (no http_code) is in no class.
    const low = Number(query.http_code_class[0]) * 100;
    q.where("webhook_deliveries.http_code", ">=", low).where("webhook_deliveries.http_code", "<", low + 100);
  }
  q.orderBy([{ column: "webhook_deliveries.created_at", order: "desc" }, { column: "webhook_deliveries.id" }]);
  return listPage(q, query, (rows: DeliveryWithEventRow[]) => rows.map(toWebhookDelivery));
}

/** Queues the event again; its endpoint's workflow delivers it with the same webhook-id. */
export async function redeliverWebhookEvent(db: Knex, caller: OrganizationCaller, id: string): Promise<null> {
  await db.transaction(async (trx) => {
    const event = await findEvent(trx, caller, id, { forUpdate: true });
    if (!event) throw notFound("Webhook event");
    if (event.is_archived) throw invalid(["path", "id"], "Archived events can't be redelivered.", "value_error", id);
    await requeueEvent(trx, event.id);
    // Once the event is durably queued.
    wakeAfterCommit(trx, event.endpoint_id);
  });
  return null;
}

/**
 * Queues again every event of the endpoint whose last delivery failed (succeeded = false, not
 * queued already, not archived), of the given types and created in the window: one UPDATE with
 * the endpoint row locked, however many events match (polar#8635: never load them all). The
 * endpoint's workflow sends them in order, each with its own webhook-id, as a redelivery does.
 */
export async function replayFailedEvents(
  db: Knex,
  caller: OrganizationCaller,
  endpointId: string,
  input: WebhookReplayInput,
): Promise<{ replayed: number }> {
  const { from, to } = windowOf(input.start_timestamp, input.end_timestamp, "body");
  const replayed = await db.transaction(async (trx) => {
    const endpoint = await findEndpoint(trx, caller, endpointId, { forUpdate: true });
    if (!endpoint) throw notFound();
    return requeueFailedEvents(trx, endpoint.id, { types: input.event_type ?? [], from, to });
  });
  if (replayed > 0) {
    await workflowsDoor()
      .wakeWebhookEndpoints([endpointId])
      .catch((err: unknown) => {
        logger.warn({ err, endpointId }, "could not wake the webhook delivery workflow; the worker's sweep will start it");
      });
  }
  return { replayed };
}

export type WebhookQueueOut = components["schemas"]["WebhookQueue"];

/** How many of the queue's events are listed. */
const QUEUE_SHOWN = 100;

/** The endpoint's ordered queue, oldest first: the head being delivered and what waits behind it. */
export async function getWebhookQueue(db: Knex, caller: OrganizationCaller, endpointId: string): Promise<WebhookQueueOut> {
  const endpoint = await findEndpoint(db, caller, endpointId);
  if (!endpoint) throw notFound();
  const { rows, total } = await endpointQueue(db, endpoint.id, QUEUE_SHOWN);
  return { items: rows.map(toWebhookQueuedEvent), total };
}

/**
 * Takes the queue's head out of it, unsent, so the events behind it go on; `eventId` must still be
 * the head (the endpoint row locked, so two skips cannot both take the same head). The endpoint's
 * workflow is woken after commit and reads the queue again.
 */
export async function skipWebhookQueueHead(
  db: Knex,
  caller: OrganizationCaller,
  endpointId: string,
  eventId: string,
): Promise<WebhookQueueOut> {
  await db.transaction(async (trx) => {
    const endpoint = await findEndpoint(trx, caller, endpointId, { forUpdate: true });
    if (!endpoint) throw notFound();
    const head = await queueHead(trx, endpoint.id);
    if (head?.id !== eventId)
      throw invalid(["body", "event_id"], "This event is not at the head of the queue (any more).", "value_error", eventId);
    await skipQueuedEvent(trx, eventId);
    wakeAfterCommit(trx, endpoint.id);
  });
  return getWebhookQueue(db, caller, endpointId);
}
