// One delivery attempt of one webhook event, as the worker runs it: sign, POST with a 10 s timeout
// to an address the URL policy allows, then record the attempt and its result in one transaction.
// A 410, or every attempt failing for `disableAfterMs`, disables the endpoint (the latter tells
// the organization). Retries and their schedule belong to the endpoint's delivery workflow.
import http from "node:http";
import https from "node:https";
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import { randomUUID } from "node:crypto";
import type { Knex } from "knex";
import type { QueuedEvent } from "../../workflows/shared/webhooks.js";
import { logger } from "../kit/logger.js";
import { emitInternal } from "../kit/outbox.js";
import { inKeptTrace } from "../kit/telemetry.js";
import { formatBody } from "./formats.js";
import { payloadOf } from "./versions.js";
import {
  clearFailingSince,
  disableEndpoint,
  insertOrganizationNotification,
  lockEndpointHealth,
  markFailingSince,
  recordDeliveredAndReadNext,
  recordDeliveryAttempt,
  setAsideQueuedEvent,
  settleQueuedEvent,
  eventWithEndpoint,
  nextPendingEvent,
  nextPendingEventWithEndpoint,
  releaseDeliveryLease,
  releaseIdleDeliveryLease,
  renewDeliveryLease,
  takeDeliveryLease,
  type EventWithEndpoint,
  type WebhookEndpointRow,
  type WebhookEventRow,
} from "./repository.js";
import { closeListener, dropListener, openListener, waitForPoke } from "./listeners.js";
import { signWebhook } from "./signing.js";
import { refusedAddress } from "./url.js";
import { setting, type Env } from "../config.js";

export const DELIVERY_TIMEOUT_MS = 10_000;
export const RESPONSE_LIMIT = 2048;

/**
 * How long an endpoint may fail every attempt before it is disabled: WEBHOOK_DISABLE_AFTER_MS, by
 * default the retry schedule's whole length (about 3.6 days), so an endpoint is given up exactly
 * when one event has run out its schedule without a single success meanwhile.
 */
export const DEFAULT_WEBHOOK_DISABLE_AFTER_MS = 85 * 3_600_000 + 35 * 60_000 + 5_000;
export function webhookDisableAfterMs(env?: Env): number {
  return setting("WEBHOOK_DISABLE_AFTER_MS", env) ?? DEFAULT_WEBHOOK_DISABLE_AFTER_MS;
}

export const WEBHOOK_ENDPOINT_DISABLED = "webhook_endpoint_disabled";

export type AttemptOutcome =
  /** 2xx: done. */
  | "delivered"
  /** Non-2xx (but 410) or unreachable: the workflow tries again on its schedule. */
  | "failed"
  /** 410 Gone: the endpoint is now disabled; its queue stops. */
  | "gone"
  /** The endpoint was deleted or disabled meanwhile: nothing was sent. */
  | "skipped"
  /** Failed, and every attempt has failed for the configured span: the endpoint is now disabled. */
  | "disabled"
  /**
   * A set-aside event no longer set aside as that queueing (a redelivery queued it again), or a
   * queue's head no longer at the head as that queueing (skipped or redelivered): nothing was sent.
   */
  | "requeued";

export interface AttemptResult {
  outcome: AttemptOutcome;
  httpCode: number | null;
}

interface HttpResult {
  status: number | null;
  body: string;
}

/** A DNS lookup that refuses addresses outside the URL policy (a public name resolving inward). */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, Object.assign({}, options, { all: true as const }), (err, addresses) => {
    if (err) return callback(err, "");
    const list = addresses as LookupAddress[];
    const bad = list.map((a) => refusedAddress(a.address)).find((r) => r !== null);
    if (bad) return callback(Object.assign(new Error(`Refused ${hostname}: ${bad}`), { code: "EREFUSED" }), "");
    if (options.all) return callback(null, list);
    return callback(null, list[0].address, list[0].family);
  });
};

export function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs = DELIVERY_TIMEOUT_MS,
): Promise<HttpResult> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return resolve({ status: null, body: "Invalid URL" });
    }
    const host = target.hostname.replace(/^\[|\]$/g, "");
    const refused = refusedAddress(host);
    if (refused) return resolve({ status: null, body: `Refused ${host}: ${refused}` });
    const request = target.protocol === "https:" ? https.request : http.request;
    let settled = false;
    const done = (r: HttpResult) => {
      if (!settled) {
        settled = true;
        resolve(r);
      }
    };
    const req = request(
      target,
      {
        method: "POST",
        headers: Object.assign({}, headers, {
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(body)),
          "user-agent": "Borealis-Webhooks",
        }),
        lookup: guardedLookup,
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (c: Buffer) => {
          if (size < RESPONSE_LIMIT) chunks.push(c);
          size += c.length;
          // Enough kept: stop reading a large response instead of buffering it.
          if (size > RESPONSE_LIMIT * 4) res.destroy();
        });
        const finish = () =>
          done({ status: res.statusCode ?? null, body: Buffer.concat(chunks).toString("utf8").slice(0, RESPONSE_LIMIT) });
        res.on("end", finish);
        res.on("close", finish);
        res.on("error", finish);
      },
    );
    // The whole exchange, not only idle sockets, is bounded by the timeout.
    const timer = setTimeout(() => req.destroy(new Error(`Timed out after ${timeoutMs} ms`)), timeoutMs);
    req.on("close", () => clearTimeout(timer));
    req.on("timeout", () => req.destroy(new Error(`Timed out after ${timeoutMs} ms`)));
    req.on("error", (err) => done({ status: null, body: err.message.slice(0, RESPONSE_LIMIT) }));
    req.end(body);
  });
}

export interface AttemptOptions {
  timeoutMs?: number;
  /** The attempt's time (the workflow's clock, so skipped time counts); now by default. */
  at?: Date;
  /** See webhookDisableAfterMs; the env setting by default. */
  disableAfterMs?: number;
}

export async function attemptDelivery(knex: Knex, eventId: string, opts: AttemptOptions = {}): Promise<AttemptResult> {
  const found = await eventWithEndpoint(knex, eventId);
  if (!found) return { outcome: "skipped", httpCode: null };
  return attemptFound(knex, found.event, found.endpoint, opts);
}

/**
 * One retry of the head of an endpoint's ordered queue, made only while that queueing of it is
 * still there; "requeued" when it was skipped or redelivered meanwhile (nothing is sent: the
 * queue's next read finds what is at its head now).
 */
export async function attemptQueued(knex: Knex, queued: QueuedEvent, opts: AttemptOptions = {}): Promise<AttemptResult> {
  const found = await eventWithEndpoint(knex, queued.eventId);
  if (!found) return { outcome: "skipped", httpCode: null };
  const { event } = found;
  if (!event.pending || event.queued !== queued.queued || event.set_aside_at) return { outcome: "requeued", httpCode: null };
  return attemptFound(knex, event, found.endpoint, opts);
}

/**
 * One attempt of a set-aside event (workflows/workflows/webhook-event.ts), made only while that
 * queueing of it is still pending and set aside; "requeued" when a redelivery put it back in its
 * endpoint's ordered queue meanwhile (that queue sends it, not this schedule).
 */
export async function attemptSetAside(knex: Knex, queued: QueuedEvent, opts: AttemptOptions = {}): Promise<AttemptResult> {
  const found = await eventWithEndpoint(knex, queued.eventId);
  if (!found) return { outcome: "skipped", httpCode: null };
  const { event } = found;
  if (!event.pending || event.queued !== queued.queued || !event.set_aside_at) return { outcome: "requeued", httpCode: null };
  return attemptFound(knex, event, found.endpoint, opts);
}

/**
 * One attempt of an event already read with its endpoint. With `settle` (the queueing being
 * worked off), a success is recorded and the event settled in a single statement, the common
 * case of a run through the queue, which also reads the queue's next head (`next`, null when
 * nothing else is queued); anything else takes the transaction below.
 */
async function attemptFound(
  knex: Knex,
  event: WebhookEventRow,
  endpoint: WebhookEndpointRow,
  opts: AttemptOptions,
  settle?: QueuedEvent,
): Promise<AttemptResult & { next?: EventWithEndpoint | null }> {
  if (!endpoint.enabled || endpoint.deleted_at !== null) return { outcome: "skipped", httpCode: null };

  const body = formatBody(endpoint.format, payloadOf(event));
  const headers = signWebhook(endpoint.secret, event.id, body);
  // With tracing on: a span in the trace the event was caused in; the POST is its child.
  const res = await inKeptTrace(
    `webhook delivery ${event.type}`,
    event.trace_context,
    { "borealis.webhook_event_id": event.id, "borealis.webhook_event_type": event.type, "borealis.webhook_endpoint_id": endpoint.id },
    async (span) => {
      const r = await postWebhook(endpoint.url, body, { ...headers }, opts.timeoutMs ?? DELIVERY_TIMEOUT_MS);
      span?.setAttribute("http.response.status_code", r.status ?? 0);
      if (r.status === null || r.status < 200 || r.status >= 300) span?.setStatus({ code: 2, message: r.body.slice(0, 200) });
      return r;
    },
  );
  const succeeded = res.status !== null && res.status >= 200 && res.status < 300;
  if (succeeded && settle) {
    const next = await recordDeliveredAndReadNext(knex, {
      organizationId: event.organization_id,
      endpointId: endpoint.id,
      eventId: event.id,
      httpCode: res.status,
      response: res.body,
      queued: settle.queued,
    });
    return { outcome: "delivered", httpCode: res.status, next };
  }
  let outcome: AttemptOutcome = succeeded ? "delivered" : res.status === 410 ? "gone" : "failed";
  const at = opts.at ?? new Date();
  const disableAfterMs = opts.disableAfterMs ?? webhookDisableAfterMs();

  await knex.transaction(async (trx) => {
    const now = new Date();
    await recordDeliveryAttempt(trx, {
      organizationId: event.organization_id,
      endpointId: endpoint.id,
      eventId: event.id,
      httpCode: res.status,
      response: res.body,
      succeeded,
      now,
    });
    if (outcome === "gone") {
      await disableEndpoint(trx, endpoint.id, now);
    } else if (succeeded) {
      await clearFailingSince(trx, endpoint.id);
    } else {
      const locked = await lockEndpointHealth(trx, endpoint.id);
      if (!locked?.enabled) return;
      if (locked.failing_since === null) {
        await markFailingSince(trx, endpoint.id, at);
      } else if (at.getTime() - locked.failing_since.getTime() >= disableAfterMs) {
        outcome = "disabled";
        await disableEndpoint(trx, endpoint.id, now);
        const payload = {
          endpoint_id: endpoint.id,
          url: endpoint.url,
          failing_since: locked.failing_since.toISOString(),
          disabled_at: at.toISOString(),
          last_http_code: res.status,
        };
        await insertOrganizationNotification(trx, event.organization_id, WEBHOOK_ENDPOINT_DISABLED, payload);
        await emitInternal(trx, event.organization_id, "email.webhook_endpoint_disabled", payload);
        logger.warn(
          { organizationId: event.organization_id, ...payload },
          "webhook endpoint disabled: every delivery failed for the configured span",
        );
      }
    }
  });
  return { outcome, httpCode: res.status };
}

/** An event taken from an endpoint's queue, and which queueing of it this is. */
/** The queued event a delivery works on; its shape is shared with the delivery workflow. */
export type { QueuedEvent };

/**
 * The event is no longer queued: delivered, or its schedule ran out (it can be redelivered).
 * Unless it was queued again meanwhile (a redelivery): then it stays queued and goes out again.
 */
export async function settleEvent(knex: Knex, event: QueuedEvent): Promise<void> {
  await settleQueuedEvent(knex, event.eventId, event.queued);
}

/**
 * Takes this queueing of the event out of its endpoint's ordered queue, to be retried on its own;
 * false when it is not pending as that queueing any more (a redelivery queued it again: it stays
 * in the ordered queue).
 */
export async function setAsideEvent(knex: Knex, event: QueuedEvent): Promise<boolean> {
  return setAsideQueuedEvent(knex, event.eventId, event.queued);
}

export async function nextQueuedEvent(knex: Knex, endpointId: string): Promise<QueuedEvent | null> {
  const row = await nextPendingEvent(knex, endpointId);
  return row ? { eventId: row.id, queued: row.queued } : null;
}

/** What one run through an endpoint's queue did. */
export interface QueueRun {
  /** Events delivered at their first attempt (and settled), in order. */
  delivered: number;
  /** The head event whose first attempt did not deliver (not settled): its schedule goes on from attempt 2. */
  head: (QueuedEvent & AttemptResult) | null;
  /** True when the run stopped at its count or time budget with events possibly left. */
  more: boolean;
  /** Another run holds the endpoint's delivery lease, for this long still (ms): nothing was done. */
  busyMs?: number;
}

export interface QueueRunOptions extends AttemptOptions {
  /** Events per run at most. */
  maxEvents?: number;
  /** No new attempt starts after this long, so the run ends well inside its activity timeout. */
  budgetMs?: number;
  /**
   * Once the queue is empty, how long to stay open as the endpoint's listener (listeners.ts) for
   * events queued next, delivering them in this run instead of a new workflow step each; 0 (the
   * default) ends the run at once. Bounded by `budgetMs`.
   */
  listenMs?: number;
  /** Listeners open in this process at most; a run beyond it does not listen. */
  maxListeners?: number;
  /** Ends a listening wait early (the activity cancelled, the worker shutting down). */
  signal?: AbortSignal;
  /**
   * The endpoint's delivery lease (repository.ts), already held by the caller (the fan-out took
   * it for a direct run), who also gives it up in the end; without it the run takes its own.
   */
  lease?: string;
  /** How long a lease taken here lasts; DELIVERY_LEASE_MS by default. */
  leaseMs?: number;
  /** The queue's head as the caller read it with the lease (the fan-out's first event): attempted without a read. */
  head?: EventWithEndpoint;
}

/**
 * A run renews its lease once a third of it has passed, checked before each read of the queue;
 * between two reads go at most one attempt (10 s) or one listening wait (5 s) and the writes.
 */
export const DELIVERY_LEASE_MS = 30_000;

/** Listeners open in one worker process at most: each holds its workflow's task while it waits. */
export const DEFAULT_MAX_LISTENERS = 150;

/**
 * The first attempt of each queued event of an endpoint, in outbox order, while they deliver:
 * one call delivers whatever is ready instead of one workflow step per event. It stops at the
 * first event that does not deliver and hands it back, so the retry schedule, order and
 * disabling stay the workflow's. `at` is the workflow's time at the start of the run. With
 * `listenMs`, an emptied queue is watched for that long (poked by the fan-out) before the run ends.
 * Only the holder of the endpoint's delivery lease runs: when another run holds it, this one
 * returns at once with nothing done (that run delivers what is queued, or hands it to the
 * workflow). The lease is given up only with nothing queued, or when the run ends otherwise.
 */
export async function deliverQueued(knex: Knex, endpointId: string, opts: QueueRunOptions = {}): Promise<QueueRun> {
  const started = Date.now();
  const maxEvents = opts.maxEvents ?? 100;
  const budgetMs = opts.budgetMs ?? 15_000;
  const listenMs = opts.listenMs ?? 0;
  const lease = opts.lease ?? randomUUID();
  const leaseMs = opts.leaseMs ?? DELIVERY_LEASE_MS;
  const busyMs = opts.lease ? 0 : await takeDeliveryLease(knex, endpointId, lease, leaseMs);
  if (busyMs > 0) return { delivered: 0, head: null, more: false, busyMs };
  let renewAt = started + leaseMs / 3;
  // The queue's head when known from a read made with the lease; undefined: read it.
  let head: EventWithEndpoint | null | undefined = opts.head;
  const listen = () => (listenMs > 0 ? openListener(endpointId, opts.maxListeners ?? DEFAULT_MAX_LISTENERS) : null);
  let listener = listen();
  let released = false;
  let delivered = 0;
  let lastWork = started;
  try {
    while (delivered < maxEvents && Date.now() - started < budgetMs) {
      if (Date.now() >= renewAt) {
        // Lost (a pause longer than the lease): another run has the endpoint now and reads its queue.
        if (!(await renewDeliveryLease(knex, endpointId, lease, leaseMs))) return { delivered, head: null, more: false };
        renewAt = Date.now() + leaseMs / 3;
      }
      if (head === undefined) {
        // Cleared before the read: a poke from here on means "read again" (see listeners.ts).
        if (listener) listener.poked = false;
        head = (await nextPendingEventWithEndpoint(knex, endpointId)) ?? null;
      }
      const found = head;
      head = undefined;
      if (!found) {
        let more = false;
        if (listener) {
          const cutByBudget = lastWork + listenMs > started + budgetMs;
          const wait = Math.min(lastWork + listenMs, started + budgetMs) - Date.now();
          if (await waitForPoke(listener, wait, opts.signal)) continue;
          // Nothing came: close, unless a poke slipped in since the read (then read again). A
          // busy endpoint whose run ran out of budget is worth a new run at once ("more").
          if (!closeListener(listener)) continue;
          listener = null;
          more = cutByBudget && delivered > 0 && !opts.signal?.aborted;
        }
        // Closed first, then the lease given up only if nothing is queued: an event committed
        // since the read is either seen here (read again, listening again) or was not handed to
        // this run, and its workflow, signalled instead, takes the lease next.
        if ((released = await releaseIdleDeliveryLease(knex, endpointId, lease))) return { delivered, head: null, more };
        listener = listen();
        continue;
      }
      const next = { eventId: found.event.id, queued: found.event.queued };
      const at = opts.at ? new Date(opts.at.getTime() + (Date.now() - started)) : undefined;
      // Cleared before the attempt, whose recording reads the next head (as before a read).
      if (listener) listener.poked = false;
      const { next: after, ...result } = await attemptFound(knex, found.event, found.endpoint, Object.assign({}, opts, { at }), next);
      if (result.outcome !== "delivered") return { delivered, head: Object.assign({}, next, result), more: false };
      head = after;
      delivered++;
      lastWork = Date.now();
    }
    return { delivered, head: null, more: true };
  } finally {
    if (listener) dropListener(listener);
    if (!released && !opts.lease) await releaseDeliveryLease(knex, endpointId, lease);
  }
}

export { queuedEndpoints } from "./repository.js";
