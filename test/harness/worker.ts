// A Temporal worker of this test file's own on the shared dev server: the repository's workflows
// on a fresh task queue, the suite's activities, and a client. `install` points the server's
// starters at that queue (setWorkflowsDoor) and returns how to undo it; see
// test/subscriptions/ for a use.
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { Client, Connection } from "@temporalio/client";
import { NativeConnection, Worker } from "@temporalio/worker";
import type { Knex } from "knex";
import { afterAll, beforeAll } from "vitest";
import { afterCommitSettled } from "../../server/kit/after-commit.js";
import { setWorkflowsDoor, temporalDoor } from "../../server/workflows-door.js";
import { createBenefitGrantActivities } from "../../workflows/activities/benefit-grants.js";
import { createSubscriptionActivities } from "../../workflows/activities/subscriptions.js";
import { activityDeps } from "../../workflows/activity-deps.js";
import { workflowBundlePath } from "../../workflows/bundle.js";

/** The activities' services over a test's database, as the worker builds them (workflows/activity-deps.ts). */
export { activityDeps };

export const workflowsPath = fileURLToPath(new URL("../../workflows/workflows/index.ts", import.meta.url));

/** The workflows' bundle (built once for all the suites' workers: workflows/bundle.ts), as Worker.create takes it. */
export async function workflowBundle(): Promise<{ codePath: string }> {
  return { codePath: await workflowBundlePath(workflowsPath) };
}

export interface TestWorker {
  readonly taskQueue: string;
  /** A client on the file's namespace (set in beforeAll). */
  readonly client: Client;
}

/** Registers beforeAll/afterAll hooks; read `client` inside tests (it is set by then). */
export function useTestWorker(
  name: string,
  opts: { activities: () => object; install?: (client: Client, taskQueue: string) => () => void },
): TestWorker {
  const taskQueue = `${name}-${randomUUID().slice(0, 8)}`;
  const state = {} as { connection?: NativeConnection; worker?: Worker; running?: Promise<void>; client?: Client; uninstall?: () => void };
  beforeAll(async () => {
    const address = process.env.TEMPORAL_ADDRESS;
    if (!address) throw new Error("TEMPORAL_ADDRESS is not set (run the tests through vitest so test/setup/global.ts starts Temporal)");
    // The vitest worker's own namespace (test/setup/each-file.ts).
    const namespace = process.env.TEMPORAL_NAMESPACE ?? "default";
    state.connection = await NativeConnection.connect({ address });
    state.worker = await Worker.create({
      connection: state.connection,
      namespace,
      taskQueue,
      workflowBundle: await workflowBundle(),
      activities: opts.activities(),
    });
    state.running = state.worker.run();
    state.client = new Client({ connection: await Connection.connect({ address }), namespace });
    state.uninstall = opts.install?.(state.client, taskQueue);
  }, 120_000);
  afterAll(async () => {
    state.uninstall?.();
    state.worker?.shutdown();
    await state.running;
    // The API's after-commit calls on this client first: one retrying on a closed channel throws.
    await afterCommitSettled();
    await state.client?.connection.close();
    await state.connection?.close();
  }, 60_000);
  return {
    taskQueue,
    get client() {
      if (!state.client) throw new Error("useTestWorker: the client is set in beforeAll");
      return state.client;
    },
  };
}

/**
 * A worker for the subscription lifecycle and benefit grants (the workflows a purchase starts),
 * with the server's door for subscriptions and grant jobs (server/workflows-door.ts) pointed at its task queue.
 */
export function useLifecycleWorker(name: string, knex: () => Knex): TestWorker {
  return useTestWorker(name, {
    activities: () => {
      const deps = activityDeps(knex());
      return { ...createSubscriptionActivities(deps), ...createBenefitGrantActivities(deps) };
    },
    install: (client, taskQueue) => {
      const door = temporalDoor(client, taskQueue);
      setWorkflowsDoor({ pokeSubscriptions: door.pokeSubscriptions, startBenefitGrantJobs: door.startBenefitGrantJobs });
      return () => setWorkflowsDoor(null);
    },
  });
}
