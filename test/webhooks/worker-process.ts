// A webhook worker in a process of its own, for the test that kills a worker mid-delivery:
// `tsx test/webhooks/worker-process.ts` with WH_DATABASE_URL, WH_TEMPORAL_ADDRESS, WH_NAMESPACE
// and WH_TASK_QUEUE. Prints "ready" once polling.
import { fileURLToPath } from "node:url";
import { workflowBundlePath } from "../../workflows/bundle.js";
import { DefaultLogger, NativeConnection, Runtime, Worker } from "@temporalio/worker";
import { createKnex } from "../../server/kit/db.js";
import { createWebhookActivities } from "../../workflows/activities/webhooks.js";
import { activityDeps } from "../../workflows/activity-deps.js";

const env = (name: string) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
};

Runtime.install({ logger: new DefaultLogger("WARN") });
const knex = createKnex(env("WH_DATABASE_URL"));
const worker = await Worker.create({
  connection: await NativeConnection.connect({ address: env("WH_TEMPORAL_ADDRESS") }),
  namespace: env("WH_NAMESPACE"),
  taskQueue: env("WH_TASK_QUEUE"),
  workflowBundle: { codePath: await workflowBundlePath(fileURLToPath(new URL("../../workflows/workflows/index.ts", import.meta.url))) },
  activities: createWebhookActivities(activityDeps(knex)),
});
const running = worker.run();
console.log("ready");
await running;
