// The grant job and sweep workflows' orchestration alone, on Temporal's time-skipping test
// server with scripted activities: a failing job is retried with growing backoff (no attempt
// limit) until it succeeds, and the sweep pages through pending jobs by cursor, then sleeps.
import { randomUUID } from "node:crypto";
import type { TestWorkflowEnvironment } from "@temporalio/testing";
import { DefaultLogger, IllegalStateError, Runtime, Worker } from "@temporalio/worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BenefitGrantActivities } from "../../workflows/activities/benefit-grants.js";
import { benefitGrantJobWorkflow } from "../../workflows/workflows/benefit-grant.js";
import { benefitGrantSweepWorkflow } from "../../workflows/workflows/benefit-grant-sweep.js";
import { createTimeSkippingEnv, workflowsPath } from "../harness/index.js";

const taskQueue = "benefit-grant-workflow-test";

describe("benefit grant workflows", () => {
  let env: TestWorkflowEnvironment;
  let worker: Worker;
  let running: Promise<void>;
  let failuresLeft = 0;
  const attempts: number[] = [];
  const sweeps: { at: number; cursor: number | undefined }[] = [];
  let pages: (number | null)[] = [];

  beforeAll(async () => {
    try {
      Runtime.install({ logger: new DefaultLogger("ERROR") });
    } catch (err) {
      if (!(err instanceof IllegalStateError)) throw err;
    }
    env = await createTimeSkippingEnv();
    const activities: BenefitGrantActivities = {
      runBenefitGrantJob: async () => {
        attempts.push(await env.currentTimeMs());
        if (failuresLeft-- > 0) throw new Error("discord answered 500");
        return "applied";
      },
      sweepBenefitGrantJobs: async (_grace, _limit, afterId) => {
        sweeps.push({ at: await env.currentTimeMs(), cursor: afterId });
        return pages.length ? pages.shift()! : null;
      },
    };
    worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowsPath, activities });
    running = worker.run();
  }, 60_000);
  afterAll(async () => {
    worker?.shutdown();
    await running;
    await env?.teardown();
  }, 30_000);

  it("retries a failing job with growing backoff until it applies", async () => {
    failuresLeft = 5;
    const result = await env.client.workflow.execute(benefitGrantJobWorkflow, {
      workflowId: `benefit-grant:${randomUUID()}:grant:1`,
      taskQueue,
      args: [{ jobId: 1, grantId: randomUUID() }],
    });
    expect(result).toBe("applied");
    expect(attempts).toHaveLength(6);
    const gaps = attempts.slice(1).map((t, i) => t - attempts[i]);
    // 2 s, 4 s, 8 s, 16 s, 32 s (± scheduling).
    for (const [i, gap] of gaps.entries()) {
      expect(gap).toBeGreaterThanOrEqual(2_000 * 2 ** i - 100);
      expect(gap).toBeLessThan(2_000 * 2 ** i + 2_000);
    }
  });

  it("sweeps page after page by cursor, then sleeps the interval", async () => {
    pages = [5, 9, null, null];
    const handle = await env.client.workflow.start(benefitGrantSweepWorkflow, {
      workflowId: `benefit-grant-sweep-${randomUUID()}`,
      taskQueue,
      args: [{ intervalMs: 60_000, graceMs: 1_000, maxIterations: 2 }],
    });
    await expect.poll(() => sweeps.length, { timeout: 20_000 }).toBe(3);
    // Time skips only while the test waits on the server: sleep past the interval.
    await env.sleep("61 seconds");
    await expect.poll(() => sweeps.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(4);
    expect(sweeps.slice(0, 4).map((s) => s.cursor)).toEqual([0, 5, 9, 0]);
    expect(sweeps[3].at - sweeps[2].at).toBeGreaterThanOrEqual(60_000);
    await handle.terminate();
  });
});
