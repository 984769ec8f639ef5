// A subscription worker process killed mid-cycle: a child worker (./worker-process.ts) charges a
// renewal through the sandbox, whose answer is held back (SANDBOX_CHARGE_DELAY_MS), and is
// SIGKILLed then; a second worker takes the step over after its short timeout and retries with the
// same key, which the shared sandbox ledger answers. Exactly one renewal order, one payment and
// one charge for the period.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { createInterface } from "node:readline";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client, Connection } from "@temporalio/client";
import { DefaultLogger, IllegalStateError, NativeConnection, Runtime, Worker } from "@temporalio/worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setProcessor } from "../../server/processors/index.js";
import { readSandboxLedger, SandboxProcessor } from "../../server/processors/sandbox.js";
import { createSubscriptionActivities } from "../../workflows/activities/subscriptions.js";
import { subscriptionWorkflowId } from "../../workflows/shared/ids.js";
import { subscriptionWorkflow } from "../../workflows/workflows/subscription.js";
import { activityDeps, createSubscriptionFixture, useWorkflowInfra, workflowBundle } from "../harness/index.js";

const infra = useWorkflowInfra();
const DAY = 86_400_000;

describe("subscription worker killed mid-charge", () => {
  let connection: Connection;
  let client: Client;
  let ledgerDir: string;

  beforeAll(async () => {
    try {
      Runtime.install({ logger: new DefaultLogger("WARN") });
    } catch (err) {
      if (!(err instanceof IllegalStateError)) throw err;
    }
    connection = await Connection.connect({ address: infra.temporalAddress });
    client = new Client({ connection, namespace: infra.namespace });
    ledgerDir = await mkdtemp(path.join(tmpdir(), "sandbox-ledger-"));
  });

  afterAll(async () => {
    setProcessor(null);
    await connection?.close();
    if (ledgerDir) await rm(ledgerDir, { recursive: true, force: true });
  });

  it("bills the period once: one renewal order, one succeeded payment, one charge", async () => {
    // Due now: a daily subscription whose first day has just ended.
    const f = await createSubscriptionFixture(infra.knex, { startedAt: new Date(Date.now() - DAY), interval: "day", amount: 900 });
    const subscriptionId = f.subscription.id;
    const taskQueue = `subscriptions-kill-${randomUUID().slice(0, 8)}`;
    const chargesInLedger = async () =>
      (await readSandboxLedger(ledgerDir)).filter((e) => e.charge?.idempotencyKey.startsWith(`subscription:${subscriptionId}:`));

    const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(new URL("./worker-process.ts", import.meta.url))], {
      env: {
        ...process.env,
        SUB_DATABASE_URL: infra.databaseUrl,
        SUB_TEMPORAL_ADDRESS: infra.temporalAddress,
        SUB_NAMESPACE: infra.namespace,
        SUB_TASK_QUEUE: taskQueue,
        SANDBOX_LEDGER_DIR: ledgerDir,
        SANDBOX_CHARGE_DELAY_MS: "600000",
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const exited = once(child, "exit");
    let nativeConnection: NativeConnection | undefined;
    let second: Worker | undefined;
    let secondRunning: Promise<void> | undefined;
    try {
      // It prints one line once it polls, or dies trying.
      const [line] = (await Promise.race([once(createInterface({ input: child.stdout! }), "line"), exited])) as [unknown];
      expect(line).toBe("ready");
      await client.workflow.start(subscriptionWorkflow, {
        workflowId: subscriptionWorkflowId(subscriptionId),
        taskQueue,
        args: [{ subscriptionId, stepTimeoutMs: 5_000 }],
      });

      // Mid-charge: the card is charged (the ledger has it), the answer has not come back.
      await expect.poll(async () => (await chargesInLedger()).length, { timeout: 60_000, interval: 20 }).toBe(1);
      child.kill("SIGKILL");
      await exited;
      const [order] = await infra.knex("orders").where({ subscription_id: subscriptionId });
      expect(order).toMatchObject({ status: "pending", billing_reason: "subscription_cycle" });
      expect(await infra.knex("subscriptions").where({ id: subscriptionId }).first()).toMatchObject({
        pending_order_id: order.id,
        period_index: 1,
      });
      expect(await infra.knex("payments").where({ order_id: order.id })).toHaveLength(0);

      // A new worker in a new process would build the sandbox from the same ledger; so does this one.
      const sandbox = new SandboxProcessor({ ledgerDir, chargeDelayMs: 0 });
      setProcessor(sandbox);
      nativeConnection = await NativeConnection.connect({ address: infra.temporalAddress });
      second = await Worker.create({
        connection: nativeConnection,
        namespace: infra.namespace,
        taskQueue,
        workflowBundle: await workflowBundle(),
        activities: createSubscriptionActivities(activityDeps(infra.knex)),
      });
      secondRunning = second.run();
      await expect
        .poll(async () => (await infra.knex("orders").where({ id: order.id }).first()).status, { timeout: 60_000, interval: 200 })
        .toBe("paid");

      const orders = await infra.knex("orders").where({ subscription_id: subscriptionId });
      expect(orders).toHaveLength(1);
      const payments = await infra.knex("payments").where({ order_id: order.id });
      expect(payments.map((p) => [p.status, Number(p.amount)])).toEqual([["succeeded", 900]]);
      const charges = await chargesInLedger();
      expect(charges).toHaveLength(1);
      expect(charges[0].charge).toMatchObject({ amount: 900, currency: "usd", status: "succeeded" });
      // The second worker charged nothing itself: its retry got the first answer back.
      expect(sandbox.charges).toHaveLength(0);
      expect(payments[0].processor_ref).toBe((charges[0].value as { paymentRef: string }).paymentRef);
      expect(await infra.knex("subscriptions").where({ id: subscriptionId }).first()).toMatchObject({
        status: "active",
        pending_order_id: null,
        period_index: 1,
        dunning_attempts: 0,
      });
    } finally {
      child.kill("SIGKILL");
      await client.workflow
        .getHandle(subscriptionWorkflowId(subscriptionId))
        .terminate()
        .catch(() => {});
      second?.shutdown();
      await secondRunning;
      await nativeConnection?.close();
    }
  }, 120_000);
});
