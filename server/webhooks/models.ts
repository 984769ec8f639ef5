// The WebhookEndpoint, WebhookEvent and WebhookDelivery wire shapes.
import type { components } from "../../generated/types.js";
import { iso, isoRequired } from "../kit/time.js";
import type { DeliveryWithEventRow, QueuedEventRow, WebhookEndpointRow, WebhookEventRow } from "./repository.js";
import { payloadOf } from "./versions.js";

export type WebhookEndpointOut = components["schemas"]["WebhookEndpoint"];
export type WebhookEventOut = components["schemas"]["WebhookEvent"];
export type WebhookDeliveryOut = components["schemas"]["WebhookDelivery"];
export type WebhookEventType = components["schemas"]["WebhookEventType"];
export type WebhookFormat = components["schemas"]["WebhookFormat"];
export type WebhookQueuedEventOut = components["schemas"]["WebhookQueuedEvent"];

export function toWebhookEndpoint(row: WebhookEndpointRow): WebhookEndpointOut {
  return {
    created_at: isoRequired(row.created_at),
    modified_at: iso(row.modified_at),
    id: row.id,
    url: row.url,
    name: row.name,
    format: row.format,
    secret: row.secret,
    organization_id: row.organization_id,
    events: row.events as WebhookEventType[],
    enabled: row.enabled,
    api_version: row.api_version,
    // Signed with Polar's original key, the UTF-8 bytes of the whole secret (./signing.ts).
    uses_standard_webhook_signature: false,
  };
}

export function toWebhookEvent(row: WebhookEventRow): WebhookEventOut {
  return {
    created_at: isoRequired(row.created_at),
    modified_at: iso(row.modified_at),
    id: row.id,
    last_http_code: row.last_http_code,
    succeeded: row.succeeded,
    skipped: row.skipped,
    // An archived event's payload is no longer accessible; otherwise it is shown as it is sent.
    payload: row.is_archived ? null : payloadOf(row),
    api_version: row.api_version,
    type: row.type as WebhookEventType,
    is_archived: row.is_archived,
    set_aside_at: iso(row.set_aside_at),
  };
}

export function toWebhookDelivery(row: DeliveryWithEventRow): WebhookDeliveryOut {
  return {
    created_at: isoRequired(row.created_at),
    modified_at: iso(row.modified_at),
    id: row.id,
    succeeded: row.succeeded,
    http_code: row.http_code,
    response: row.response,
    webhook_event: toWebhookEvent({
      id: row.webhook_event_id,
      created_at: row.e_created_at,
      modified_at: row.e_modified_at,
      organization_id: row.organization_id,
      endpoint_id: row.endpoint_id,
      outbox_id: 0,
      type: row.e_type,
      payload: row.e_payload,
      last_http_code: row.e_last_http_code,
      succeeded: row.e_succeeded,
      skipped: row.e_skipped,
      is_archived: row.e_is_archived,
      set_aside_at: row.e_set_aside_at,
      api_version: row.e_api_version,
      pending: false,
      queued: 0,
    }),
  };
}

/** Why the last attempt failed: the endpoint's answer (its status and body), or why there was none. */
function failureOf(row: QueuedEventRow): string | null {
  if (row.last_attempt_at === null || row.last_succeeded) return null;
  const body = (row.last_response ?? "").trim().slice(0, 300);
  if (row.last_http_code === null) return body || "No answer";
  return body ? `HTTP ${row.last_http_code}: ${body}` : `HTTP ${row.last_http_code}`;
}

export function toWebhookQueuedEvent(row: QueuedEventRow): WebhookQueuedEventOut {
  return {
    id: row.id,
    type: row.type as WebhookEventType,
    created_at: isoRequired(row.created_at),
    attempts: row.attempts,
    last_attempt_at: iso(row.last_attempt_at),
    last_http_code: row.last_http_code,
    last_error: failureOf(row),
  };
}
