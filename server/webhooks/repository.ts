// Webhook queries. Endpoints, events and deliveries read by the API are always scoped to the
// caller's organization and to live (not deleted) endpoints; the delivery side (the worker) reads
// by id, because it acts for the system, not for a caller.
import type { Knex } from "knex";
import { isUuid } from "../kit/ids.js";

export interface WebhookEndpointRow {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  organization_id: string;
  url: string;
  format: "raw" | "discord" | "slack";
  secret: string;
  events: string[];
  enabled: boolean;
  deleted_at: Date | null;
  /** Start of the current run of failed attempts; null after a success. */
  failing_since?: Date | null;
}

export interface WebhookEventRow {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  organization_id: string;
  endpoint_id: string;
  outbox_id: number;
  type: string;
  payload: string;
  last_http_code: number | null;
  succeeded: boolean | null;
  is_archived: boolean;
  pending: boolean;
  queued: number;
}

export interface WebhookDeliveryRow {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  organization_id: string;
  endpoint_id: string;
  webhook_event_id: string;
  http_code: number | null;
  response: string | null;
  succeeded: boolean;
}

export interface OrganizationScope {
  organizationId: string;
}

export function readableEndpoints(db: Knex, scope: OrganizationScope): Knex.QueryBuilder {
  return db("webhook_endpoints")
    .where("webhook_endpoints.organization_id", scope.organizationId)
    .whereNull("webhook_endpoints.deleted_at");
}

export async function findEndpoint(
  db: Knex,
  scope: OrganizationScope,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<WebhookEndpointRow | undefined> {
  if (!isUuid(id)) return undefined;
  const q = readableEndpoints(db, scope).where("webhook_endpoints.id", id).first("webhook_endpoints.*");
  return (opts.forUpdate ? q.forUpdate() : q) as Promise<WebhookEndpointRow | undefined>;
}

/** Events of the caller's organization, on endpoints that still exist. */
export async function findEvent(
  db: Knex,
  scope: OrganizationScope,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<WebhookEventRow | undefined> {
  if (!isUuid(id)) return undefined;
  const q = db("webhook_events")
    .join("webhook_endpoints", "webhook_endpoints.id", "webhook_events.endpoint_id")
    .where("webhook_events.organization_id", scope.organizationId)
    .whereNull("webhook_endpoints.deleted_at")
    .where("webhook_events.id", id)
    .first("webhook_events.*");
  return (opts.forUpdate ? q.forUpdate("webhook_events") : q) as Promise<WebhookEventRow | undefined>;
}

/** Deliveries joined with their event, prefixed `e_` for the event's columns. */
export function readableDeliveries(db: Knex, scope: OrganizationScope): Knex.QueryBuilder {
  return db("webhook_deliveries")
    .join("webhook_events", "webhook_events.id", "webhook_deliveries.webhook_event_id")
    .join("webhook_endpoints", "webhook_endpoints.id", "webhook_deliveries.endpoint_id")
    .where("webhook_deliveries.organization_id", scope.organizationId)
    .whereNull("webhook_endpoints.deleted_at")
    .select(
      "webhook_deliveries.*",
      "webhook_events.created_at as e_created_at",
      "webhook_events.modified_at as e_modified_at",
      "webhook_events.last_http_code as e_last_http_code",
      "webhook_events.succeeded as e_succeeded",
      "webhook_events.payload as e_payload",
      "webhook_events.type as e_type",
      "webhook_events.is_archived as e_is_archived",
    );
}

export type DeliveryWithEventRow = WebhookDeliveryRow & {
  e_created_at: Date;
  e_modified_at: Date | null;
  e_last_http_code: number | null;
  e_succeeded: boolean | null;
  e_payload: string;
  e_type: string;
  e_is_archived: boolean;
};

// ---- the delivery side --------------------------------------------------------------------

/** The oldest event still queued for a live, enabled endpoint (outbox order), or none. */
export async function nextPendingEvent(db: Knex, endpointId: string): Promise<WebhookEventRow | undefined> {
  return queueOf(db, endpointId).first("webhook_events.*");
}

/** An endpoint's queued events, oldest first, while the endpoint is live and enabled. */
function queueOf(db: Knex, endpointId: string): Knex.QueryBuilder {
  return db("webhook_events")
    .join("webhook_endpoints", "webhook_endpoints.id", "webhook_events.endpoint_id")
    .where("webhook_events.endpoint_id", endpointId)
    .where("webhook_events.pending", true)
    .where("webhook_endpoints.enabled", true)
    .whereNull("webhook_endpoints.deleted_at")
    .orderBy([{ column: "webhook_events.outbox_id" }, { column: "webhook_events.created_at" }]);
}

/** The head of the queue as nextPendingEvent finds it, with its endpoint, in one query. */
export async function nextPendingEventWithEndpoint(db: Knex, endpointId: string): Promise<{ event: WebhookEventRow; endpoint: WebhookEndpointRow } | undefined> {
  const row = await queueOf(db, endpointId).first(db.raw("to_jsonb(webhook_events.*) as event"), db.raw("to_jsonb(webhook_endpoints.*) as endpoint"));
  if (!row) return undefined;
  const { event, endpoint } = row as { event: WebhookEventRow; endpoint: WebhookEndpointRow };
  // Through JSON: timestamps are strings; the delivery side reads only ids, payload and the endpoint's settings.
  return { event, endpoint: { ...endpoint, deleted_at: endpoint.deleted_at ? new Date(endpoint.deleted_at) : null } };
}

export async function eventWithEndpoint(
  db: Knex,
  eventId: string,
): Promise<{ event: WebhookEventRow; endpoint: WebhookEndpointRow } | undefined> {
  const event = (await db("webhook_events").where({ id: eventId }).first()) as WebhookEventRow | undefined;
  if (!event) return undefined;
  const endpoint = (await db("webhook_endpoints").where({ id: event.endpoint_id }).first()) as WebhookEndpointRow;
  return { event, endpoint };
}
