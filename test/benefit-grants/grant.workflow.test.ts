// The grant job workflow's orchestration alone, on Temporal's time-skipping test server with a
// scripted activity: a failing job is retried with growing backoff (no attempt limit) until it
// succeeds. (Jobs whose start was lost: the backstop sweep, test/benefit-grants/grants.test.ts.)
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { BenefitGrantActivities } from "../../workflows/activities/benefit-grants.js";
import { benefitGrantJobWorkflow } from "../../workflows/workflows/benefit-grant.js";
import { useTimeSkippingWorker } from "../harness/index.js";

const taskQueue = "benefit-grant-workflow-test";

describe("benefit grant job workflow", () => {
  let failuresLeft = 0;
  const attempts: number[] = [];
  const temporal = useTimeSkippingWorker(taskQueue, {
    logLevel: "ERROR",
    activities: (env): BenefitGrantActivities => ({
      runBenefitGrantJob: async () => {
        attempts.push(await env.currentTimeMs());
        if (failuresLeft-- > 0) throw new Error("discord answered 500");
        return "applied";
      },
    }),
  });

  it("retries a failing job with growing backoff until it applies", async () => {
    failuresLeft = 5;
    const result = await temporal.env.client.workflow.execute(benefitGrantJobWorkflow, {
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
});
