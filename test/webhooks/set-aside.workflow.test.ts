// Ordered delivery with a bounded hold, end to end on Temporal's time-skipping test server: the
// endpoint's workflow and the set-aside events' workflows with the real activities (PostgreSQL,
// signing, HTTP to a real receiver on 127.0.0.1), the real Standard Webhooks schedule and the
// default hold (1 hour), and the API over the same database for the deliveries list, deletion and
// redelivery. The receiver refuses one event type while it accepts the rest.
import { randomUUID } from "node:crypto";
import { Polar } from "@polar-sh/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type ApiHandle } from "../../server/main.js";
import { mintOrganizationToken } from "../../server/organization-access-tokens/service.js";
import { nextQueuedEvent, queuedEndpoints } from "../../server/webhooks/delivery.js";
import { countPendingEvents, releaseIdleDeliveryLease, takeDeliveryLease } from "../../server/webhooks/repository.js";
import { setWorkflowsDoor, temporalDoor } from "../../server/workflows-door.js";
import { createWebhookActivities } from "../../workflows/activities/webhooks.js";
import { webhookEndpointWorkflowId, webhookEventWorkflowId } from "../../workflows/shared/ids.js";
import {
  DEFAULT_WEBHOOK_HOLD_MS,
  webhookEndpointWorkflow,
  type WebhookEndpointWorkflowInput,
} from "../../workflows/workflows/webhook-delivery.js";
import { activityDeps, createOrganization, useTimeSkippingWorker, useWorkflowInfra } from "../harness/index.js";
import { sharedResponseChecks } from "../harness/response-checks.js";
import { ClockedReceiver, queueEvents } from "./clocked-receiver.js";

const infra = useWorkflowInfra();
const taskQueue = "webhook-set-aside-test";
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/**
 * Each endpoint's workflow idles long enough to outlive the workflows of the events it sets aside:
 * the time-skipping server stops skipping time for good once a child ends after its parent
 * (temporalio/sdk-java#2392). First attempts do not listen for more events (no waits in real time).
 */
const settings: Omit<WebhookEndpointWorkflowInput, "endpointId"> = { idleMs: 7 * 24 * HOUR, listenMs: 0 };

describe("ordered webhook delivery with a bounded hold", () => {
  const receiver = new ClockedReceiver(() => temporal.env.currentTimeMs());
  let api: ApiHandle;

  beforeAll(async () => {
    process.env.WEBHOOKS_ALLOW_HTTP = "1";
    process.env.WEBHOOKS_ALLOW_LOOPBACK = "1";
    await receiver.start();
  });

  afterAll(async () => {
    setWorkflowsDoor(null);
    await api?.close();
    await receiver.stop();
    delete process.env.WEBHOOKS_ALLOW_HTTP;
    delete process.env.WEBHOOKS_ALLOW_LOOPBACK;
  });
  // Started after the receiver listens, stopped before it closes (after-hooks run in reverse).
  const temporal = useTimeSkippingWorker(taskQueue, { activities: () => createWebhookActivities(activityDeps(infra.knex)) });

  beforeAll(async () => {
    api = await startApi({ knex: infra.knex, port: 0, validateResponses: true, responseChecks: sharedResponseChecks() });
    // The API's wake-ups (a redelivery) start or signal the endpoint's workflow on this worker.
    setWorkflowsDoor({ wakeWebhookEndpoints: temporalDoor(temporal.env.client, taskQueue, settings).wakeWebhookEndpoints });
  });

  /** An organization's endpoint subscribed to order.created and order.updated, with `types` queued for it in this order. */
  async function endpoint(...types: string[]) {
    const org = await createOrganization(infra.knex);
    const token = await mintOrganizationToken(infra.knex, org.id);
    const polar = new Polar({ accessToken: token, serverURL: api.url });
    const ep = await polar.webhooks.createWebhookEndpoint({
      url: `${receiver.url}/${randomUUID()}`,
      format: "raw",
      events: ["order.created", "order.updated"],
    });
    const ids = await queueEvents(infra.knex, org.id, ep.id, types);
    /** The requests the receiver got for this endpoint's event `n`. */
    const hitsOf = (n: number) => receiver.hits.filter((h) => h.webhookId === ids[n]);
    /** The deliveries list's events by id, as the API answers it (with the set_aside_at extension). */
    const listed = async () => {
      const res = await fetch(`${api.url}/v1/webhooks/deliveries?endpoint_id=${ep.id}&limit=100`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(200);
      const { items } = (await res.json()) as { items: { webhook_event: { id: string; set_aside_at?: string | null } }[] };
      return new Map(items.map((d) => [d.webhook_event.id, d.webhook_event.set_aside_at]));
    };
    const start = (input: Partial<WebhookEndpointWorkflowInput> = {}) =>
      temporal.env.client.workflow.start(webhookEndpointWorkflow, {
        workflowId: webhookEndpointWorkflowId(ep.id),
        taskQueue,
        args: [Object.assign({ endpointId: ep.id }, settings, input)],
      });
    return { org, ep, polar, ids, hitsOf, listed, start };
  }

  /** An order.updated the receiver refuses, then an order.created; 40 minutes on, the first was set aside. */
  async function refusedSetAside() {
    const e = await endpoint("order.updated", "order.created");
    receiver.answer = (type) => (type === "order.updated" ? 500 : 200);
    const handle = await e.start();
    await temporal.env.sleep(40 * MINUTE);
    expect(e.hitsOf(0)).toHaveLength(4);
    expect(e.hitsOf(1).map((h) => h.status)).toEqual([200]);
    expect((await event(e.ids[0])).set_aside_at).not.toBeNull();
    return Object.assign(e, { handle });
  }

  const event = (id: string) => infra.knex("webhook_events").where({ id }).first();
  const setAsideRun = (eventId: string, queued = 1) =>
    temporal.env.client.workflow.getHandle(webhookEventWorkflowId(eventId, queued)).describe();

  it("sends the events behind a refused one within the hold, and the refused one on its own schedule once accepted, each exactly once", async () => {
    const { ep, ids, listed, start, hitsOf } = await endpoint("order.created", "order.updated", "order.created", "order.created");
    const t0 = await temporal.env.currentTimeMs();
    // order.updated is refused for 6 hours, everything else accepted.
    receiver.answer = (type, _n, at) => (type === "order.updated" && at < t0 + 6 * HOUR ? 500 : 200);
    await (await start()).result();

    // n = 1 in the queue at once, +5 s, +5 min and +30 min; set aside, then +2 h (refused) and +5 h: accepted.
    const refused = hitsOf(1);
    expect(refused.map((h) => h.status)).toEqual([500, 500, 500, 500, 500, 200]);
    const since = refused.map((h) => h.at - refused[0].at);
    const due = [0, 5_000, 5 * MINUTE + 5_000, 35 * MINUTE + 5_000, 2 * HOUR + 35 * MINUTE + 5_000, 7 * HOUR + 35 * MINUTE + 5_000];
    for (const [i, ms] of since.entries()) {
      expect(ms).toBeGreaterThanOrEqual(due[i]);
      expect(ms).toBeLessThan(due[i] + 10_000);
    }
    // The events behind it went out once it was set aside, within the hold.
    for (const n of [2, 3]) {
      expect(hitsOf(n).map((h) => h.status)).toEqual([200]);
      expect(hitsOf(n)[0].at).toBeGreaterThan(refused[3].at);
      expect(hitsOf(n)[0].at - t0).toBeLessThan(DEFAULT_WEBHOOK_HOLD_MS);
    }
    // Each delivered exactly once, with its own webhook-id; the refused one after the newer ones.
    const delivered = [0, 1, 2, 3]
      .flatMap((n) => hitsOf(n))
      .filter((h) => h.status === 200)
      .sort((a, b) => a.at - b.at);
    expect(delivered.map((h) => h.n)).toEqual([0, 2, 3, 1]);
    expect(delivered.map((h) => h.webhookId)).toEqual([ids[0], ids[2], ids[3], ids[1]]);

    expect(await event(ids[1])).toMatchObject({ pending: false, succeeded: true, last_http_code: 200, set_aside_at: expect.any(Date) });
    for (const id of [ids[0], ids[2], ids[3]])
      expect(await event(id)).toMatchObject({ pending: false, succeeded: true, set_aside_at: null });
    expect((await setAsideRun(ids[1])).status.name).toBe("COMPLETED");
    // The deliveries list tells which one was set aside.
    const shown = await listed();
    expect(shown.get(ids[1])).toBe((await event(ids[1])).set_aside_at.toISOString());
    expect(shown.get(ids[0])).toBeNull();
    // Successes in between: never failing for long, still enabled.
    expect(await infra.knex("webhook_endpoints").where({ id: ep.id }).first()).toMatchObject({ enabled: true, failing_since: null });
  }, 120_000);

  it("leaves a set-aside event out of the ordered queue and the backstop's list, and counts it as pending", async () => {
    const { ep, handle } = await refusedSetAside();
    expect(await nextQueuedEvent(infra.knex, ep.id)).toBeNull();
    // The backstop would otherwise start the endpoint's workflow again and again.
    expect(await queuedEndpoints(infra.knex)).not.toContain(ep.id);
    // A run of first attempts gives the endpoint's lease up: nothing is queued in order.
    const lease = randomUUID();
    expect(await takeDeliveryLease(infra.knex, ep.id, lease, 30_000)).toBe(0);
    expect(await releaseIdleDeliveryLease(infra.knex, ep.id, lease)).toBe(true);
    // The operators' gauges count it: all pending events, set aside or not.
    const { rows } = await infra.knex.raw<{ rows: { n: number }[] }>("select count(*)::int as n from webhook_events where pending");
    expect(rows[0].n).toBeGreaterThan(0);
    expect(await countPendingEvents(infra.knex)).toBe(rows[0].n);
    await handle.result();
  }, 120_000);

  it("stops a set-aside event's retries once its endpoint is deleted: nothing more is sent", async () => {
    const { ep, ids, polar, handle, hitsOf } = await refusedSetAside();
    await polar.webhooks.deleteWebhookEndpoint({ id: ep.id });
    await handle.result();
    // Its next attempt (2 h later) found the endpoint deleted: nothing sent, the event settled.
    expect(hitsOf(0)).toHaveLength(4);
    expect((await setAsideRun(ids[0])).status.name).toBe("COMPLETED");
    expect(await event(ids[0])).toMatchObject({ pending: false, succeeded: false });
  }, 120_000);

  it("disables an endpoint whose set-aside event fails for the disable span, and its retries stop there", async () => {
    const { org, ep, ids, start, hitsOf } = await endpoint("order.updated", "order.created");
    receiver.answer = (type) => (type === "order.updated" ? 500 : 200);
    // Failing for 3 hours disables: the success of n = 1 ends the first span; the set-aside attempts
    // at 2 h 35 min (failing since) and 7 h 35 min (5 h on: disabled) make the next.
    await (await start({ disableAfterMs: 3 * HOUR })).result();

    expect(hitsOf(0).map((h) => h.status)).toEqual([500, 500, 500, 500, 500, 500]);
    expect(hitsOf(1).map((h) => h.status)).toEqual([200]);
    expect((await infra.knex("webhook_endpoints").where({ id: ep.id }).first()).enabled).toBe(false);
    const notes = await infra.knex("organization_notifications").where({ organization_id: org.id });
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ type: "webhook_endpoint_disabled", payload: { endpoint_id: ep.id, last_http_code: 500 } });
    expect((await setAsideRun(ids[0])).status.name).toBe("COMPLETED");
    expect(await event(ids[0])).toMatchObject({ pending: false, succeeded: false });
  }, 120_000);

  it("puts a redelivered set-aside event back in the ordered queue; its own workflow then ends without sending it", async () => {
    const { ids, polar, handle, listed, hitsOf } = await refusedSetAside();
    expect((await listed()).get(ids[0])).toEqual(expect.any(String));

    // The receiver is fixed; the merchant redelivers: the ordered queue sends it at once.
    receiver.answer = () => 200;
    await polar.webhooks.redeliverWebhookEvent({ id: ids[0] });
    await expect.poll(() => hitsOf(0).length, { timeout: 20_000, interval: 100 }).toBe(5);
    expect(hitsOf(0)[4]).toMatchObject({ status: 200, webhookId: ids[0] });
    // Settled by the activity after the receiver answered: a moment after the hit under load.
    await expect
      .poll(() => event(ids[0]), { timeout: 20_000, interval: 100 })
      .toMatchObject({ pending: false, succeeded: true, queued: 2, set_aside_at: null });
    expect((await listed()).get(ids[0])).toBeNull();

    await handle.result();
    // The set-aside workflow woke 2 h after it started, found the event no longer set aside and ended.
    expect((await setAsideRun(ids[0])).status.name).toBe("COMPLETED");
    expect(hitsOf(0)).toHaveLength(5);
    expect(await event(ids[0])).toMatchObject({ pending: false, succeeded: true, queued: 2 });
  }, 120_000);
});
