// The outbox relay's orchestration alone, on Temporal's time-skipping test server with a scripted
// claimOutboxBatch instead of the database: when it claims again, when it sleeps, that a signal
// cuts the sleep short, and that continueAsNew keeps the running total. Hours pass in milliseconds.
import { randomUUID } from "node:crypto";
import { WorkflowFailedError } from "@temporalio/client";
import { describe, expect, it } from "vitest";
import type { OutboxActivities, OutboxBatch } from "../../workflows/activities/outbox.js";
import { relayStatsQuery } from "../../workflows/shared/queries.js";
import { outboxSignal } from "../../workflows/shared/signals.js";
import { outboxRelayWorkflow } from "../../workflows/workflows/outbox-relay.js";
import { useTimeSkippingWorker } from "../harness/index.js";
import { sleep } from "../../server/kit/time.js";

const taskQueue = "outbox-relay-test";
const MINUTE = 60_000;
const poll = { timeout: 10_000, interval: 50 };

/** Batch sizes handed out in order, then empty batches; records how many claims were made. */
class ScriptedOutbox {
  calls = 0;
  private nextId = 1;
  constructor(private readonly sizes: number[] | ((call: number) => number)) {}
  claim = async (limit: number): Promise<OutboxBatch> => {
    this.calls++;
    const size = Math.min(limit, typeof this.sizes === "function" ? this.sizes(this.calls) : (this.sizes[this.calls - 1] ?? 0));
    const ids = Array.from({ length: size }, () => this.nextId++);
    return { ids, types: ids.map(() => "order.created") };
  };
}

describe("outbox relay workflow", () => {
  let outbox = new ScriptedOutbox([]);
  const temporal = useTimeSkippingWorker(taskQueue, {
    activities: (): OutboxActivities => ({ claimOutboxBatch: (limit) => outbox.claim(limit) }),
  });

  const start = (input: Parameters<typeof outboxRelayWorkflow>[0]) =>
    temporal.env.client.workflow.start(outboxRelayWorkflow, { workflowId: `relay-${randomUUID()}`, taskQueue, args: [input] });

  it("claims again at once after a full batch, sleeps after a partial one, and wakes on a signal", async () => {
    outbox = new ScriptedOutbox([3, 3, 1]);
    const handle = await start({ batchSize: 3, idleSleepMs: 10 * MINUTE });

    await expect.poll(() => outbox.calls, poll).toBe(3);
    await sleep(300);
    expect(outbox.calls).toBe(3); // asleep after the partial batch

    await temporal.env.sleep(10 * MINUTE);
    await expect.poll(() => outbox.calls, poll).toBe(4); // the idle sleep ended; empty batch, asleep again

    await handle.signal(outboxSignal);
    await expect.poll(() => outbox.calls, poll).toBe(5); // woken long before the next 10 minutes
    expect(await handle.query(relayStatsQuery)).toEqual({ relayed: 7, iterations: 5 });
    await handle.terminate();
  });

  it("continues as new after maxIterations and keeps counting across runs", async () => {
    outbox = new ScriptedOutbox(() => 1);
    const handle = await start({ batchSize: 2, idleSleepMs: MINUTE, maxIterations: 3 });
    const firstRunId = handle.firstExecutionRunId;

    await expect.poll(() => outbox.calls, poll).toBe(1);
    await temporal.env.sleep(7 * MINUTE + 1_000); // 7 more claims: runs of 3, 3 and the third run's second
    await expect.poll(() => outbox.calls, poll).toBe(8);

    const first = await temporal.env.client.workflow.getHandle(handle.workflowId, firstRunId).describe();
    expect(first.status.name).toBe("CONTINUED_AS_NEW");
    const latest = await handle.describe();
    expect(latest.runId).not.toBe(firstRunId);
    await expect.poll(() => handle.query(relayStatsQuery), poll).toEqual({ relayed: 8, iterations: 2 });
    await handle.terminate();
  });

  it("refuses a batch size that could never fill", async () => {
    const run = temporal.env.client.workflow.execute(outboxRelayWorkflow, {
      workflowId: `relay-${randomUUID()}`,
      taskQueue,
      args: [{ batchSize: 0, idleSleepMs: MINUTE }],
    });
    await expect(run).rejects.toBeInstanceOf(WorkflowFailedError);
    await expect(run).rejects.toMatchObject({ cause: { message: expect.stringContaining("batchSize must be a positive integer") } });
  });
});
