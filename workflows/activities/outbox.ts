// Outbox activities: claim the next batch of committed, unpublished outbox rows and mark them
// published. Several workers (and retries of the same activity) may run this at once: row locks
// taken with SKIP LOCKED hand each row to exactly one claimer, and marking it in the same
// transaction means a retry after a lost response claims the next rows, never the same ones.
// The emails a row triggers are enqueued in the same transaction (server/emails/triggers.ts).
import { randomUUID } from "node:crypto";
import { Context } from "@temporalio/activity";
import type { ActivityDeps } from "./deps.js";
import { activityContextWebhookWaker, boundWebhookWaker, handOverThrough, type WebhookWaker } from "./webhooks.js";

export interface OutboxBatch {
  /** Claimed row ids, ascending. */
  ids: number[];
  /** The event type of each row, in the order of `ids`. */
  types: string[];
}

export function createOutboxActivities(
  {
    knex,
    outbox,
    webhooks,
    emails,
    directDeliveries,
    temporalDoor,
  }: Pick<ActivityDeps, "knex" | "outbox" | "webhooks" | "emails" | "directDeliveries" | "temporalDoor">,
  {
    wakeWebhookEndpoints,
  }: {
    /** Wakes the delivery workflows of endpoints that got events; the worker's own client by default. */
    wakeWebhookEndpoints?: WebhookWaker;
  } = {},
) {
  const wake = wakeWebhookEndpoints ?? activityContextWebhookWaker(temporalDoor);
  const { fanOut, leasedHeads, leaseIdleEndpoints } = webhooks;
  return {
    async claimOutboxBatch(limit: number): Promise<OutboxBatch> {
      let endpointIds: string[] = [];
      let direct: string[] = [];
      let sendIds: string[] = [];
      let heads: Awaited<ReturnType<typeof leasedHeads>> | undefined;
      const lease = randomUUID();
      const batch = await knex.transaction(async (trx) => {
        const rows = await outbox.lockUnpublished(trx, limit);
        if (rows.length === 0) return { ids: [], types: [] };
        const ids = rows.map((r) => r.id);
        // Fan each row out to its organization's subscribed endpoints (webhook_events) here, in
        // this transaction, so a row is published exactly when its webhook events exist.
        endpointIds = await fanOut(trx, ids);
        if (directDeliveries) direct = await leaseIdleEndpoints(trx, endpointIds, ids, lease, directDeliveries.leaseMs);
        if (direct.length > 0) heads = await leasedHeads(trx, direct, ids);
        sendIds = await emails.emailsForOutbox(trx, rows);
        await outbox.markPublished(trx, ids);
        return { ids, types: rows.map((r) => r.type) };
      });
      // After commit, in the background: first attempts for the endpoints leased above.
      if (directDeliveries && direct.length > 0)
        directDeliveries.start(direct, lease, handOverThrough(wakeWebhookEndpoints ?? boundWebhookWaker(temporalDoor)), heads);
      // The others' runs or delivery workflows read the committed queue. A failed wake-up fails
      // the activity (its retry claims the next rows); the backstop sweep (workflows/backstop.ts)
      // starts the workflow of every endpoint left with queued events.
      const leased = new Set(direct);
      await wake(endpointIds.filter((id) => !leased.has(id)));
      // A start that fails fails the activity too; the sweep starts every pending send.
      if (sendIds.length > 0) await emailStarter(temporalDoor)(sendIds);
      return batch;
    },
  };
}

export type OutboxActivities = ReturnType<typeof createOutboxActivities>;

/** Inside an activity: starts email sends on the worker's client and task queue. */
function emailStarter(temporalDoor: ActivityDeps["temporalDoor"]): (sendIds: string[]) => Promise<void> {
  const ctx = Context.current();
  return temporalDoor(ctx.client, ctx.info.taskQueue).startEmailSends;
}

/** Least time between two wake-ups of the relay by listenForOutbox. */
export const OUTBOX_WAKE_GAP_MS = 50;

/**
 * Wakes the outbox relay as soon as rows commit, instead of at its next idle poll: LISTENs on the
 * `outbox` channel (NOTIFYed at commit by a trigger, migration 0011) on a connection of its own
 * and calls `wake` (signal the relay) for each notification, coalescing bursts into at most one
 * wake-up in flight and one behind it, and at most one wake-up per `minGapMs`: a quiet outbox's
 * first commit wakes the relay at once, a busy one's commits share a wake-up (each signal costs
 * the Temporal server a history write and the relay a workflow task; 10,000 subscriptions
 * renewing at once sent one per renewal, docs/BENCHMARKS.md). A lost connection is opened again
 * after a second; the relay's idle poll covers the gap. Returns a function that stops listening.
 */
export async function listenForOutbox(
  { knex, logger }: Pick<ActivityDeps, "knex" | "logger">,
  wake: () => Promise<void>,
  minGapMs = OUTBOX_WAKE_GAP_MS,
): Promise<() => Promise<void>> {
  type RawClient = {
    query(sql: string): Promise<unknown>;
    on(event: string, f: (...args: unknown[]) => void): void;
    removeAllListeners(): void;
  };
  const raw = knex.client as { acquireRawConnection(): Promise<RawClient>; destroyRawConnection(c: RawClient): Promise<void> };
  let stopped = false;
  let connection: RawClient | undefined;
  let retry: NodeJS.Timeout | undefined;
  let inFlight = false;
  let again = false;
  let lastWake = Number.NEGATIVE_INFINITY;
  let held: NodeJS.Timeout | undefined;

  const signal = () => {
    if (inFlight || held) {
      again = true;
      return;
    }
    const wait = lastWake + minGapMs - Date.now();
    if (wait > 0) {
      held = setTimeout(() => {
        held = undefined;
        if (!stopped) signal();
      }, wait);
      return;
    }
    inFlight = true;
    again = false;
    lastWake = Date.now();
    wake()
      .catch((err: unknown) => logger.warn({ err }, "outbox relay wake-up failed; its idle poll picks the rows up"))
      .finally(() => {
        inFlight = false;
        if (again && !stopped) signal();
      });
  };

  const connect = async (): Promise<void> => {
    try {
      const c = await raw.acquireRawConnection();
      connection = c;
      c.on("notification", signal);
      c.on("error", (err) => {
        logger.warn({ err }, "outbox listener connection lost; listening again in 1 s");
        c.removeAllListeners();
        void raw.destroyRawConnection(c).catch(() => {});
        if (!stopped) retry = setTimeout(() => void connect(), 1_000);
      });
      await c.query("listen outbox");
      // Rows committed while nobody listened (start-up, reconnect).
      signal();
    } catch (err) {
      logger.warn({ err }, "outbox listener could not connect; trying again in 1 s");
      if (connection) {
        connection.removeAllListeners();
        await raw.destroyRawConnection(connection).catch(() => {});
        connection = undefined;
      }
      if (!stopped) retry = setTimeout(() => void connect(), 1_000);
    }
  };
  await connect();

  return async () => {
    stopped = true;
    clearTimeout(retry);
    clearTimeout(held);
    if (connection) {
      connection.removeAllListeners();
      await raw.destroyRawConnection(connection).catch(() => {});
    }
  };
}
