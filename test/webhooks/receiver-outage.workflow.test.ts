// A receiver down for hours, then back: the endpoint delivery workflow on Temporal's time-skipping
// test server with the real activities (PostgreSQL, signing, HTTP to a real receiver on 127.0.0.1),
// the real Standard Webhooks schedule and the default hold (1 hour). The receiver answers 503 for
// the first 6 hours of (skipped) time, then 200: each event holds the queue for its hold, is set
// aside and goes on with its own schedule; every event is delivered exactly once, none lost.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebhookActivities } from "../../workflows/activities/webhooks.js";
import { webhookEndpointWorkflowId } from "../../workflows/shared/ids.js";
import { webhookEndpointWorkflow } from "../../workflows/workflows/webhook-delivery.js";
import { activityDeps, createOrganization, useTimeSkippingWorker, useWorkflowInfra } from "../harness/index.js";
import { ClockedReceiver, queueEvents } from "./clocked-receiver.js";

const infra = useWorkflowInfra();
const taskQueue = "webhook-outage-test";
const HOUR = 3_600_000;

describe("a webhook receiver down for hours", () => {
  const receiver = new ClockedReceiver(() => temporal.env.currentTimeMs());
  const received = receiver.hits;

  beforeAll(async () => {
    process.env.WEBHOOKS_ALLOW_LOOPBACK = "1";
    await receiver.start();
  });

  afterAll(async () => {
    await receiver.stop();
    delete process.env.WEBHOOKS_ALLOW_LOOPBACK;
  });
  // Started after the receiver listens, stopped before it closes (after-hooks run in reverse).
  const temporal = useTimeSkippingWorker(taskQueue, { activities: () => createWebhookActivities(activityDeps(infra.knex)) });

  it("delivers every queued event exactly once after 6 hours down, each holding the queue for the hold only", async () => {
    const org = await createOrganization(infra.knex);
    const [endpoint] = await infra
      .knex("webhook_endpoints")
      .insert({
        organization_id: org.id,
        url: `${receiver.url}/hook`,
        format: "raw",
        secret: `whsec_${randomUUID()}`,
        events: ["order.created"],
      })
      .returning("id");
    // Five events queued, as the fan-out leaves them (their outbox rows already published).
    const eventIds = await queueEvents(infra.knex, org.id, endpoint.id, Array(5).fill("order.created"));

    const start = await temporal.env.currentTimeMs();
    receiver.answer = (_type, _n, at) => (at < start + 6 * HOUR ? 503 : 200);
    await temporal.env.client.workflow.execute(webhookEndpointWorkflow, {
      workflowId: webhookEndpointWorkflowId(endpoint.id),
      taskQueue,
      // The real schedule, hold and disable span; idle long enough to outlive the set-aside events'
      // workflows (the time-skipping server stops skipping once a child ends after its parent).
      args: [{ endpointId: endpoint.id, idleMs: 7 * 24 * HOUR }],
    });

    // The head event was tried at once, 5 s, 5 min, 30 min in the queue, then set aside: 2 h later
    // (503) and 5 h after that, at 7 h 35 min: 200. Its schedule is the one it had in the queue.
    const head = received.filter((r) => r.n === 0);
    expect(head.map((r) => r.status)).toEqual([503, 503, 503, 503, 503, 200]);
    expect(head.at(-1)!.at - start).toBeGreaterThanOrEqual(7 * HOUR + 35 * 60_000);
    // Each event held the ones behind it for less than the hour: the next one's first attempt came sooner.
    const firstAttempts = eventIds.map((_, n) => received.find((r) => r.n === n)!.at);
    for (let n = 1; n < firstAttempts.length; n++) expect(firstAttempts[n] - firstAttempts[n - 1]).toBeLessThan(HOUR);
    // Every event delivered exactly once, with its own webhook-id (the same schedule for each: in order here too).
    const delivered = received.filter((r) => r.status === 200);
    expect(delivered.map((r) => r.n)).toEqual([0, 1, 2, 3, 4]);
    expect(delivered.map((r) => r.webhookId)).toEqual(eventIds);

    const events = await infra.knex("webhook_events").whereIn("id", eventIds);
    expect(events.every((e) => e.succeeded === true && e.pending === false && e.last_http_code === 200)).toBe(true);
    // The receiver was down past each one's hold: every one was set aside.
    expect(events.every((e) => e.set_aside_at !== null)).toBe(true);
    const successes = await infra
      .knex("webhook_deliveries")
      .where({ endpoint_id: endpoint.id, succeeded: true })
      .select("webhook_event_id");
    expect(successes.map((d) => d.webhook_event_id).sort()).toEqual([...eventIds].sort());
    // Recovered before the disable span: still enabled, no longer failing, nobody told.
    expect(await infra.knex("webhook_endpoints").where({ id: endpoint.id }).first()).toMatchObject({ enabled: true, failing_since: null });
    expect(await infra.knex("organization_notifications").where({ organization_id: org.id })).toHaveLength(0);
  }, 120_000);
});
