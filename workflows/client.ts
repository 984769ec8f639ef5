// A Temporal client for code outside workflows (the API, the worker's own start-up, scripts):
// start workflows, signal them, query them.
import { Client, Connection, type WorkflowClientInterceptor } from "@temporalio/client";
import { tracing } from "../server/kit/telemetry.js";
import { setting } from "../server/config.js";

/**
 * Connects to the Temporal frontend at `address` (host:port). Close with `client.connection.close()`.
 * With tracing on (server/kit/telemetry.ts), workflow starts and signals carry the caller's trace
 * context in their headers (the OpenTelemetry client interceptor).
 */
export async function createTemporalClient(address: string, namespace = "default"): Promise<Client> {
  const connection = await Connection.connect({ address });
  const workflow: WorkflowClientInterceptor[] = [];
  if (tracing()) {
    const { OpenTelemetryWorkflowClientInterceptor } = await import("@temporalio/interceptors-opentelemetry/lib/client/index.js");
    workflow.push(new OpenTelemetryWorkflowClientInterceptor());
  }
  return new Client({ connection, namespace, ...(workflow.length > 0 && { interceptors: { workflow } }) });
}

let shared: Promise<Client> | null = null;
/** Where the shared client connects: set by useTemporalAddress, else TEMPORAL_ADDRESS / TEMPORAL_NAMESPACE. */
let target: { address: string; namespace: string } | null = null;
/** Bumped when the target changes: ports built over an older client are built again. */
let generation = 0;

/** Points this process's shared client (and every port over it) at another Temporal frontend, in TEMPORAL_NAMESPACE unless told. */
export function useTemporalAddress(address: string, namespace = setting("TEMPORAL_NAMESPACE")): void {
  if (target?.address === address && target.namespace === namespace) return;
  target = { address, namespace };
  const old = shared;
  shared = null;
  generation++;
  old?.then((c) => c.connection.close()).catch(() => undefined);
}

/**
 * One client per process, connected on first use; a failed connection is tried again next time.
 * Once connected, the gRPC channel reconnects by itself when the server restarts.
 */
function sharedTemporalClient(): Promise<Client> {
  if (!shared) {
    const client = createTemporalClient(
      target?.address ?? setting("TEMPORAL_ADDRESS") ?? "127.0.0.1:7233",
      target?.namespace ?? setting("TEMPORAL_NAMESPACE"),
    );
    client.catch(() => {
      if (shared === client) shared = null;
    });
    shared = client;
  }
  return shared;
}

/** Whether the Temporal frontend answers within `timeoutMs` (for /readyz); the reason when not. */
export async function temporalReachable(timeoutMs = 2_000): Promise<{ ok: true } | { ok: false; error: string }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const client = await Promise.race([sharedTemporalClient(), timeout]);
    await Promise.race([
      client.connection.withDeadline(Date.now() + timeoutMs, () => client.connection.workflowService.getSystemInfo({})),
      timeout,
    ]);
    return { ok: true };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A swappable way for the API to reach workflows (start invoices, wake webhook endpoints, start
 * grant jobs, poke subscriptions): built on first use over the process's shared client, rebuilt
 * after a failed connection or a new address, or replaced with `set` (another client, namespace
 * or task queue).
 */
export function temporalPort<T>(build: (client: Promise<Client>) => T): { get(): T; set(port: T | null): void } {
  let current: T | null = null;
  let builtFor = -1;
  let pinned = false;
  return {
    get() {
      if (!current || (!pinned && builtFor !== generation)) {
        const client = sharedTemporalClient();
        const port = build(client);
        current = port;
        builtFor = generation;
        pinned = false;
        client.catch(() => {
          if (current === port) current = null;
        });
      }
      return current;
    },
    set(port) {
      current = port;
      pinned = port !== null;
    },
  };
}
