// A subscription worker in a process of its own, for the test that kills a worker mid-charge:
// `tsx test/subscriptions/worker-process.ts` with SUB_DATABASE_URL, SUB_TEMPORAL_ADDRESS,
// SUB_NAMESPACE and SUB_TASK_QUEUE; the sandbox processor reads SANDBOX_LEDGER_DIR and
// SANDBOX_CHARGE_DELAY_MS from the same environment. Prints "ready" once polling.
import { fileURLToPath } from "node:url";
import { workflowBundlePath } from "../../workflows/bundle.js";
import { DefaultLogger, NativeConnection, Runtime, Worker } from "@temporalio/worker";
import { createKnex } from "../../server/kit/db.js";
import { createSubscriptionActivities } from "../../workflows/activities/subscriptions.js";
import { activityDeps } from "../../workflows/activity-deps.js";

const env = (name: string) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
};

Runtime.install({ logger: new DefaultLogger("WARN") });
const worker = await Worker.create({
  connection: await NativeConnection.connect({ address: env("SUB_TEMPORAL_ADDRESS") }),
  namespace: env("SUB_NAMESPACE"),
  taskQueue: env("SUB_TASK_QUEUE"),
  workflowBundle: { codePath: await workflowBundlePath(fileURLToPath(new URL("../../workflows/workflows/index.ts", import.meta.url))) },
  activities: createSubscriptionActivities(activityDeps(createKnex(env("SUB_DATABASE_URL")))),
});
const running = worker.run();
console.log("ready");
await running;
