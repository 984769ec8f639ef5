// Temporal test environments built from the tools in .cache/ (never downloaded at run time).
//
//   const env = await createTimeSkippingEnv();   // Java test server: timers skip ahead
//   ... Worker.create({ connection: env.nativeConnection, ... }); env.client.workflow.start(...)
//   await env.teardown();
import path from "node:path";
import { TestWorkflowEnvironment } from "@temporalio/testing";
import { ROOT } from "../../scripts/services.js";

export const TEMPORAL_TEST_SERVER_BIN = path.join(ROOT, ".cache", "bin", "temporal-test-server");

/** A time-skipping environment on the Java test server that scripts/build-tools.sh installs. */
export function createTimeSkippingEnv(): Promise<TestWorkflowEnvironment> {
  return TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: "existing-path", path: TEMPORAL_TEST_SERVER_BIN } },
  });
}

/** An environment on the shared dev server started by test/setup/global.ts. */
export function createSharedEnv(): Promise<TestWorkflowEnvironment> {
  const address = process.env.TEMPORAL_ADDRESS;
  if (!address) throw new Error("TEMPORAL_ADDRESS is not set (run the tests through vitest so test/setup/global.ts starts Temporal)");
  return TestWorkflowEnvironment.createFromExistingServer({ address });
}
