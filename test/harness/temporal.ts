// Temporal test environments built from the tools in .cache/ (never downloaded at run time).
//
//   const temporal = useTimeSkippingWorker("my-test", { activities: () => createXActivities(activityDeps(infra.knex)) });
//   ... temporal.env.client.workflow.start(..., { taskQueue: "my-test" }); await temporal.env.currentTimeMs()
import path from "node:path";
import { TestWorkflowEnvironment } from "@temporalio/testing";
import { DefaultLogger, IllegalStateError, Runtime, Worker, type LogLevel } from "@temporalio/worker";
import { afterAll, beforeAll } from "vitest";
import { ROOT } from "../../scripts/services.js";
import { afterCommitSettled } from "../../server/kit/after-commit.js";
import { workflowBundle } from "./worker.js";

export const TEMPORAL_TEST_SERVER_BIN = path.join(ROOT, ".cache", "bin", "temporal-test-server");

/**
 * A time-skipping environment on the Java test server that scripts/build-tools.sh installs. The
 * SDK waits 5 s for the JVM to listen, which a loaded machine can miss: a start that fails so is tried again.
 */
export async function createTimeSkippingEnv(attempts = 3): Promise<TestWorkflowEnvironment> {
  try {
    return await TestWorkflowEnvironment.createTimeSkipping({
      server: { executable: { type: "existing-path", path: TEMPORAL_TEST_SERVER_BIN } },
    });
  } catch (err) {
    if (attempts <= 1 || !(err instanceof Error && err.message.includes("Failed to start ephemeral server"))) throw err;
    return createTimeSkippingEnv(attempts - 1);
  }
}

/** An environment on the shared dev server started by test/setup/global.ts, in the file's namespace. */
export function createSharedEnv(): Promise<TestWorkflowEnvironment> {
  const address = process.env.TEMPORAL_ADDRESS;
  if (!address) throw new Error("TEMPORAL_ADDRESS is not set (run the tests through vitest so test/setup/global.ts starts Temporal)");
  return TestWorkflowEnvironment.createFromExistingServer({ address, namespace: process.env.TEMPORAL_NAMESPACE });
}

export interface TimeSkippingWorker {
  /** The file's time-skipping environment (set in beforeAll): its client and its clock. */
  readonly env: TestWorkflowEnvironment;
}

/**
 * A time-skipping environment of the file's own and a worker on `taskQueue` serving the
 * repository's workflows with `activities` (built once the environment exists, so scripted
 * activities can read its clock). The SDK logs at `logLevel` (WARN): its INFO narrates every
 * worker state change. Registers beforeAll/afterAll; read `env` inside tests.
 */
export function useTimeSkippingWorker(
  taskQueue: string,
  opts: { activities: (env: TestWorkflowEnvironment) => object; logLevel?: LogLevel },
): TimeSkippingWorker {
  const state = {} as { env?: TestWorkflowEnvironment; worker?: Worker; running?: Promise<void> };
  beforeAll(async () => {
    try {
      Runtime.install({ logger: new DefaultLogger(opts.logLevel ?? "WARN") });
    } catch (err) {
      // Installed once per process: an earlier file of the same worker thread did it.
      if (!(err instanceof IllegalStateError)) throw err;
    }
    state.env = await createTimeSkippingEnv();
    state.worker = await Worker.create({
      connection: state.env.nativeConnection,
      taskQueue,
      workflowBundle: await workflowBundle(),
      activities: opts.activities(state.env),
    });
    state.running = state.worker.run();
  }, 120_000);
  afterAll(async () => {
    state.worker?.shutdown();
    await state.running;
    // The API's after-commit calls on this environment's client first: one retrying on a closed channel throws.
    await afterCommitSettled();
    await state.env?.teardown();
  }, 60_000);
  return {
    get env() {
      if (!state.env) throw new Error("useTimeSkippingWorker: the environment is set in beforeAll");
      return state.env;
    },
  };
}
