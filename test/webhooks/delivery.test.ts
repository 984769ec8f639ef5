// Webhook delivery end to end: real PostgreSQL (a database of this file's own), a real Temporal
// dev server (a namespace of its own), the outbox relay, the fan-out and the endpoint delivery
// workflow on a worker of this file, the API over the same database, and a real HTTP receiver on
// 127.0.0.1 that verifies every delivery with the official client's `validateEvent` and with
// `standardwebhooks` directly. The retry schedule is injected short through the workflow input.
import { randomUUID } from "node:crypto";
import { spawn } from "node:child_process";
import { createServer as createTcpServer, type AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { Polar } from "@polar-sh/sdk";
import { Polar as Polar049 } from "polar-sdk-049";
import { HTTPValidationError as HTTPValidationError049 } from "polar-sdk-049/models/errors/httpvalidationerror.js";
import { validateEvent, WebhookVerificationError } from "@polar-sh/sdk/webhooks.js";
import { WorkflowNotFoundError } from "@temporalio/client";
import { Worker } from "@temporalio/worker";
import { describe, expect, it } from "vitest";
import { mintOrganizationToken } from "../../server/organization-access-tokens/service.js";
import { emit } from "../../server/kit/outbox.js";
import { attemptDelivery, DELIVERY_TIMEOUT_MS } from "../../server/webhooks/delivery.js";
import { signWebhook } from "../../server/webhooks/signing.js";
import { setWorkflowsDoor, temporalDoor } from "../../server/workflows-door.js";
import { createWebhookActivities } from "../../workflows/activities/webhooks.js";
import { webhookEndpointWorkflowId } from "../../workflows/shared/ids.js";
import { webhookEndpointWorkflow } from "../../workflows/workflows/webhook-delivery.js";
import { activityDeps, createOrganization, rejects, useWorkflowInfra, workflowBundle } from "../harness/index.js";
import { useWebhookHarness } from "./harness.js";
import { headersOf, Receiver, verifyDirect } from "./receiver.js";
import { sleep } from "../../server/kit/time.js";

const infra = useWorkflowInfra();
const poll = { timeout: 20_000, interval: 100 };
const RETRY_DELAYS_MS = [0, 300, 300, 300];
/** The worker's attempt timeout here; the default (10 s) is proven once, by a direct attempt. */
const TEST_TIMEOUT_MS = 1_500;

const byCreation = <T extends { createdAt: Date }>(items: T[]) => [...items].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());

/** An event on an already published outbox row, not queued: the relay and the workflows leave it to the test's own attempts. */
async function handMadeEvent(organizationId: string, endpointId: string): Promise<{ id: string }> {
  const [outboxRow] = await infra
    .knex("outbox")
    .insert({
      organization_id: organizationId,
      type: "order.created",
      payload: JSON.stringify({ type: "order.created", data: {} }),
      published_at: new Date(),
    })
    .returning("id");
  const [event] = await infra
    .knex("webhook_events")
    .insert({
      organization_id: organizationId,
      endpoint_id: endpointId,
      outbox_id: outboxRow.id,
      type: "order.created",
      payload: "{}",
      pending: false,
    })
    .returning("id");
  return event;
}

/** infra's database, on the suite's PostgreSQL server (DATABASE_URL). */
async function thisDatabaseUrl(): Promise<string> {
  const { rows } = await infra.knex.raw<{ rows: { db: string }[] }>("select current_database() as db");
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${rows[0].db}`;
  return url.toString();
}

describe("webhook delivery", () => {
  const h = useWebhookHarness(infra, {
    workflow: { retryDelaysMs: RETRY_DELAYS_MS, idleMs: 2_000 },
    deliveryTimeoutMs: TEST_TIMEOUT_MS,
    webhookSweepEveryMs: 300,
  });
  const receiver = h.receiver;

  async function merchant() {
    const org = await createOrganization(infra.knex);
    const token = await mintOrganizationToken(infra.knex, org.id);
    return {
      org,
      token,
      polar: new Polar({ accessToken: token, serverURL: h.api.url }),
      newer: new Polar049({ accessToken: token, serverURL: h.api.url }),
    };
  }

  async function endpoint(
    polar: Polar,
    name: string,
    events: Parameters<Polar["webhooks"]["createWebhookEndpoint"]>[0]["events"],
    format: "raw" | "discord" | "slack" = "raw",
  ) {
    const path = `/ep/${name}-${randomUUID().slice(0, 8)}`;
    const ep = await polar.webhooks.createWebhookEndpoint({ url: `${receiver.url}${path}`, format, events });
    return { ...ep, path };
  }

  it("delivers product.created, signed so that validateEvent and standardwebhooks accept it, and lists the delivery", async () => {
    const { polar, org } = await merchant();
    const ep = await endpoint(polar, "product", ["product.created"]);
    const product = await polar.products.create({
      name: "E-book",
      recurringInterval: null,
      prices: [{ amountType: "fixed", priceAmount: 2500, priceCurrency: "usd" }],
    });

    await expect.poll(() => receiver.at(ep.path).length, poll).toBe(1);
    const [hit] = receiver.at(ep.path);
    expect(hit.headers["content-type"]).toBe("application/json");
    const event = validateEvent(hit.body, headersOf(hit), ep.secret);
    expect(event.type).toBe("product.created");
    expect((event.data as { id: string }).id).toBe(product.id);
    expect(verifyDirect(hit, ep.secret)).toMatchObject({ type: "product.created", data: { id: product.id } });

    const row = await infra.knex("webhook_events").where({ endpoint_id: ep.id }).first();
    expect(hit.headers["webhook-id"]).toBe(row.id);
    expect(row.organization_id).toBe(org.id);
    await expect.poll(async () => (await infra.knex("webhook_events").where({ id: row.id }).first()).pending, poll).toBe(false);

    const page = await polar.webhooks.listWebhookDeliveries({ endpointId: ep.id });
    expect(page.result.items).toHaveLength(1);
    expect(page.result.items[0]).toMatchObject({ succeeded: true, httpCode: 200, response: "ok" });
    expect(page.result.items[0].webhookEvent).toMatchObject({
      id: row.id,
      type: "product.created",
      succeeded: true,
      lastHttpCode: 200,
      isArchived: false,
    });
    expect(page.result.items[0].webhookEvent.payload).toBe(hit.body);

    // The verifier refuses a wrong secret, a stale timestamp and a changed body.
    expect(() => validateEvent(hit.body, headersOf(hit), "whsec_wrong")).toThrow(WebhookVerificationError);
    const stale = signWebhook(ep.secret, row.id, hit.body, new Date(Date.now() - 10 * 60_000));
    expect(() => validateEvent(hit.body, { ...stale }, ep.secret)).toThrow(WebhookVerificationError);
    expect(() => validateEvent(hit.body.replace("E-book", "E-boom"), headersOf(hit), ep.secret)).toThrow(WebhookVerificationError);
    const fresh = signWebhook(ep.secret, row.id, hit.body);
    expect(validateEvent(hit.body, { ...fresh }, ep.secret).type).toBe("product.created");

    // Redelivery: 202 with a JSON body, a second delivery with the same webhook-id.
    const res = await fetch(`${h.api.url}/v1/webhooks/events/${row.id}/redeliver`, {
      method: "POST",
      headers: { authorization: `Bearer ${await mintOrganizationToken(infra.knex, org.id)}` },
    });
    expect(res.status).toBe(202);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(await res.json()).toBeNull();
    await polar.webhooks.redeliverWebhookEvent({ id: row.id });
    await expect.poll(() => receiver.at(ep.path).length, poll).toBeGreaterThanOrEqual(2);
    for (const again of receiver.at(ep.path)) {
      expect(again.headers["webhook-id"]).toBe(row.id);
      expect(validateEvent(again.body, headersOf(again), ep.secret).type).toBe("product.created");
    }
    // Every delivery the receiver got is listed (both counts read together: the second
    // redelivery may still be on its way when the first poll runs).
    await expect
      .poll(async () => {
        const listed = (await polar.webhooks.listWebhookDeliveries({ endpointId: ep.id })).result.items.length;
        return listed >= 2 && listed === receiver.at(ep.path).length;
      }, poll)
      .toBe(true);
  });

  it("does not deliver to endpoints of other organizations, of other event types, or deleted ones", async () => {
    const a = await merchant();
    const b = await merchant();
    const subscribed = await endpoint(a.polar, "sub", ["customer.created"]);
    const otherType = await endpoint(a.polar, "type", ["product.updated"]);
    const deleted = await endpoint(a.polar, "del", ["customer.created"]);
    const otherOrg = await endpoint(b.polar, "org", ["customer.created"]);
    await a.polar.webhooks.deleteWebhookEndpoint({ id: deleted.id });
    await a.polar.customers.create({ email: `x-${randomUUID().slice(0, 6)}@example.com` });

    await expect.poll(() => receiver.at(subscribed.path).length, poll).toBe(1);
    const [hit] = receiver.at(subscribed.path);
    expect(validateEvent(hit.body, headersOf(hit), subscribed.secret).type).toBe("customer.created");
    await sleep(500);
    expect(receiver.at(otherType.path)).toHaveLength(0);
    expect(receiver.at(deleted.path)).toHaveLength(0);
    expect(receiver.at(otherOrg.path)).toHaveLength(0);
  });

  it("retries a failing receiver on the schedule: 500, 500, then 200 on the third attempt", async () => {
    const { polar, org } = await merchant();
    const ep = await endpoint(polar, "retry", ["order.created"]);
    receiver.script(ep.path, [500, 500]);
    await infra.knex.transaction((trx) => emit(trx, org.id, "order.created", { n: 1 }));

    await expect.poll(() => receiver.at(ep.path).length, poll).toBe(3);
    const ids = new Set(receiver.at(ep.path).map((r) => r.headers["webhook-id"]));
    expect(ids.size).toBe(1);
    for (const r of receiver.at(ep.path)) verifyDirect(r, ep.secret);

    await expect.poll(async () => (await polar.webhooks.listWebhookDeliveries({ endpointId: ep.id })).result.items.length, poll).toBe(3);
    const items = (await polar.webhooks.listWebhookDeliveries({ endpointId: ep.id })).result.items;
    expect(items.map((d) => d.httpCode).sort()).toEqual([200, 500, 500]);
    const failed = items.find((d) => d.httpCode === 500)!;
    expect(failed.succeeded).toBe(false);
    expect(failed.response!.length).toBe(2048);
    const event = await infra.knex("webhook_events").where({ endpoint_id: ep.id }).first();
    expect(event).toMatchObject({ succeeded: true, last_http_code: 200 });
  });

  it("gives up after the last attempt and records every one", async () => {
    const { polar, org } = await merchant();
    const ep = await endpoint(polar, "down", ["order.created"]);
    receiver.script(ep.path, [503, 503, 503, 503, 503]);
    await infra.knex.transaction((trx) => emit(trx, org.id, "order.created", { n: 1 }));
    await expect.poll(() => receiver.at(ep.path).length, poll).toBe(RETRY_DELAYS_MS.length);
    await expect.poll(async () => (await infra.knex("webhook_events").where({ endpoint_id: ep.id }).first()).pending, poll).toBe(false);
    const event = await infra.knex("webhook_events").where({ endpoint_id: ep.id }).first();
    expect(event).toMatchObject({ succeeded: false, last_http_code: 503 });
    expect(await infra.knex("webhook_deliveries").where({ webhook_event_id: event.id }).count({ n: "*" })).toEqual([
      { n: RETRY_DELAYS_MS.length },
    ]);
  });

  it("fails an attempt the receiver never answers at the timeout, then retries it", async () => {
    const { polar, org } = await merchant();
    const ep = await endpoint(polar, "silent", ["order.created"]);
    receiver.hold(ep.path); // the connection is accepted, the request read, no answer ever comes
    await infra.knex.transaction((trx) => emit(trx, org.id, "order.created", { n: 1 }));

    await expect.poll(() => receiver.at(ep.path).length, poll).toBe(2);
    await expect.poll(async () => (await infra.knex("webhook_events").where({ endpoint_id: ep.id }).first()).succeeded, poll).toBe(true);
    const items = byCreation((await polar.webhooks.listWebhookDeliveries({ endpointId: ep.id })).result.items);
    expect(items).toHaveLength(2);
    expect(items[0]).toMatchObject({ succeeded: false, httpCode: null, response: `Timed out after ${TEST_TIMEOUT_MS} ms` });
    expect(items[1]).toMatchObject({ succeeded: true, httpCode: 200 });
    // The retry went out only after the timeout plus the schedule's second wait.
    const [first, second] = receiver.at(ep.path);
    expect(second.headers["webhook-id"]).toBe(first.headers["webhook-id"]);
    expect(items[0].createdAt.getTime() - first.at).toBeGreaterThanOrEqual(TEST_TIMEOUT_MS - 50);
    expect(second.at - first.at).toBeGreaterThanOrEqual(TEST_TIMEOUT_MS + RETRY_DELAYS_MS[1] - 50);
  });

  it("times an attempt out after 10 s by default", async () => {
    expect(DELIVERY_TIMEOUT_MS).toBe(10_000);
    const { polar, org } = await merchant();
    const ep = await endpoint(polar, "silent-default", ["order.created"]);
    // A receiver that accepts the connection and never reads nor answers.
    const sockets: import("node:net").Socket[] = [];
    const silent = createTcpServer((socket) => void sockets.push(socket));
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/never`;
    await polar.webhooks.updateWebhookEndpoint({ id: ep.id, webhookEndpointUpdate: { url } });
    const event = await handMadeEvent(org.id, ep.id);
    try {
      const started = performance.now();
      const result = await attemptDelivery(infra.knex, event.id);
      const elapsed = performance.now() - started;
      expect(result).toEqual({ outcome: "failed", httpCode: null });
      expect(sockets.length).toBe(1);
      expect(elapsed).toBeGreaterThanOrEqual(10_000 - 50);
      expect(elapsed).toBeLessThan(13_000);
      const [delivery] = await infra.knex("webhook_deliveries").where({ webhook_event_id: event.id });
      expect(delivery).toMatchObject({ http_code: null, succeeded: false, response: "Timed out after 10000 ms" });
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => silent.close(() => r()));
    }
  }, 30_000);

  it("retries while nothing listens (connection refused) and delivers once the receiver is up", async () => {
    const { polar, org } = await merchant();
    // A port that was free a moment ago: connecting to it is refused.
    const probe = createTcpServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const ep = await polar.webhooks.createWebhookEndpoint({
      url: `http://127.0.0.1:${port}/late`,
      format: "raw",
      events: ["order.created"],
    });
    // Started first with a longer schedule, so the fan-out's wake-up signals this run.
    await h.client.workflow.start(webhookEndpointWorkflow, {
      workflowId: webhookEndpointWorkflowId(ep.id),
      taskQueue: h.taskQueue,
      args: [{ endpointId: ep.id, retryDelaysMs: [0, ...Array(30).fill(300)], idleMs: 2_000 }],
    });
    await infra.knex.transaction((trx) => emit(trx, org.id, "order.created", { n: 7 }));

    const failures = () => infra.knex("webhook_deliveries").where({ endpoint_id: ep.id, succeeded: false }).orderBy("created_at");
    await expect.poll(async () => (await failures()).length, poll).toBeGreaterThanOrEqual(2);
    for (const f of await failures()) expect(f).toMatchObject({ http_code: null, response: expect.stringContaining("ECONNREFUSED") });

    const late = new Receiver();
    await late.start(port);
    try {
      await expect.poll(() => late.at("/late").length, poll).toBe(1);
      const [hit] = late.at("/late");
      expect(verifyDirect(hit, ep.secret)).toMatchObject({ type: "order.created", data: { n: 7 } });
      await expect.poll(async () => (await infra.knex("webhook_events").where({ endpoint_id: ep.id }).first()).succeeded, poll).toBe(true);
      const items = byCreation((await polar.webhooks.listWebhookDeliveries({ endpointId: ep.id })).result.items);
      expect(items.at(-1)).toMatchObject({ succeeded: true, httpCode: 200 });
      expect(items.slice(0, -1).every((d) => !d.succeeded && d.httpCode === null)).toBe(true);
      expect(new Set(items.map((d) => d.webhookEvent.id)).size).toBe(1);
    } finally {
      await late.stop();
    }
  });

  it("delivers one endpoint's events in outbox order, a failing head holding back the rest", async () => {
    const { polar, org } = await merchant();
    const ep = await endpoint(polar, "order", ["order.created", "order.updated"]);
    receiver.script(ep.path, [500]);
    await infra.knex.transaction(async (trx) => {
      for (let n = 0; n < 6; n++) await emit(trx, org.id, n % 2 ? "order.updated" : "order.created", { n });
    });
    await expect.poll(() => receiver.at(ep.path).length, poll).toBe(7);
    const ns = receiver.at(ep.path).map((r) => (verifyDirect(r, ep.secret) as { data: { n: number } }).data.n);
    expect(ns).toEqual([0, 0, 1, 2, 3, 4, 5]);
  });

  /** Emits n = 0..3 one commit after the other, each once the one before arrived (inside a run's 5 s of listening). */
  async function emitWhileListening(org: { id: string }, ep: { path: string; secret: string }) {
    for (let n = 0; n <= 3; n++) {
      await infra.knex.transaction((trx) => emit(trx, org.id, "order.created", { n }));
      await expect.poll(() => receiver.at(ep.path).length, poll).toBe(n + 1);
    }
    const hits = receiver.at(ep.path);
    expect(hits.map((r) => (verifyDirect(r, ep.secret) as { data: { n: number } }).data.n)).toEqual([0, 1, 2, 3]);
    expect(new Set(hits.map((r) => r.headers["webhook-id"])).size).toBe(4);
  }

  it("delivers an idle endpoint's events from the fan-out directly, the next ones handed to that run, without a workflow", async () => {
    const { polar, org } = await merchant();
    const ep = await endpoint(polar, "direct", ["order.created"]);
    await emitWhileListening(org, ep);
    // No workflow was started nor signalled for this endpoint.
    await expect(h.client.workflow.getHandle(webhookEndpointWorkflowId(ep.id)).describe()).rejects.toThrow(WorkflowNotFoundError);
    await expect
      .poll(async () => (await infra.knex("webhook_events").where({ endpoint_id: ep.id, pending: true }).count({ n: "*" }))[0].n, poll)
      .toBe(0);
    // Once the run stopped listening, the endpoint's lease is given up.
    await expect.poll(async () => (await infra.knex("webhook_endpoints").where({ id: ep.id }).first()).delivery_lease, poll).toBeNull();
  });

  it("hands events committed while the endpoint workflow's run listens to that run: in order, with no signal each", async () => {
    const { polar, org } = await merchant();
    const ep = await endpoint(polar, "listening", ["order.created"]);
    const handle = await h.client.workflow.start(webhookEndpointWorkflow, {
      workflowId: webhookEndpointWorkflowId(ep.id),
      taskQueue: h.taskQueue,
      args: [{ endpointId: ep.id, retryDelaysMs: RETRY_DELAYS_MS, idleMs: 2_000, listenMs: 10_000 }],
    });
    // Its first run found nothing queued and listens, holding the endpoint's lease.
    await expect.poll(async () => (await infra.knex("webhook_endpoints").where({ id: ep.id }).first()).delivery_lease, poll).not.toBeNull();
    await emitWhileListening(org, ep);
    const history = await handle.fetchHistory();
    expect((history.events ?? []).filter((e) => e.workflowExecutionSignaledEventAttributes)).toHaveLength(0);
    expect(await infra.knex("webhook_deliveries").where({ endpoint_id: ep.id }).count({ n: "*" })).toEqual([{ n: 4 }]);
  });

  it("hands a failed direct first attempt to the workflow, which goes on from attempt 2, and holds the later events behind it", async () => {
    const { polar, org } = await merchant();
    const ep = await endpoint(polar, "handover", ["order.created"]);
    receiver.script(ep.path, [500, 500]);
    await infra.knex.transaction((trx) => emit(trx, org.id, "order.created", { n: 0 }));
    await expect.poll(() => receiver.at(ep.path).length, poll).toBe(1);
    // While n = 0 waits for its second attempt: these are not the direct path's (something is queued).
    await infra.knex.transaction((trx) => emit(trx, org.id, "order.created", { n: 1 }));
    await infra.knex.transaction((trx) => emit(trx, org.id, "order.created", { n: 2 }));

    await expect.poll(() => receiver.at(ep.path).length, poll).toBe(5);
    await sleep(500);
    const hits = receiver.at(ep.path);
    expect(hits.map((r) => (verifyDirect(r, ep.secret) as { data: { n: number } }).data.n)).toEqual([0, 0, 0, 1, 2]);
    // Three attempts of n = 0 in all (the direct one counted as the first), on the schedule's waits.
    expect(hits[1].at - hits[0].at).toBeGreaterThanOrEqual(RETRY_DELAYS_MS[1] - 50);
    expect(hits[2].at - hits[1].at).toBeGreaterThanOrEqual(RETRY_DELAYS_MS[2] - 50);
    expect(new Set(hits.slice(0, 3).map((r) => r.headers["webhook-id"])).size).toBe(1);
    const history = await h.client.workflow.getHandle(webhookEndpointWorkflowId(ep.id)).fetchHistory();
    const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
    expect(started).toBeTruthy();
    await expect
      .poll(async () => (await infra.knex("webhook_events").where({ endpoint_id: ep.id, pending: true }).count({ n: "*" }))[0].n, poll)
      .toBe(0);
  });

  it("delivers, with the same webhook-id, when the worker is killed during a direct run", async () => {
    const { polar, org } = await merchant();
    const ep = await endpoint(polar, "direct-killed", ["order.created"]);
    receiver.hold(ep.path); // the direct run's request never gets an answer
    const [outboxRow] = await infra
      .knex("outbox")
      .insert({
        organization_id: org.id,
        type: "order.created",
        payload: JSON.stringify({ type: "order.created", data: {} }),
        published_at: new Date(),
      })
      .returning("id");
    const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(new URL("./direct-process.ts", import.meta.url))], {
      env: {
        ...process.env,
        WH_DATABASE_URL: await thisDatabaseUrl(),
        WH_ORGANIZATION_ID: org.id,
        WH_ENDPOINT_ID: ep.id,
        WH_OUTBOX_ID: String(outboxRow.id),
        WH_LEASE_MS: "2000",
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on("data", (d: Buffer) => d.toString().includes("ready") && resolve());
        child.once("exit", (code) => reject(new Error(`direct run process exited with ${code}`)));
      });
      await expect.poll(() => receiver.at(ep.path).length, poll).toBe(1);
      child.kill("SIGKILL");
      // The lease expires (2 s), the backstop sweep starts the endpoint's workflow, whose run delivers.
      await expect.poll(() => receiver.at(ep.path).length, { timeout: 30_000, interval: 200 }).toBe(2);
      const event = await infra.knex("webhook_events").where({ endpoint_id: ep.id }).first();
      expect(receiver.at(ep.path).map((r) => r.headers["webhook-id"])).toEqual([event.id, event.id]);
      expect(verifyDirect(receiver.at(ep.path)[1], ep.secret)).toMatchObject({ data: { n: 1 } });
      await expect.poll(async () => (await infra.knex("webhook_events").where({ id: event.id }).first()).succeeded, poll).toBe(true);
      await h.client.workflow.getHandle(webhookEndpointWorkflowId(ep.id)).describe();
    } finally {
      child.kill("SIGKILL");
      receiver.release();
    }
  }, 60_000);

  it("disables the endpoint on 410 Gone and sends it nothing more", async () => {
    const { polar, newer, org } = await merchant();
    const ep = await endpoint(polar, "gone", ["order.created"]);
    receiver.script(ep.path, [410]);
    await infra.knex.transaction((trx) => emit(trx, org.id, "order.created", { n: 1 }));
    await expect.poll(async () => (await newer.webhooks.getWebhookEndpoint({ id: ep.id })).enabled, poll).toBe(false);
    expect(receiver.at(ep.path)).toHaveLength(1);
    const [delivery] = (await polar.webhooks.listWebhookDeliveries({ endpointId: ep.id })).result.items;
    expect(delivery).toMatchObject({ httpCode: 410, succeeded: false });

    await infra.knex.transaction((trx) => emit(trx, org.id, "order.created", { n: 2 }));
    await expect
      .poll(
        async () => (await infra.knex("outbox").where({ organization_id: org.id }).whereNull("published_at").count({ n: "*" }))[0].n,
        poll,
      )
      .toBe(0);
    await sleep(500);
    expect(receiver.at(ep.path)).toHaveLength(1);
  });

  it("sends a disabled endpoint nothing, records its events as not delivered, and replays them once it is enabled again", async () => {
    const { polar, newer, org, token } = await merchant();
    const ep = await endpoint(polar, "switched", ["order.created"]);
    const off = await newer.webhooks.updateWebhookEndpoint({ id: ep.id, webhookEndpointUpdate: { enabled: false, name: "Accounting" } });
    expect(off).toMatchObject({ enabled: false, name: "Accounting" });
    // 0.34.17 reads and updates it as before, and leaves it disabled.
    await polar.webhooks.updateWebhookEndpoint({ id: ep.id, webhookEndpointUpdate: { events: ["order.created", "order.paid"] } });
    expect(await newer.webhooks.getWebhookEndpoint({ id: ep.id })).toMatchObject({
      enabled: false,
      name: "Accounting",
      events: ["order.created", "order.paid"],
    });

    await infra.knex.transaction((trx) => emit(trx, org.id, "order.created", { n: 1 }));
    await expect
      .poll(
        async () => (await infra.knex("webhook_events").where({ endpoint_id: ep.id })).map((e) => [e.pending, e.succeeded, e.skipped]),
        poll,
      )
      .toEqual([[false, false, true]]);
    await sleep(500);
    expect(receiver.at(ep.path)).toHaveLength(0);

    const on = await newer.webhooks.updateWebhookEndpoint({ id: ep.id, webhookEndpointUpdate: { enabled: true } });
    expect(on.enabled).toBe(true);
    const replay = await fetch(`${h.api.url}/v1/webhooks/endpoints/${ep.id}/replay`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: "{}",
    });
    expect(await replay.json()).toEqual({ replayed: 1 });
    await expect.poll(() => receiver.at(ep.path).length, poll).toBe(1);
    expect((verifyDirect(receiver.at(ep.path)[0], ep.secret) as { data: { n: number } }).data.n).toBe(1);
    // Sent now: no longer skipped, as 0.49.0 reads the delivery's event.
    await expect
      .poll(
        async () =>
          (await newer.webhooks.listWebhookDeliveries({ endpointId: ep.id })).result.items.map((d) => [
            d.succeeded,
            d.webhookEvent.skipped,
          ]),
        poll,
      )
      .toEqual([[true, false]]);
    // Enabled, it is sent what comes next.
    await infra.knex.transaction((trx) => emit(trx, org.id, "order.created", { n: 2 }));
    await expect.poll(() => receiver.at(ep.path).length, poll).toBe(2);
  });

  it("enables an endpoint again only while its URL is allowed", async () => {
    const { polar, newer } = await merchant();
    const ep = await endpoint(polar, "moved", ["order.created"]);
    await newer.webhooks.updateWebhookEndpoint({ id: ep.id, webhookEndpointUpdate: { enabled: false } });
    // A URL stored before the policy refused it (here a scheme that is not http).
    await infra.knex("webhook_endpoints").where({ id: ep.id }).update({ url: "ftp://example.com/hooks" });
    const refused = await rejects(
      newer.webhooks.updateWebhookEndpoint({ id: ep.id, webhookEndpointUpdate: { enabled: true } }),
      HTTPValidationError049,
    );
    expect(refused.detail?.[0]?.loc).toEqual(["body", "enabled"]);
    expect((await newer.webhooks.getWebhookEndpoint({ id: ep.id })).enabled).toBe(false);
  });

  it("disables an endpoint that failed every attempt for the configured span, and tells its organization", async () => {
    const { polar, org } = await merchant();
    const ep = await endpoint(polar, "failing", ["order.created"]);
    receiver.script(ep.path, Array(20).fill(500));
    // Started first with a short span, so the fan-out's wake-up signals this run.
    await h.client.workflow.start(webhookEndpointWorkflow, {
      workflowId: webhookEndpointWorkflowId(ep.id),
      taskQueue: h.taskQueue,
      args: [{ endpointId: ep.id, retryDelaysMs: [0, 400, 400, 400, 400], disableAfterMs: 700, idleMs: 2_000 }],
    });
    await infra.knex.transaction(async (trx) => {
      await emit(trx, org.id, "order.created", { n: 1 });
      await emit(trx, org.id, "order.created", { n: 2 });
    });

    await expect.poll(async () => (await infra.knex("webhook_endpoints").where({ id: ep.id }).first()).enabled, poll).toBe(false);
    expect((await polar.webhooks.getWebhookEndpoint({ id: ep.id })).id).toBe(ep.id);
    // The first attempt starts the span; the first one past 0.7 s disables. The second event is never sent.
    const sent = receiver.at(ep.path).map((r) => (verifyDirect(r, ep.secret) as { data: { n: number } }).data.n);
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(new Set(sent)).toEqual(new Set([1]));
    const notes = await infra.knex("organization_notifications").where({ organization_id: org.id });
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      type: "webhook_endpoint_disabled",
      payload: { endpoint_id: ep.id, url: `${receiver.url}${ep.path}`, last_http_code: 500 },
    });
    expect(Date.parse(notes[0].payload.disabled_at) - Date.parse(notes[0].payload.failing_since)).toBeGreaterThanOrEqual(700);
    await sleep(1_500);
    expect(receiver.at(ep.path)).toHaveLength(sent.length);
  });

  it("counts the failing span from the first failure since the last success", async () => {
    const { polar, org } = await merchant();
    const ep = await endpoint(polar, "flaky", ["order.created"]);
    const event = await handMadeEvent(org.id, ep.id);
    const day = 86_400_000;
    const t0 = Date.parse("2026-01-01T00:00:00Z");
    const attempt = (status: number, at: number) => {
      receiver.script(ep.path, [status]);
      return attemptDelivery(infra.knex, event.id, { at: new Date(at), disableAfterMs: 3 * day });
    };
    expect((await attempt(500, t0)).outcome).toBe("failed");
    expect((await attempt(500, t0 + 2 * day)).outcome).toBe("failed");
    expect((await attempt(200, t0 + 2.5 * day)).outcome).toBe("delivered");
    expect((await infra.knex("webhook_endpoints").where({ id: ep.id }).first()).failing_since).toBeNull();
    expect((await attempt(500, t0 + 3.5 * day)).outcome).toBe("failed"); // a new run of failures starts here
    expect((await attempt(503, t0 + 6 * day)).outcome).toBe("failed");
    expect(await infra.knex("organization_notifications").where({ organization_id: org.id })).toHaveLength(0);
    expect((await attempt(503, t0 + 6.5 * day)).outcome).toBe("disabled");
    expect((await infra.knex("webhook_endpoints").where({ id: ep.id }).first()).enabled).toBe(false);
    const [note] = await infra.knex("organization_notifications").where({ organization_id: org.id });
    expect(note.payload).toMatchObject({
      endpoint_id: ep.id,
      failing_since: new Date(t0 + 3.5 * day).toISOString(),
      disabled_at: new Date(t0 + 6.5 * day).toISOString(),
      last_http_code: 503,
    });
    // Disabled: nothing more is sent.
    expect((await attempt(200, t0 + 7 * day)).outcome).toBe("skipped");
  });

  it("delivers queued events whose wake-up was lost (no workflow running) through the backstop sweep", async () => {
    const { polar, org } = await merchant();
    const ep = await endpoint(polar, "orphan", ["order.created"]);
    // As if the fan-out committed but Temporal was unreachable for its wake-up.
    await infra.knex.transaction(async (trx) => {
      await emit(trx, org.id, "order.updated", { n: 0 }); // not subscribed: no event
    });
    await expect
      .poll(
        async () => (await infra.knex("outbox").where({ organization_id: org.id }).whereNull("published_at").count({ n: "*" }))[0].n,
        poll,
      )
      .toBe(0);
    const [outboxRow] = await infra.knex("outbox").where({ organization_id: org.id });
    const [event] = await infra
      .knex("webhook_events")
      .insert({
        organization_id: org.id,
        endpoint_id: ep.id,
        outbox_id: outboxRow.id,
        type: "order.created",
        payload: JSON.stringify({ type: "order.created", timestamp: new Date().toISOString(), data: { n: 1 } }),
      })
      .returning("*");
    await expect.poll(() => receiver.at(ep.path).length, poll).toBe(1);
    const [hit] = receiver.at(ep.path);
    expect(hit.headers["webhook-id"]).toBe(event.id);
    expect(verifyDirect(hit, ep.secret)).toMatchObject({ data: { n: 1 } });
  });

  it("answers a redelivery 202 even when Temporal can't be reached, and the sweep delivers it", async () => {
    const { polar, org } = await merchant();
    const ep = await endpoint(polar, "unreachable", ["order.created"]);
    await infra.knex.transaction((trx) => emit(trx, org.id, "order.created", { n: 1 }));
    await expect.poll(() => receiver.at(ep.path).length, poll).toBe(1);
    const event = await infra.knex("webhook_events").where({ endpoint_id: ep.id }).first();
    await expect.poll(async () => (await infra.knex("webhook_events").where({ id: event.id }).first()).pending, poll).toBe(false);

    setWorkflowsDoor({
      wakeWebhookEndpoints: async () => {
        throw new Error("Temporal unreachable");
      },
    });
    try {
      await polar.webhooks.redeliverWebhookEvent({ id: event.id });
    } finally {
      setWorkflowsDoor({ wakeWebhookEndpoints: h.waker });
    }
    await expect.poll(() => receiver.at(ep.path).length, poll).toBe(2);
    expect(receiver.at(ep.path)[1].headers["webhook-id"]).toBe(event.id);
  });

  it("delivers, with the same webhook-id, when the worker is killed mid-delivery", async () => {
    const { polar, org } = await merchant();
    const ep = await endpoint(polar, "killed", ["order.updated"]);
    receiver.hold(ep.path); // the first request never gets an answer
    // Its own task queue, served first by a worker process of its own.
    const killQueue = `webhooks-kill-${randomUUID().slice(0, 8)}`;
    await infra.knex.transaction((trx) => emit(trx, org.id, "order.created", { n: 0 }));
    const [outboxRow] = await infra.knex("outbox").where({ organization_id: org.id });
    // The endpoint's workflow runs on the kill queue before its event exists, so the other
    // worker's sweep finds it running and leaves it there.
    const wakeOnKillQueue = temporalDoor(h.client, killQueue, { retryDelaysMs: RETRY_DELAYS_MS, idleMs: 120_000 }).wakeWebhookEndpoints;
    await wakeOnKillQueue([ep.id]);
    const [event] = await infra
      .knex("webhook_events")
      .insert({
        organization_id: org.id,
        endpoint_id: ep.id,
        outbox_id: outboxRow.id,
        type: "order.updated",
        payload: JSON.stringify({ type: "order.updated", timestamp: new Date().toISOString(), data: { n: 1 } }),
      })
      .returning("*");
    await wakeOnKillQueue([ep.id]);

    const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(new URL("./worker-process.ts", import.meta.url))], {
      env: {
        ...process.env,
        WH_DATABASE_URL: await thisDatabaseUrl(),
        WH_TEMPORAL_ADDRESS: infra.temporalAddress,
        WH_NAMESPACE: infra.namespace,
        WH_TASK_QUEUE: killQueue,
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let second: Worker | undefined;
    let secondRunning: Promise<void> | undefined;
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on("data", (d: Buffer) => d.toString().includes("ready") && resolve());
        child.once("exit", (code) => reject(new Error(`worker process exited with ${code}`)));
      });
      await expect.poll(() => receiver.at(ep.path).length, poll).toBe(1);
      child.kill("SIGKILL");

      second = await Worker.create({
        connection: h.nativeConnection,
        namespace: infra.namespace,
        taskQueue: killQueue,
        workflowBundle: await workflowBundle(),
        activities: createWebhookActivities(activityDeps(infra.knex)),
      });
      secondRunning = second.run();
      // The lost attempt times out (30 s), the next one goes out on the schedule.
      await expect.poll(() => receiver.at(ep.path).length, { timeout: 60_000, interval: 200 }).toBe(2);
      const hits = receiver.at(ep.path);
      expect(hits.map((h) => h.headers["webhook-id"])).toEqual([event.id, event.id]);
      expect(verifyDirect(hits[1], ep.secret)).toMatchObject({ data: { n: 1 } });
      await expect.poll(async () => (await infra.knex("webhook_events").where({ id: event.id }).first()).succeeded, poll).toBe(true);
    } finally {
      child.kill("SIGKILL");
      await h.client.workflow
        .getHandle(`webhook-endpoint:${ep.id}`)
        .terminate()
        .catch(() => {});
      receiver.release();
      second?.shutdown();
      await secondRunning;
    }
  }, 120_000);

  it("sends Discord and Slack bodies those services accept, still signed", async () => {
    const { polar, org } = await merchant();
    const discord = await endpoint(polar, "discord", ["order.created"], "discord");
    const slack = await endpoint(polar, "slack", ["order.created"], "slack");
    await infra.knex.transaction((trx) => emit(trx, org.id, "order.created", { id: "ord_1", status: "paid" }));
    await expect.poll(() => receiver.at(discord.path).length + receiver.at(slack.path).length, poll).toBe(2);

    const d = verifyDirect(receiver.at(discord.path)[0], discord.secret) as {
      content: string;
      embeds: { title: string; fields: { name: string; value: string }[] }[];
    };
    expect(d.content).toContain("order.created");
    expect(d.embeds[0].title).toBe("order.created");
    expect(d.embeds[0].fields).toContainEqual({ name: "id", value: "ord_1", inline: true });
    const s = verifyDirect(receiver.at(slack.path)[0], slack.secret) as {
      text: string;
      blocks: { type: string; text: { type: string; text: string } }[];
    };
    expect(s.text).toContain("order.created");
    expect(s.blocks[0]).toMatchObject({ type: "section", text: { type: "mrkdwn" } });
    expect(s.blocks[0].text.text).toContain("ord_1");
  });
});
