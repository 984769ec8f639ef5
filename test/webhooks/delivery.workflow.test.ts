// The endpoint delivery workflow alone, on Temporal's time-skipping server with scripted
// activities: the exact Standard Webhooks retry schedule, giving up after the last attempt, a
// crashed attempt counted as failed, outbox order within the hold, an event set aside past it while
// the rest go on, a 410 or a long-failing endpoint stopping the queue, an idle run woken by a signal.
import { randomUUID } from "node:crypto";
import type { TestWorkflowEnvironment } from "@temporalio/testing";
import { describe, expect, it } from "vitest";
import type { AttemptOutcome, AttemptResult, QueueRun } from "../../server/webhooks/delivery.js";
import type { WebhookActivities } from "../../workflows/activities/webhooks.js";
import { setting } from "../../server/config.js";
import { webhookEventWorkflowId } from "../../workflows/shared/ids.js";
import { webhookEventsSignal } from "../../workflows/shared/webhooks.js";
import {
  DEFAULT_WEBHOOK_HOLD_MS,
  WEBHOOK_RETRY_DELAYS_MS,
  webhookEndpointWorkflow,
  type WebhookEndpointWorkflowInput,
} from "../../workflows/workflows/webhook-delivery.js";
import { useTimeSkippingWorker } from "../harness/index.js";
import { sleep } from "../../server/kit/time.js";

const taskQueue = "webhook-delivery-test";
const DAY = 86_400_000;
const poll = { timeout: 10_000, interval: 50 };

/** A queue of event ids and, per event, the outcomes of its attempts (then "delivered"). */
class ScriptedEndpoint {
  queue: string[] = [];
  /** Events out of the queue, retried by workflows of their own: the queueing set aside. */
  setAside = new Map<string, number>();
  attempts: { eventId: string; attempt: number; at: number; opts?: { at?: number; disableAfterMs?: number }; setAside?: true }[] = [];
  settled: string[] = [];
  /** deliverQueuedWebhooks calls. */
  runs = 0;
  constructor(
    private readonly env: TestWorkflowEnvironment,
    private readonly outcomes: Record<string, (AttemptOutcome | "crash")[]> = {},
  ) {}
  /** Times each event was queued (a redelivery queues it again). */
  queuedTimes = new Map<string, number>();
  /** Called at each attempt, before its outcome: lets a test act while an attempt runs. */
  onAttempt: (eventId: string) => void = () => {};
  private async attempt(attempt: ScriptedEndpoint["attempts"][number]): Promise<AttemptResult> {
    this.attempts.push(attempt);
    this.onAttempt(attempt.eventId);
    const outcome = this.outcomes[attempt.eventId]?.shift() ?? "delivered";
    if (outcome === "crash") throw new Error("worker lost mid-delivery");
    return { outcome, httpCode: outcome === "delivered" ? 200 : outcome === "gone" ? 410 : 500 };
  }
  activities: WebhookActivities = {
    nextWebhookEvent: async () => (this.queue[0] ? { eventId: this.queue[0], queued: this.queuedTimes.get(this.queue[0]) ?? 1 } : null),
    attemptWebhookDelivery: async (event, attempt, opts) =>
      this.attempt({ eventId: typeof event === "string" ? event : event.eventId, attempt, at: await this.env.currentTimeMs(), opts }),
    // As server/webhooks/deliverQueued: first attempts in order until one does not deliver.
    deliverQueuedWebhooks: async (_endpointId, opts): Promise<QueueRun> => {
      this.runs++;
      let delivered = 0;
      for (;;) {
        const next = await this.activities.nextWebhookEvent("");
        if (next === null) return { delivered, head: null, more: false };
        const result = await this.activities.attemptWebhookDelivery(next.eventId, 1, opts);
        if (result.outcome !== "delivered") return { delivered, head: { ...next, ...result }, more: false };
        await this.activities.settleWebhookEvent(next);
        delivered++;
      }
    },
    settleWebhookEvent: async ({ eventId, queued }) => {
      this.settled.push(eventId);
      if ((this.queuedTimes.get(eventId) ?? 1) !== queued) return;
      this.queue = this.queue.filter((id) => id !== eventId);
      this.setAside.delete(eventId);
    },
    setAsideWebhookEvent: async ({ eventId, queued }) => {
      if (this.setAside.get(eventId) === queued) return true;
      if (!this.queue.includes(eventId) || (this.queuedTimes.get(eventId) ?? 1) !== queued) return false;
      this.queue = this.queue.filter((id) => id !== eventId);
      this.setAside.set(eventId, queued);
      return true;
    },
    attemptSetAsideWebhookDelivery: async ({ eventId, queued }, attempt, opts) => {
      if (this.setAside.get(eventId) !== queued) return { outcome: "requeued", httpCode: null };
      return this.attempt({ eventId, attempt, at: await this.env.currentTimeMs(), opts, setAside: true });
    },
  };
}

describe("webhook endpoint delivery workflow", () => {
  let endpoint: ScriptedEndpoint;
  const temporal = useTimeSkippingWorker(taskQueue, {
    activities: (env): WebhookActivities => {
      endpoint = new ScriptedEndpoint(env);
      return {
        nextWebhookEvent: (id) => endpoint.activities.nextWebhookEvent(id),
        attemptWebhookDelivery: (id, n, opts) => endpoint.activities.attemptWebhookDelivery(id, n, opts),
        deliverQueuedWebhooks: (id, opts) => endpoint.activities.deliverQueuedWebhooks(id, opts),
        settleWebhookEvent: (event) => endpoint.activities.settleWebhookEvent(event),
        setAsideWebhookEvent: (event) => endpoint.activities.setAsideWebhookEvent(event),
        attemptSetAsideWebhookDelivery: (event, n, opts) => endpoint.activities.attemptSetAsideWebhookDelivery(event, n, opts),
      };
    },
  });

  const run = (input: Partial<WebhookEndpointWorkflowInput> = {}) =>
    temporal.env.client.workflow.execute(webhookEndpointWorkflow, {
      workflowId: `webhook-endpoint:${randomUUID()}`,
      taskQueue,
      args: [{ endpointId: randomUUID(), ...input }],
    });

  /**
   * The endpoint's workflow, idle long enough to outlive the workflows of the events it sets aside:
   * the time-skipping server stops skipping time for good once a child ends after its parent
   * (temporalio/sdk-java#2392), so each test's parent outlives its children.
   */
  const runOutlivingSetAside = (input: Partial<WebhookEndpointWorkflowInput> = {}) => run(Object.assign({ idleMs: 7 * DAY }, input));
  /** The workflow of an event's set-aside queueing (ended by then). */
  const setAsideRun = (eventId: string, queued = 1) =>
    temporal.env.client.workflow.getHandle(webhookEventWorkflowId(eventId, queued)).describe();

  it("retries at once, then after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, 14 h, 20 h, 24 h, then gives up", async () => {
    endpoint = new ScriptedEndpoint(temporal.env, { e1: Array(20).fill("failed") });
    endpoint.queue = ["e1"];
    await runOutlivingSetAside();
    expect((await setAsideRun("e1")).status.name).toBe("COMPLETED");

    expect(endpoint.attempts.map((a) => a.attempt)).toEqual([...Array(11).keys()].map((i) => i + 1));
    // The first four within the hour's hold, in the queue; the rest set aside, on the same schedule.
    expect(endpoint.attempts.map((a) => a.setAside ?? false)).toEqual([...Array(4).fill(false), ...Array(7).fill(true)]);
    const gaps = endpoint.attempts.slice(1).map((a, i) => a.at - endpoint.attempts[i].at);
    const expected = WEBHOOK_RETRY_DELAYS_MS.slice(1);
    expect(expected).toEqual([
      5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000, 50_400_000, 72_000_000, 86_400_000,
    ]);
    for (const [i, gap] of gaps.entries()) {
      expect(gap).toBeGreaterThanOrEqual(expected[i]);
      expect(gap).toBeLessThan(expected[i] + 2_000);
    }
    expect(endpoint.settled).toEqual(["e1"]);
  });

  it("delivers on the third attempt after two failures, and a crashed attempt counts as one", async () => {
    endpoint = new ScriptedEndpoint(temporal.env, { e1: ["failed", "crash"] });
    endpoint.queue = ["e1"];
    await run();
    expect(endpoint.attempts.map((a) => a.attempt)).toEqual([1, 2, 3]);
    expect(endpoint.attempts[2].at - endpoint.attempts[0].at).toBeGreaterThanOrEqual(5_000 + 300_000);
    expect(endpoint.settled).toEqual(["e1"]);
  });

  it("makes the first attempts of everything queued in one activity, in order", async () => {
    endpoint = new ScriptedEndpoint(temporal.env);
    endpoint.queue = ["e1", "e2", "e3", "e4", "e5"];
    await run();
    expect(endpoint.attempts.map((a) => [a.eventId, a.attempt])).toEqual([
      ["e1", 1],
      ["e2", 1],
      ["e3", 1],
      ["e4", 1],
      ["e5", 1],
    ]);
    expect(endpoint.settled).toEqual(["e1", "e2", "e3", "e4", "e5"]);
    // One run delivered all five and found the queue empty; one more read it after the idle wait.
    expect(endpoint.runs).toBe(2);
  });

  it("counts a first-attempt run lost mid-flight as a failed first attempt of the head, then goes on with the schedule", async () => {
    endpoint = new ScriptedEndpoint(temporal.env, { e2: ["crash"] });
    endpoint.queue = ["e1", "e2", "e3"];
    await run();
    expect(endpoint.attempts.map((a) => [a.eventId, a.attempt])).toEqual([
      ["e1", 1],
      ["e2", 1],
      ["e2", 2],
      ["e3", 1],
    ]);
    expect(endpoint.attempts[2].at - endpoint.attempts[1].at).toBeGreaterThanOrEqual(WEBHOOK_RETRY_DELAYS_MS[1]);
    expect(endpoint.settled).toEqual(["e1", "e2", "e3"]);
  });

  it("holds WEBHOOK_HOLD_MS's default when the input has none", () => {
    expect(DEFAULT_WEBHOOK_HOLD_MS).toBe(3_600_000);
    expect(setting("WEBHOOK_HOLD_MS", {})).toBe(DEFAULT_WEBHOOK_HOLD_MS);
  });

  it("keeps outbox order within the hold: the next event waits for the one before it", async () => {
    endpoint = new ScriptedEndpoint(temporal.env, { e1: ["failed", "failed"], e2: ["failed"] });
    endpoint.queue = ["e1", "e2", "e3"];
    await run({ retryDelaysMs: [0, 1_000, 1_000] });
    expect(endpoint.attempts.map((a) => a.eventId)).toEqual(["e1", "e1", "e1", "e2", "e2", "e3"]);
    expect(endpoint.settled).toEqual(["e1", "e2", "e3"]);
  });

  it("sends an event again when its redelivery is requested while an attempt runs", async () => {
    endpoint = new ScriptedEndpoint(temporal.env);
    endpoint.queue = ["e1", "e2"];
    let redelivered = false;
    endpoint.onAttempt = (eventId) => {
      if (eventId === "e1" && !redelivered) {
        redelivered = true;
        endpoint.queuedTimes.set("e1", 2);
      }
    };
    await run();
    expect(endpoint.attempts.map((a) => a.eventId)).toEqual(["e1", "e1", "e2"]);
    expect(endpoint.settled).toEqual(["e1", "e1", "e2"]);
  });

  it("stops the queue when the endpoint answers 410 Gone", async () => {
    endpoint = new ScriptedEndpoint(temporal.env, { e1: ["gone"] });
    endpoint.queue = ["e1", "e2"];
    await run();
    expect(endpoint.attempts.map((a) => a.eventId)).toEqual(["e1"]);
    expect(endpoint.settled).toEqual(["e1"]);
  });

  it("gives each attempt the workflow's clock and the disable span, and stops the queue once the endpoint is disabled", async () => {
    endpoint = new ScriptedEndpoint(temporal.env, { e1: ["failed", "failed", "disabled"] });
    endpoint.queue = ["e1", "e2"];
    // Held in the queue throughout.
    await run({ retryDelaysMs: [0, 3_600_000, 3_600_000, 3_600_000], disableAfterMs: 7_200_000, holdMs: 10 * 3_600_000 });
    expect(endpoint.attempts.map((a) => a.eventId)).toEqual(["e1", "e1", "e1"]);
    for (const a of endpoint.attempts) {
      expect(a.opts?.disableAfterMs).toBe(7_200_000);
      // Skipped time included: the attempt's `at` is the test server's time, not the wall clock's.
      expect(Math.abs(a.opts!.at! - a.at)).toBeLessThan(2_000);
    }
    expect(endpoint.attempts[2].opts!.at! - endpoint.attempts[0].opts!.at!).toBeGreaterThanOrEqual(7_200_000);
    expect(endpoint.settled).toEqual(["e1"]);
  });

  it("sets an event failing past the hold aside: the events behind it go out at once, and it keeps its own schedule", async () => {
    endpoint = new ScriptedEndpoint(temporal.env, { e1: Array(6).fill("failed") });
    endpoint.queue = ["e1", "e2", "e3"];
    const start = await temporal.env.currentTimeMs();
    await runOutlivingSetAside();

    // e1 at once, +5 s, +5 min, +30 min (its next attempt, +2 h, is past the hour), then e2 and e3 at once.
    expect(endpoint.attempts.slice(0, 6).map((a) => [a.eventId, a.attempt])).toEqual([
      ["e1", 1],
      ["e1", 2],
      ["e1", 3],
      ["e1", 4],
      ["e2", 1],
      ["e3", 1],
    ]);
    const e2 = endpoint.attempts[4];
    expect(e2.at - endpoint.attempts[3].at).toBeLessThan(2_000);
    expect(e2.at - start).toBeLessThan(DEFAULT_WEBHOOK_HOLD_MS);

    expect((await setAsideRun("e1")).status.name).toBe("COMPLETED");
    const e1 = endpoint.attempts.filter((a) => a.eventId === "e1");
    expect(e1.map((a) => [a.attempt, a.setAside ?? false])).toEqual([
      [1, false],
      [2, false],
      [3, false],
      [4, false],
      [5, true],
      [6, true],
      [7, true],
    ]);
    // After 2 h, 5 h, then 10 h: delivered at the seventh attempt.
    const gaps = e1.slice(4).map((a, i) => a.at - e1[i + 3].at);
    for (const [i, gap] of gaps.entries()) {
      expect(gap).toBeGreaterThanOrEqual(WEBHOOK_RETRY_DELAYS_MS[i + 4]);
      expect(gap).toBeLessThan(WEBHOOK_RETRY_DELAYS_MS[i + 4] + 2_000);
    }
    expect(endpoint.settled).toEqual(["e2", "e3", "e1"]);
    expect(endpoint.setAside.size).toBe(0);
  });

  it("sets a handed-over event aside at once when the hold is 0, and its own workflow delivers it", async () => {
    endpoint = new ScriptedEndpoint(temporal.env);
    endpoint.queue = ["e1", "e2"];
    await runOutlivingSetAside({ holdMs: 0, handedOver: { eventId: "e1", queued: 1 } });
    expect((await setAsideRun("e1")).status.name).toBe("COMPLETED");
    expect(endpoint.attempts.map((a) => [a.eventId, a.attempt, a.setAside ?? false])).toEqual([
      ["e2", 1, false],
      ["e1", 2, true],
    ]);
    expect(endpoint.attempts[1].at - endpoint.attempts[0].at).toBeGreaterThanOrEqual(WEBHOOK_RETRY_DELAYS_MS[1]);
    expect(endpoint.settled).toEqual(["e2", "e1"]);
  });

  it("waits idle for a signal, then delivers what was queued", async () => {
    endpoint = new ScriptedEndpoint(temporal.env);
    const handle = await temporal.env.client.workflow.start(webhookEndpointWorkflow, {
      workflowId: `webhook-endpoint:${randomUUID()}`,
      taskQueue,
      args: [{ endpointId: randomUUID(), idleMs: 3_600_000 }],
    });
    await sleep(300);
    expect(endpoint.attempts).toHaveLength(0);
    endpoint.queue = ["e9"];
    await handle.signal(webhookEventsSignal);
    await expect.poll(() => endpoint.settled, poll).toEqual(["e9"]);
    await handle.result(); // the idle hour is skipped: the run ends
  });

  it("reads the queue once more before ending idle, so an event whose wake-up was lost still goes out", async () => {
    endpoint = new ScriptedEndpoint(temporal.env);
    const handle = await temporal.env.client.workflow.start(webhookEndpointWorkflow, {
      workflowId: `webhook-endpoint:${randomUUID()}`,
      taskQueue,
      args: [{ endpointId: randomUUID(), idleMs: 60_000 }],
    });
    await sleep(300);
    endpoint.queue = ["e5"]; // queued, but no signal
    await handle.result();
    expect(endpoint.settled).toEqual(["e5"]);
  });
});
