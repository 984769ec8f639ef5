// Webhook queries. Endpoints, events and deliveries read by the API are always scoped to the
// caller's organization and to live (not deleted) endpoints; the delivery side (the worker) reads
// by id, because it acts for the system, not for a caller.
import type { Knex } from "knex";
import type { components } from "../../generated/types.js";
import { isUuid } from "../kit/ids.js";
import { preparedRows } from "../kit/db.js";
import { numberOf } from "../kit/rows.js";

export interface WebhookEndpointRow {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  organization_id: string;
  url: string;
  name: string | null;
  format: "raw" | "discord" | "slack";
  secret: string;
  events: string[];
  enabled: boolean;
  deleted_at: Date | null;
  /** Start of the current run of failed attempts; null after a success. */
  failing_since?: Date | null;
  /** The API version its events' payloads are in (from the next event recorded on). */
  api_version: ApiVersion;
}

export type ApiVersion = components["schemas"]["ApiVersion"];

export interface WebhookEventRow {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  organization_id: string;
  endpoint_id: string;
  outbox_id: number;
  type: string;
  /** As stored: the full payload, which `api_version` shapes when it is sent or shown (./versions.ts). */
  payload: string;
  /** Its endpoint's API version when the event was recorded. */
  api_version: ApiVersion;
  last_http_code: number | null;
  succeeded: boolean | null;
  /** Recorded while the endpoint was disabled, and not sent (until a replay queues it). */
  skipped: boolean;
  is_archived: boolean;
  pending: boolean;
  queued: number;
  /**
   * When the event left its endpoint's ordered queue, having failed for longer than the hold: it is
   * retried on its own while pending; kept after it settles, cleared when it is queued again.
   */
  set_aside_at?: Date | null;
  /** The traceparent of the outbox row's writer (server/kit/telemetry.ts); null when tracing was off. */
  trace_context?: string | null;
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
  return db("webhook_endpoints").where("webhook_endpoints.organization_id", scope.organizationId).whereNull("webhook_endpoints.deleted_at");
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
      "webhook_events.skipped as e_skipped",
      "webhook_events.payload as e_payload",
      "webhook_events.type as e_type",
      "webhook_events.is_archived as e_is_archived",
      "webhook_events.set_aside_at as e_set_aside_at",
      "webhook_events.api_version as e_api_version",
    );
}

export type DeliveryWithEventRow = WebhookDeliveryRow & {
  e_created_at: Date;
  e_modified_at: Date | null;
  e_last_http_code: number | null;
  e_succeeded: boolean | null;
  e_skipped: boolean;
  e_payload: string;
  e_type: string;
  e_is_archived: boolean;
  e_set_aside_at: Date | null;
  e_api_version: ApiVersion;
};

/**
 * Marks the endpoint's failed events (last attempt failed, not queued, not archived) of `types`
 * (any when empty) created in [from, to] as queued again; returns how many.
 */
export async function requeueFailedEvents(
  trx: Knex.Transaction,
  endpointId: string,
  filter: { types: string[]; from?: Date; to?: Date },
): Promise<number> {
  const q = trx("webhook_events").where({ endpoint_id: endpointId, succeeded: false, pending: false, is_archived: false });
  if (filter.types.length) q.whereIn("type", filter.types);
  if (filter.from) q.where("created_at", ">=", filter.from);
  if (filter.to) q.where("created_at", "<=", filter.to);
  return q.update({ pending: true, skipped: false, queued: trx.raw("queued + 1"), set_aside_at: null, modified_at: new Date() });
}

// ---- the delivery side --------------------------------------------------------------------

/** The oldest event in a live, enabled endpoint's ordered queue (outbox order), or none. */
export async function nextPendingEvent(db: Knex, endpointId: string): Promise<WebhookEventRow | undefined> {
  return queueOf(db, endpointId).first("webhook_events.*");
}

/**
 * An endpoint's ordered queue, oldest first, while the endpoint is live and enabled: its pending
 * events but those set aside (each retried on its own).
 */
function queueOf(db: Knex, endpointId: string): Knex.QueryBuilder {
  return db("webhook_events")
    .join("webhook_endpoints", "webhook_endpoints.id", "webhook_events.endpoint_id")
    .where("webhook_events.endpoint_id", endpointId)
    .where("webhook_events.pending", true)
    .whereNull("webhook_events.set_aside_at")
    .where("webhook_endpoints.enabled", true)
    .whereNull("webhook_endpoints.deleted_at")
    .orderBy([{ column: "webhook_events.outbox_id" }, { column: "webhook_events.created_at" }]);
}

export interface EventWithEndpoint {
  event: WebhookEventRow;
  endpoint: WebhookEndpointRow;
}

/** An event and its endpoint read as JSON (one query, no second read of the endpoint). */
export function eventWithEndpointFromJson({ event, endpoint }: EventWithEndpoint): EventWithEndpoint {
  // Through JSON: timestamps are strings; the delivery side reads only ids, payload and the endpoint's settings.
  return { event, endpoint: Object.assign({}, endpoint, { deleted_at: endpoint.deleted_at ? new Date(endpoint.deleted_at) : null }) };
}

/**
 * queueOf's head with its endpoint, as SQL text: `endpoint` is the endpoint id's placeholder
 * (`$1`, `?`), `extra` one more condition on the event (`w`).
 */
function headOfQueueSql(endpoint: string, extra = ""): string {
  return `select to_jsonb(w.*) as event, to_jsonb(e.*) as endpoint
    from webhook_events w join webhook_endpoints e on e.id = w.endpoint_id
   where w.endpoint_id = ${endpoint} and w.pending and w.set_aside_at is null and e.enabled and e.deleted_at is null${extra}
   order by w.outbox_id, w.created_at
   limit 1`;
}
const nextHeadWithEndpointSql = headOfQueueSql("$1");

/**
 * The head of the queue as nextPendingEvent finds it, with its endpoint, in one query. A named
 * prepared statement without the query builder: a fan-out pokes up to one listening run per
 * endpoint and each reads its queue at once, so this read's own CPU is what the last of them waits for.
 */
export async function nextPendingEventWithEndpoint(db: Knex, endpointId: string): Promise<EventWithEndpoint | undefined> {
  const [row] = await preparedRows<EventWithEndpoint>(db, "webhook_next_head_with_endpoint", nextHeadWithEndpointSql, [endpointId]);
  return row ? eventWithEndpointFromJson(row) : undefined;
}

/**
 * The endpoint's next head as nextPendingEventWithEndpoint reads it, but for one queueing of one
 * event (binding order: endpoint id, event id, its queued count), as the tail of a statement.
 */
const nextHeadSql = headOfQueueSql("?", " and not (w.id = ? and w.queued = ?)");

/**
 * A delivery of one queueing of an event succeeded: its row, the event settled (unless queued
 * again meanwhile), the endpoint's failing span ended, and the queue's next head read, in one
 * statement (the common case of a run through the queue). Returns that head, null when nothing
 * else is queued.
 */
export async function recordDeliveredAndReadNext(
  knex: Knex,
  d: { organizationId: string; endpointId: string; eventId: string; httpCode: number | null; response: string; queued: number },
): Promise<EventWithEndpoint | null> {
  // The statement sees the queue as it was before its own writes: the event just settled is
  // left out of the next head, unless it was queued again meanwhile (then it goes out again).
  const { rows } = await knex.raw<{ rows: EventWithEndpoint[] }>(
    `with delivery as (
       insert into webhook_deliveries (organization_id, endpoint_id, webhook_event_id, http_code, response, succeeded)
       values (?, ?, ?, ?, ?, true)
     ), event as (
       update webhook_events
          set last_http_code = ?, succeeded = true, modified_at = now(), pending = case when queued = ? then false else pending end
        where id = ?
     ), endpoint as (
       update webhook_endpoints set failing_since = null where id = ? and failing_since is not null
     )
     ${nextHeadSql}`,
    [
      d.organizationId,
      d.endpointId,
      d.eventId,
      d.httpCode,
      d.response,
      d.httpCode,
      d.queued,
      d.eventId,
      d.endpointId,
      d.endpointId,
      d.eventId,
      d.queued,
    ],
  );
  return rows[0] ? eventWithEndpointFromJson(rows[0]) : null;
}

/**
 * The fan-out, inside the outbox claim's transaction: one webhook event per claimed row and live
 * endpoint of the row's organization subscribed to its type. A disabled endpoint's event is
 * recorded as not delivered (not queued, not succeeded: a replay sends it once the endpoint is
 * enabled again). Returns the enabled endpoints that got events, whose delivery workflows are to
 * be woken after commit.
 */
export async function fanOut(trx: Knex.Transaction, outboxIds: number[]): Promise<string[]> {
  if (outboxIds.length === 0) return [];
  const { rows } = await trx.raw<{ rows: { endpoint_id: string; pending: boolean }[] }>(
    `insert into webhook_events (organization_id, endpoint_id, outbox_id, type, payload, api_version, trace_context, pending, succeeded, skipped)
     select o.organization_id, e.id, o.id, o.type, o.payload::text, e.api_version, o.trace_context, e.enabled, case when e.enabled then null else false end, not e.enabled
       from outbox o
       join webhook_endpoints e
         on e.organization_id = o.organization_id and e.deleted_at is null and o.type = any(e.events)
      where o.id = any(?::bigint[])
      order by o.id
     on conflict (endpoint_id, outbox_id) do nothing
     returning endpoint_id, pending`,
    [outboxIds],
  );
  return [...new Set(rows.filter((r) => r.pending).map((r) => r.endpoint_id))];
}

/**
 * In the fan-out's transaction, for the endpoints it leased: the head of each one's queue (this
 * fan-out's first event for it: nothing else was queued), with the endpoint; one query for all.
 */
export async function leasedHeads(
  trx: Knex.Transaction,
  endpointIds: string[],
  outboxIds: number[],
): Promise<Map<string, EventWithEndpoint>> {
  if (endpointIds.length === 0) return new Map();
  const { rows } = await trx.raw<{ rows: EventWithEndpoint[] }>(
    `select distinct on (w.endpoint_id) to_jsonb(w.*) as event, to_jsonb(e.*) as endpoint
       from webhook_events w join webhook_endpoints e on e.id = w.endpoint_id
      where w.endpoint_id = any(?::uuid[]) and w.outbox_id = any(?::bigint[]) and w.pending and w.set_aside_at is null
      order by w.endpoint_id, w.outbox_id, w.created_at`,
    [endpointIds, outboxIds],
  );
  return new Map(rows.map((row) => [row.event.endpoint_id, eventWithEndpointFromJson(row)]));
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

// ---- the delivery lease (migration 0012): one run of first attempts per endpoint at a time ----

/** An endpoint row whose delivery lease is free (none, or expired); SQL over webhook_endpoints' columns. */
export const leaseFree = "(delivery_lease is null or delivery_lease_until < clock_timestamp())";

/**
 * Takes the endpoint's delivery lease as `token` for `ms` unless a live one is held: 0 when taken,
 * else how long the live one has left (ms, at least 1). Locks the row first, so a release in
 * progress is waited for rather than seen as held.
 */
export async function takeDeliveryLease(knex: Knex, endpointId: string, token: string, ms: number): Promise<number> {
  return knex.transaction(async (trx) => {
    const row: { free: boolean; left: number } | undefined = await trx("webhook_endpoints")
      .where({ id: endpointId })
      .forUpdate()
      .first(
        trx.raw(`${leaseFree} as free`),
        trx.raw("ceil(extract(epoch from delivery_lease_until - clock_timestamp()) * 1000)::int as left"),
      );
    if (!row) return 0; // deleted meanwhile: the run finds nothing queued
    if (!row.free) return Math.max(1, row.left);
    await trx("webhook_endpoints")
      .where({ id: endpointId })
      .update({ delivery_lease: token, delivery_lease_until: trx.raw("clock_timestamp() + ? * interval '1 millisecond'", [ms]) });
    return 0;
  });
}

/**
 * In the fan-out's transaction: takes the lease of each endpoint that got events and had
 * nothing else in its ordered queue (no event in a retry schedule or waiting for a run; events
 * set aside are retried on their own) and no live lease.
 * Those endpoints are the fan-out's to deliver directly after commit; the others are left to the
 * run that holds them or to their workflow.
 */
export async function leaseIdleEndpoints(
  trx: Knex.Transaction,
  endpointIds: string[],
  outboxIds: number[],
  token: string,
  ms: number,
): Promise<string[]> {
  if (endpointIds.length === 0) return [];
  const { rows } = await trx.raw<{ rows: { id: string }[] }>(
    `update webhook_endpoints e
        set delivery_lease = ?, delivery_lease_until = clock_timestamp() + ? * interval '1 millisecond'
      where e.id = any(?::uuid[]) and ${leaseFree}
        and not exists (select 1 from webhook_events w where w.endpoint_id = e.id and w.pending and w.set_aside_at is null and w.outbox_id <> all(?::bigint[]))
      returning e.id`,
    [token, ms, endpointIds, outboxIds],
  );
  return rows.map((r) => r.id);
}

/** Extends a lease still held; false when it was lost (expired and taken by another run). */
export async function renewDeliveryLease(knex: Knex, endpointId: string, token: string, ms: number): Promise<boolean> {
  const n = await knex("webhook_endpoints")
    .where({ id: endpointId, delivery_lease: token })
    .update({ delivery_lease_until: knex.raw("clock_timestamp() + ? * interval '1 millisecond'", [ms]) });
  return n > 0;
}

/**
 * Gives the lease up only if nothing is queued for the endpoint while it is live and enabled (the
 * queue as nextPendingEvent reads it, checked in the same statement);
 * false: events are queued, the holder reads them. The caller has closed its listener before, so
 * an event committed after this statement's snapshot was not handed to it: its fan-out (or
 * redelivery) signalled the workflow, whose run takes the lease next.
 */
export async function releaseIdleDeliveryLease(knex: Knex, endpointId: string, token: string): Promise<boolean> {
  const { rows } = await knex.raw<{ rows: unknown[] }>(
    `update webhook_endpoints e set delivery_lease = null, delivery_lease_until = null
      where e.id = ? and e.delivery_lease = ?
        and (not e.enabled or e.deleted_at is not null
             or not exists (select 1 from webhook_events w where w.endpoint_id = e.id and w.pending and w.set_aside_at is null))
      returning e.id`,
    [endpointId, token],
  );
  return rows.length > 0;
}

/** Gives the lease up whatever is queued (a failed head handed to the workflow, a run out of budget). */
export async function releaseDeliveryLease(knex: Knex, endpointId: string, token: string): Promise<void> {
  await knex("webhook_endpoints")
    .where({ id: endpointId, delivery_lease: token })
    .update({ delivery_lease: null, delivery_lease_until: null });
}

export async function insertEndpoint(
  db: Knex,
  columns: Pick<WebhookEndpointRow, "organization_id" | "url" | "name" | "format" | "secret" | "events" | "api_version">,
): Promise<WebhookEndpointRow> {
  const [row] = await db<WebhookEndpointRow>("webhook_endpoints").insert(columns).returning("*");
  return row as WebhookEndpointRow;
}

/** Writes `patch` with modified_at and returns the endpoint. */
export async function updateEndpoint(db: Knex, id: string, patch: Record<string, unknown>): Promise<WebhookEndpointRow> {
  const [updated] = await db<WebhookEndpointRow>("webhook_endpoints")
    .where({ id })
    .update(Object.assign({}, patch, { modified_at: new Date() }))
    .returning("*");
  return updated as WebhookEndpointRow;
}

/**
 * Queues the event once more (a redelivery), in its endpoint's ordered queue even if it was set
 * aside: its delivery goes out again with the same webhook-id.
 */
export async function requeueEvent(trx: Knex.Transaction, eventId: string): Promise<void> {
  await trx("webhook_events")
    .where({ id: eventId })
    .update({ pending: true, skipped: false, queued: trx.raw("queued + 1"), set_aside_at: null, modified_at: new Date() });
}

/**
 * Takes this queueing of the event out of its endpoint's ordered queue (set aside, retried on its
 * own); false when it is no longer pending as that queueing (settled, or queued again). Setting it
 * aside again changes nothing, so a retried call answers the same.
 */
export async function setAsideQueuedEvent(db: Knex, eventId: string, queued: number): Promise<boolean> {
  const { rows } = await db.raw<{ rows: unknown[] }>(
    `update webhook_events
        set set_aside_at = coalesce(set_aside_at, now()), modified_at = case when set_aside_at is null then now() else modified_at end
      where id = ? and queued = ? and pending
      returning id`,
    [eventId, queued],
  );
  return rows.length > 0;
}

/** The event is no longer queued, unless it was queued again since `queued` (a redelivery). */
export async function settleQueuedEvent(db: Knex, eventId: string, queued: number): Promise<void> {
  await db("webhook_events").where({ id: eventId, queued }).update({ pending: false });
}

/** One delivery attempt: its row, and the event's last HTTP code and success. */
export async function recordDeliveryAttempt(
  trx: Knex.Transaction,
  attempt: {
    organizationId: string;
    endpointId: string;
    eventId: string;
    httpCode: number | null;
    response: string;
    succeeded: boolean;
    now: Date;
  },
): Promise<void> {
  await trx("webhook_deliveries").insert({
    organization_id: attempt.organizationId,
    endpoint_id: attempt.endpointId,
    webhook_event_id: attempt.eventId,
    http_code: attempt.httpCode,
    response: attempt.response,
    succeeded: attempt.succeeded,
  });
  await trx("webhook_events")
    .where({ id: attempt.eventId })
    .update({ last_http_code: attempt.httpCode, succeeded: attempt.succeeded, modified_at: attempt.now });
}

export async function disableEndpoint(trx: Knex.Transaction, id: string, now: Date): Promise<void> {
  await trx("webhook_endpoints").where({ id }).update({ enabled: false, modified_at: now });
}

/** A success ends the endpoint's failing span. */
export async function clearFailingSince(trx: Knex.Transaction, id: string): Promise<void> {
  await trx("webhook_endpoints").where({ id }).whereNotNull("failing_since").update({ failing_since: null });
}

/** The endpoint's health, locked: since when every delivery failed, and whether it is still enabled. */
export async function lockEndpointHealth(
  trx: Knex.Transaction,
  id: string,
): Promise<{ failing_since: Date | null; enabled: boolean } | undefined> {
  return trx("webhook_endpoints").where({ id }).forUpdate().first("failing_since", "enabled");
}

export async function markFailingSince(trx: Knex.Transaction, id: string, at: Date): Promise<void> {
  await trx("webhook_endpoints").where({ id }).update({ failing_since: at });
}

/** A notice to the organization (the table is the webhooks migration's: an endpoint disabled). */
export async function insertOrganizationNotification(
  trx: Knex.Transaction,
  organizationId: string,
  type: string,
  payload: Record<string, unknown>,
): Promise<void> {
  await trx("organization_notifications").insert({ organization_id: organizationId, type, payload: JSON.stringify(payload) });
}

// The pending events in two parts, each read through its partial index (migration 0067): the
// ordered queues' and those set aside.
const queuedPart = "from webhook_events where pending and set_aside_at is null";
const setAsidePart = "from webhook_events where pending and set_aside_at is not null";

/** Webhook events not delivered yet, set-aside ones included (an operators' gauge, server/observability/metrics.ts). */
export function countPendingEvents(db: Knex): Promise<number> {
  return numberOf(db.raw(`select (select count(*) ${queuedPart}) + (select count(*) ${setAsidePart}) as v`));
}

/** Age in seconds of the oldest webhook event not delivered yet, set-aside ones included, 0 with none (an operators' gauge). */
export function pendingEventsLagSeconds(db: Knex): Promise<number> {
  return numberOf(
    db.raw(
      `select coalesce(extract(epoch from now() - least((select min(created_at) ${queuedPart}), (select min(created_at) ${setAsidePart}))), 0) as v`,
    ),
  );
}

/** Delivery attempts that failed in the last hour (an operators' gauge). */
export function countFailedDeliveriesLastHour(db: Knex): Promise<number> {
  return numberOf(db.raw("select count(*) as v from webhook_deliveries where not succeeded and created_at > now() - interval '1 hour'"));
}

/**
 * Endpoints (live, enabled) with events still in their ordered queue and no live delivery lease (a
 * run holding one delivers them; a lease of a run lost with its worker expires, then its endpoint
 * is listed). Events set aside are their own workflows' and list nothing.
 */
export async function queuedEndpoints(knex: Knex): Promise<string[]> {
  return knex("webhook_events")
    .join("webhook_endpoints", "webhook_endpoints.id", "webhook_events.endpoint_id")
    .where("webhook_events.pending", true)
    .whereNull("webhook_events.set_aside_at")
    .where("webhook_endpoints.enabled", true)
    .whereNull("webhook_endpoints.deleted_at")
    .whereRaw(leaseFree)
    .distinct("webhook_events.endpoint_id as endpoint_id")
    .then((rows: { endpoint_id: string }[]) => rows.map((r) => r.endpoint_id));
}

// ---- the queue as the merchant reads it ---------------------------------------------------------

/** An event waiting in its endpoint's queue, with its deliveries' count and the last one. */
export interface QueuedEventRow {
  id: string;
  type: string;
  created_at: Date;
  attempts: number;
  last_attempt_at: Date | null;
  last_http_code: number | null;
  last_response: string | null;
  last_succeeded: boolean | null;
}

/**
 * The endpoint's waiting events in queue order (pending and not set aside, enabled or not), the
 * first `limit` with their attempts, and how many there are.
 */
export async function endpointQueue(db: Knex, endpointId: string, limit: number): Promise<{ rows: QueuedEventRow[]; total: number }> {
  const waiting = () => db("webhook_events").where({ endpoint_id: endpointId, pending: true }).whereNull("set_aside_at");
  const [{ count }] = await waiting().count<{ count: string }[]>("* as count");
  const rows = await waiting()
    .joinRaw(
      `left join lateral (select d.created_at, d.http_code, d.response, d.succeeded from webhook_deliveries d
          where d.webhook_event_id = webhook_events.id order by d.created_at desc limit 1) last on true`,
    )
    .select(
      "webhook_events.id",
      "webhook_events.type",
      "webhook_events.created_at",
      db.raw("(select count(*)::int from webhook_deliveries d where d.webhook_event_id = webhook_events.id) as attempts"),
      "last.created_at as last_attempt_at",
      "last.http_code as last_http_code",
      "last.response as last_response",
      "last.succeeded as last_succeeded",
    )
    .orderBy([{ column: "webhook_events.outbox_id" }, { column: "webhook_events.created_at" }])
    .limit(limit);
  return { rows, total: Number(count) };
}

/** The event at the head of the endpoint's queue (enabled or not), or none. */
export async function queueHead(db: Knex, endpointId: string): Promise<{ id: string } | undefined> {
  return db("webhook_events")
    .where({ endpoint_id: endpointId, pending: true })
    .whereNull("set_aside_at")
    .orderBy([{ column: "outbox_id" }, { column: "created_at" }])
    .first("id");
}

/**
 * Takes the event out of its endpoint's queue, unsent: a new queueing number, so a run in flight
 * neither sends nor settles it as its own; its failed attempts stay (a replay can send it again).
 */
export async function skipQueuedEvent(trx: Knex.Transaction, eventId: string): Promise<void> {
  await trx("webhook_events")
    .where({ id: eventId })
    .update({ pending: false, queued: trx.raw("queued + 1"), modified_at: new Date() });
}
