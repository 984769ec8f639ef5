// The Temporal worker process part: builds the activities (createActivities, with the services
// of activity-deps.ts), loads the workflows' bundle (bundle.ts), polls the task queue in the background, makes sure the
// singleton workflow (the outbox relay) is running and the periodic Schedules exist (schedules.ts).
// `scripts/run.ts` calls startWorker next to the API.
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Client } from "@temporalio/client";
import {
  IllegalStateError,
  NativeConnection,
  Runtime,
  Worker,
  type LogLevel,
  type LogMetadata,
  type Logger,
  type WorkerOptions,
} from "@temporalio/worker";
import type { Knex } from "knex";
import { stdSerializers } from "pino";
import { recoverConfirmedCheckouts } from "../server/checkouts/recover.js";
import { deleteExpiredKeys } from "../server/kit/idempotency-repository.js";
import { logger } from "../server/kit/logger.js";
import { tracing } from "../server/kit/telemetry.js";
import { createActivities } from "./activities/index.js";
import { listenForOutbox } from "./activities/outbox.js";
import { activityDeps } from "./activity-deps.js";
import { createPeriodicActivities } from "./activities/periodic.js";
import { sweepBackstop, type BackstopOptions } from "./backstop.js";
import { ensurePeriodicSchedules } from "./schedules.js";
import { DEFAULT_MAX_LISTENERS } from "../server/webhooks/delivery.js";
import { DirectDeliveries } from "../server/webhooks/direct.js";
import { temporalDoor } from "../server/workflows-door.js";
import { workflowBundlePath } from "./bundle.js";
import { createTemporalClient } from "./client.js";
import { outboxRelayWorkflowId } from "./shared/ids.js";
import { foldUsage } from "../server/meters/fold.js";
import { outboxSignal } from "./shared/signals.js";
import { BOREALIS_TASK_QUEUE } from "./shared/task-queues.js";
import type { StartedWorkflows } from "./shared/workflows.js";
import type * as servedWorkflows from "./workflows/index.js";
import { outboxRelayWorkflow, type OutboxRelayInput } from "./workflows/outbox-relay.js";
import { setting } from "../server/config.js";

/**
 * The server starts workflows by type name with the inputs of workflows/shared/workflows.ts
 * (server/workflows-door.ts): a served workflow that no longer takes them fails to compile here.
 */
export type ServedWorkflows = Served<typeof servedWorkflows>;
type Served<T extends StartedWorkflows> = T;

export interface StartWorkerOptions {
  knex: Knex;
  /** host:port of the Temporal frontend. */
  temporalAddress: string;
  /** The Temporal namespace; TEMPORAL_NAMESPACE unless told. */
  namespace?: string;
  taskQueue?: string;
  /**
   * Settings for the outbox relay, used only when this call starts it: a relay that is already
   * running keeps the settings it was started with.
   */
  outboxRelay?: Partial<Pick<OutboxRelayInput, "batchSize" | "idleSleepMs" | "maxIterations">>;
  /** Settings for the backstop sweep (backstop.ts) and its Schedule's interval. */
  backstop?: BackstopOptions;
  /** Concurrency and workflow cache of the worker; the SDK's defaults unless told. */
  tuning?: WorkerTuning;
  /** How often events are folded into the per-customer meter rollups (ms; 0: never; its Schedule). Every second unless told. */
  usageFoldEveryMs?: number;
  /** How often confirms that died after their claim are looked for (server/checkouts/recover.ts; its Schedule). Every 2 s unless told. */
  confirmRecovery?: { everyMs?: number };
}

export type WorkerTuning = Pick<
  WorkerOptions,
  | "maxConcurrentActivityTaskExecutions"
  | "maxConcurrentLocalActivityExecutions"
  | "maxConcurrentWorkflowTaskExecutions"
  | "maxCachedWorkflows"
  | "maxConcurrentActivityTaskPolls"
  | "maxConcurrentWorkflowTaskPolls"
  | "stickyQueueScheduleToStartTimeout"
>;

export interface WorkerHandle {
  /** Stops polling, lets in-flight tasks finish, then closes both connections. */
  shutdown(): Promise<void>;
  client: Client;
  /** Settles when the worker has stopped, for any reason: with the error it stopped on, if any. */
  done: Promise<Error | null>;
}

/**
 * On shutdown (SIGTERM) running activities get this long to finish before they are cancelled
 * (their attempt then fails and Temporal retries it elsewhere); after the force time the worker
 * gives up on a clean stop.
 */
const SHUTDOWN: Pick<WorkerOptions, "shutdownGraceTime" | "shutdownForceTime"> = { shutdownGraceTime: "20s", shutdownForceTime: "30s" };

// Idle poll is only the backstop: the API signals the relay after it commits outbox rows.
const DEFAULT_RELAY: Omit<OutboxRelayInput, "relayedBefore"> = { batchSize: 100, idleSleepMs: 5_000 };

// Runs of webhook first attempts that listen for their endpoint's next events (deliverQueued)
// each hold a local activity slot and their workflow task while they wait: room for
// DEFAULT_MAX_LISTENERS of them beside everything else (the SDK's defaults are 100 and 40).
// 100 workflow task pollers, a fifth of them on the shared (not sticky) queue: with the SDK's 10
// (2 shared), the first tasks of 100 workflows started at once (new endpoints, new runs) waited
// up to 2.5 s on task queue partitions that had no poller (docs/BENCHMARKS.md, Webhooks).
const WEBHOOK_DELIVERY_TUNING: WorkerTuning = {
  maxConcurrentLocalActivityExecutions: DEFAULT_MAX_LISTENERS + 100,
  maxConcurrentWorkflowTaskExecutions: DEFAULT_MAX_LISTENERS + 40,
  maxConcurrentWorkflowTaskPolls: 100,
};

// The SDK guards against workflow code that never yields (5 s) with Node's vm `timeout`, which
// creates and joins a thread for every entry into the workflow sandbox, several per activation
// (nodejs/node#47739): a third of the workflow thread's time when thousands of subscriptions
// renew at once. Our workflows are short deterministic loops; patches/@temporalio+worker*.patch
// makes this value (the SDK's own "no limit", as in its debug mode) skip the watchdog. A workflow
// stuck in a loop would still show, as its workflow task timing out on the server.
const NO_ISOLATE_TIMEOUT = "4294967295ms";

// Same file name as this module's (index.ts under tsx, index.js if ever compiled); the bundler
// stats the path as given. Its webpack config already maps `.js` specifiers to `.ts` sources.
const workflowsPath = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "workflows",
  `index${path.extname(fileURLToPath(import.meta.url))}`,
);

// With tracing on: the workflow interceptors, bundled with the workflows (same extension trick).
const workflowTracingPath = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  `tracing-interceptors${path.extname(fileURLToPath(import.meta.url))}`,
);

/**
 * With tracing on (server/kit/telemetry.ts), the OpenTelemetry interceptors as the package
 * documents them: workflow spans (made in the sandbox, deterministically, and exported through
 * the `exporter` sink) and activity spans, each the child of the context its caller put in the
 * Temporal headers. Nothing when off.
 */
async function tracingOptions(): Promise<Partial<WorkerOptions>> {
  const t = tracing();
  if (!t) return {};
  const { OpenTelemetryActivityInboundInterceptor, OpenTelemetryActivityOutboundInterceptor, makeWorkflowExporter } =
    await import("@temporalio/interceptors-opentelemetry/lib/worker/index.js");
  // With the SDK's shared V8 context (reuseV8Context, its default) the interceptors' spans lost
  // their parents (a workflow's run span became a root, its activities' starts other roots):
  // a context per workflow, as before 1.9, costs memory but keeps one trace. Only with tracing on.
  const traced: Partial<WorkerOptions> = {
    sinks: { exporter: makeWorkflowExporter(t.exporter, t.resource) },
    workflowBundle: { codePath: await workflowBundlePath(workflowsPath, [workflowTracingPath]) },
    interceptors: {
      activity: [
        (ctx) => ({
          inbound: new OpenTelemetryActivityInboundInterceptor(ctx),
          outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
        }),
      ],
    },
  };
  return Object.assign({ reuseV8Context: false } as Partial<WorkerOptions>, traced);
}

export async function startWorker(opts: StartWorkerOptions): Promise<WorkerHandle> {
  const namespace = opts.namespace ?? setting("TEMPORAL_NAMESPACE");
  const taskQueue = opts.taskQueue ?? BOREALIS_TASK_QUEUE;
  installRuntimeLogger();

  const connection = await NativeConnection.connect({ address: opts.temporalAddress });
  let client: Client | undefined;
  let worker: Worker | undefined;
  let running: Promise<void> | undefined;
  let stoppedWith: Error | null = null;
  let stopOutboxListener: (() => Promise<void>) | undefined;
  // The fan-out's direct runs of first attempts (background work of this process, not tasks).
  const directDeliveries = new DirectDeliveries(opts.knex);
  const deps = activityDeps(opts.knex, { directDeliveries });
  try {
    client = await createTemporalClient(opts.temporalAddress, namespace);
    const door = temporalDoor(client, taskQueue);
    const periodic = createPeriodicActivities(
      {
        sweepBackstop: () => sweepBackstop(opts.knex, door, opts.backstop),
        recoverConfirms: () => recoverConfirmedCheckouts(opts.knex),
        foldUsage: () => foldUsage(opts.knex),
        deleteExpiredKeys: () => deleteExpiredKeys(opts.knex),
      },
      logger,
    );
    const traced = await tracingOptions();
    worker = await Worker.create(
      Object.assign(
        { connection, namespace, taskQueue },
        // An option the SDK reads but no longer declares (sdk-typescript#249).
        { isolateExecutionTimeout: NO_ISOLATE_TIMEOUT } as Partial<WorkerOptions>,
        Object.assign({}, SHUTDOWN, WEBHOOK_DELIVERY_TUNING, opts.tuning),
        // The workflows' bundle: with tracing, the one that holds its interceptors.
        traced.workflowBundle ? traced : Object.assign(traced, { workflowBundle: { codePath: await workflowBundlePath(workflowsPath) } }),
        { activities: Object.assign(createActivities(deps), periodic) },
      ),
    );
    const w = worker;
    // Kept so shutdown() can wait for it; a worker that dies on its own is logged, not rethrown
    // into an unhandled rejection.
    running = w.run().catch((err: unknown) => {
      stoppedWith = err instanceof Error ? err : new Error(String(err));
      logger.error({ err, taskQueue, namespace }, "Temporal worker stopped with an error");
    });

    // USE_EXISTING: a restarted (or second) worker joins the running relay instead of starting another.
    await client.workflow.start(outboxRelayWorkflow, {
      workflowId: outboxRelayWorkflowId,
      taskQueue,
      args: [Object.assign({}, DEFAULT_RELAY, opts.outboxRelay)],
      workflowIdConflictPolicy: "USE_EXISTING",
    });
    await ensurePeriodicSchedules(client, taskQueue, {
      backstopEveryMs: opts.backstop?.everyMs,
      confirmRecoveryEveryMs: opts.confirmRecovery?.everyMs,
      usageFoldEveryMs: opts.usageFoldEveryMs,
    });
    // Committed outbox rows wake the relay at once (its idle poll is the backstop).
    const relay = client.workflow.getHandle(outboxRelayWorkflowId);
    stopOutboxListener = await listenForOutbox(deps, () => relay.signal(outboxSignal));
    logger.info({ taskQueue, namespace }, "Temporal worker running");
  } catch (err) {
    await directDeliveries.close();
    await stop(worker, running, client, connection);
    throw err;
  }

  let stopped: Promise<void> | undefined;
  const w = running;
  return {
    client,
    done: w.then(() => stoppedWith),
    shutdown: () => {
      // Direct runs hand what is left to the workflows through the client: closed before it.
      return (stopped ??= (stopOutboxListener?.() ?? Promise.resolve())
        .then(() => directDeliveries.close())
        .then(() => stop(worker, running, client, connection)));
    },
  };
}

async function stop(
  worker: Worker | undefined,
  running: Promise<void> | undefined,
  client: Client | undefined,
  connection: NativeConnection,
) {
  if (worker?.getState() === "RUNNING") worker.shutdown();
  await running;
  await client?.connection.close();
  // Only after the worker has drained: it polls through this connection.
  await connection.close();
}

/**
 * Routes the Temporal SDK's own logs (worker lifecycle, bundling, workflow `log` calls) to our
 * pino logger. The runtime is process-wide and can be installed only before its first use, so
 * when something else got there first (a test environment, an earlier call) its logger stays.
 */
function installRuntimeLogger() {
  try {
    // WORKER_METRICS_ADDRESS (host:port): the SDK's own Prometheus metrics (workflow and activity
    // task failures, schedule-to-start latency, poller and slot use) at http://<address>/metrics.
    const metricsAddress = setting("WORKER_METRICS_ADDRESS");
    Runtime.install({
      logger: new PinoTemporalLogger(),
      ...(metricsAddress ? { telemetryOptions: { metrics: { prometheus: { bindAddress: metricsAddress } } } } : {}),
    });
  } catch (err) {
    if (!(err instanceof IllegalStateError)) throw err;
  }
}

const pinoLevel = { TRACE: "trace", DEBUG: "debug", INFO: "info", WARN: "warn", ERROR: "error" } as const;

class PinoTemporalLogger implements Logger {
  // The SDK passes failures as `error`; pino would print an Error under any key but `err` as {}.
  private readonly pino = logger.child({ component: "temporal" }, { serializers: { error: stdSerializers.err } });
  log(level: LogLevel, message: string, meta?: LogMetadata) {
    this.pino[pinoLevel[level]](meta ?? {}, message);
  }
  trace(message: string, meta?: LogMetadata) {
    this.log("TRACE", message, meta);
  }
  debug(message: string, meta?: LogMetadata) {
    this.log("DEBUG", message, meta);
  }
  info(message: string, meta?: LogMetadata) {
    this.log("INFO", message, meta);
  }
  warn(message: string, meta?: LogMetadata) {
    this.log("WARN", message, meta);
  }
  error(message: string, meta?: LogMetadata) {
    this.log("ERROR", message, meta);
  }
}
