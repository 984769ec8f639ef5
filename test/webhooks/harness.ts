// The end-to-end webhook harness shared by the test files that deliver for real: a receiver on
// 127.0.0.1, a worker of the file's own task queue (outbox relay activities, webhook activities,
// the email sends the relay enqueues, and any others the file needs) in the file's own Temporal namespace, a running outbox relay,
// the API over the file's database with response validation on, the API's webhook wake-ups
// pointed at that worker, and the backstop sweep of webhook endpoints. Registers beforeAll/afterAll; read the fields inside tests.
import { randomUUID } from "node:crypto";
import { Client, Connection, type WorkflowHandle } from "@temporalio/client";
import { DefaultLogger, IllegalStateError, NativeConnection, Runtime, Worker } from "@temporalio/worker";
import type { Knex } from "knex";
import { afterAll, beforeAll } from "vitest";
import { startApi, type ApiHandle } from "../../server/main.js";
import { DirectDeliveries } from "../../server/webhooks/direct.js";
import { setWorkflowsDoor, temporalDoor } from "../../server/workflows-door.js";
import { createEmailActivities } from "../../workflows/activities/emails.js";
import { createOutboxActivities } from "../../workflows/activities/outbox.js";
import { createWebhookActivities, type WebhookWaker } from "../../workflows/activities/webhooks.js";
import { sweepBackstop } from "../../workflows/backstop.js";
import { outboxRelayWorkflow } from "../../workflows/workflows/outbox-relay.js";
import type { WebhookEndpointWorkflowInput } from "../../workflows/workflows/webhook-delivery.js";
import { activityDeps, type WorkflowInfra, workflowBundle } from "../harness/index.js";
import { sharedResponseChecks } from "../harness/response-checks.js";
import { Receiver } from "./receiver.js";

export interface WebhookHarnessOptions {
  /** Settings of the delivery workflows the fan-out starts (short retry schedule, idle time). */
  workflow?: Omit<WebhookEndpointWorkflowInput, "endpointId">;
  deliveryTimeoutMs?: number;
  /** How often the backstop sweep starts the workflows of endpoints left with queued events (1 minute unless told). */
  webhookSweepEveryMs?: number;
  /** More activities for the worker (subscriptions, benefit grants). */
  activities?: (knex: Knex) => object;
}

export interface WebhookHarness {
  receiver: Receiver;
  taskQueue: string;
  nativeConnection: NativeConnection;
  client: Client;
  api: ApiHandle;
  /** Wakes the delivery workflows on this harness's queue with its settings. */
  waker: WebhookWaker;
  /** The fan-out's direct runs of first attempts on this harness's worker. */
  direct: DirectDeliveries;
}

export function useWebhookHarness(infra: WorkflowInfra, opts: WebhookHarnessOptions = {}): WebhookHarness {
  const h = { receiver: new Receiver(), taskQueue: `webhooks-test-${randomUUID().slice(0, 8)}` } as WebhookHarness;
  let worker: Worker | undefined;
  let running: Promise<void> | undefined;
  let relay: WorkflowHandle | undefined;
  let stopSweep: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    process.env.WEBHOOKS_ALLOW_HTTP = "1";
    process.env.WEBHOOKS_ALLOW_LOOPBACK = "1";
    try {
      Runtime.install({ logger: new DefaultLogger("WARN") });
    } catch (err) {
      if (!(err instanceof IllegalStateError)) throw err;
    }
    await h.receiver.start();
    h.nativeConnection = await NativeConnection.connect({ address: infra.temporalAddress });
    h.client = new Client({ connection: await Connection.connect({ address: infra.temporalAddress }), namespace: infra.namespace });
    const door = temporalDoor(h.client, h.taskQueue, opts.workflow);
    h.waker = door.wakeWebhookEndpoints;
    h.direct = new DirectDeliveries(infra.knex, { timeoutMs: opts.deliveryTimeoutMs });
    worker = await Worker.create({
      connection: h.nativeConnection,
      namespace: infra.namespace,
      taskQueue: h.taskQueue,
      workflowBundle: await workflowBundle(),
      activities: {
        ...createOutboxActivities(activityDeps(infra.knex, { directDeliveries: h.direct }), { wakeWebhookEndpoints: h.waker }),
        ...createWebhookActivities(activityDeps(infra.knex), { deliveryTimeoutMs: opts.deliveryTimeoutMs }),
        // The emails the relay's claims enqueue are sent on this worker.
        ...createEmailActivities(activityDeps(infra.knex)),
        ...opts.activities?.(infra.knex),
      },
    });
    running = worker.run();
    relay = await h.client.workflow.start(outboxRelayWorkflow, {
      workflowId: `relay-${randomUUID()}`,
      taskQueue: h.taskQueue,
      args: [{ batchSize: 50, idleSleepMs: 200 }],
    });
    stopSweep = sweepEvery(opts.webhookSweepEveryMs ?? 60_000, () => sweepBackstop(infra.knex, door, { parts: ["webhookEndpoints"] }));
    setWorkflowsDoor({ wakeWebhookEndpoints: h.waker });
    h.api = await startApi({ knex: infra.knex, port: 0, validateResponses: true, responseChecks: sharedResponseChecks() });
  }, 120_000);

  afterAll(async () => {
    await stopSweep?.();
    setWorkflowsDoor(null);
    await h.api?.close();
    await relay?.terminate().catch(() => {});
    await h.direct?.close();
    worker?.shutdown();
    await running;
    await h.client?.connection.close();
    await h.nativeConnection?.close();
    await h.receiver.stop();
    delete process.env.WEBHOOKS_ALLOW_HTTP;
    delete process.env.WEBHOOKS_ALLOW_LOOPBACK;
  }, 60_000);

  return h;
}

/**
 * The worker's backstop Schedule in small: sweeps at once and then `everyMs` after each pass ends;
 * the returned function stops it and waits for a pass in progress.
 */
function sweepEvery(everyMs: number, sweep: () => Promise<void>): () => Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const pass = () => {
    running = sweep().finally(() => {
      if (!stopped) timer = setTimeout(pass, everyMs);
    });
  };
  pass();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
