// Borealis extensions of the webhooks: an endpoint's ordered queue (the head, its attempts and why
// the last one failed, the events waiting behind it), and skipping its head: only the head, named,
// by a token that may write webhooks, of the caller's own organization.
import { beforeAll, describe, expect, it } from "vitest";
import { createWebhookEndpoint, orgWithToken, useTestApi } from "../harness/index.js";

const api = useTestApi();

describe("webhook queue: reading it and skipping its head", () => {
  let token: string;
  let orgId: string;
  let endpointId: string;
  const ids: Record<string, string> = {};

  async function call(method: string, path: string, body?: unknown, as = token) {
    const res = await fetch(`${api.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${as}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  }

  /** An event on the endpoint, pending (queued) or not, set aside or not, with its attempts (http codes; null: no answer). */
  async function event(name: string, at: string, state: { pending: boolean; setAside?: boolean; attempts?: (number | null)[] }) {
    const [outbox] = await api
      .knex("outbox")
      .insert({ organization_id: orgId, type: "order.paid", payload: JSON.stringify({}), published_at: new Date() })
      .returning("id");
    const attempts = state.attempts ?? [];
    const last = attempts.at(-1);
    const [row] = await api
      .knex("webhook_events")
      .insert({
        organization_id: orgId,
        endpoint_id: endpointId,
        outbox_id: outbox.id,
        type: "order.paid",
        payload: JSON.stringify({ type: "order.paid", data: {} }),
        succeeded: attempts.length ? false : null,
        last_http_code: last ?? null,
        pending: state.pending,
        set_aside_at: state.setAside ? new Date(at) : null,
        created_at: new Date(at),
      })
      .returning("id");
    ids[name] = row.id;
    for (const [i, code] of attempts.entries()) {
      await api.knex("webhook_deliveries").insert({
        organization_id: orgId,
        endpoint_id: endpointId,
        webhook_event_id: row.id,
        succeeded: false,
        http_code: code,
        response: code === null ? "connect ECONNREFUSED 127.0.0.1:9" : `{"error":"boom ${i + 1}"}`,
        created_at: new Date(Date.parse(at) + (i + 1) * 5_000),
      });
    }
  }

  beforeAll(async () => {
    const made = await orgWithToken(api.knex);
    token = made.token;
    orgId = made.org.id;
    endpointId = (await createWebhookEndpoint(api.knex, orgId, { events: ["order.paid"] })).id;
    await event("delivered", "2026-01-01T09:00:00Z", { pending: false });
    await event("head", "2026-01-01T10:00:00Z", { pending: true, attempts: [null, 500] });
    await event("aside", "2026-01-01T10:30:00Z", { pending: true, setAside: true, attempts: [503] });
    await event("second", "2026-01-01T11:00:00Z", { pending: true });
    await event("third", "2026-01-01T12:00:00Z", { pending: true });
  });

  it("lists the queue in order: the head with its attempts and last failure, then what waits behind it", async () => {
    const { status, json } = await call("GET", `/v1/webhooks/endpoints/${endpointId}/queue`);
    expect(status).toBe(200);
    expect(json.total).toBe(3);
    expect(json.items).toEqual([
      {
        id: ids.head,
        type: "order.paid",
        created_at: "2026-01-01T10:00:00.000Z",
        attempts: 2,
        last_attempt_at: "2026-01-01T10:00:10.000Z",
        last_http_code: 500,
        last_error: 'HTTP 500: {"error":"boom 2"}',
      },
      {
        id: ids.second,
        type: "order.paid",
        created_at: "2026-01-01T11:00:00.000Z",
        attempts: 0,
        last_attempt_at: null,
        last_http_code: null,
        last_error: null,
      },
      expect.objectContaining({ id: ids.third, attempts: 0 }),
    ]);
  });

  it("skips only the head it names; the events behind it move up, the skipped one stays failed", async () => {
    const notHead = await call("POST", `/v1/webhooks/endpoints/${endpointId}/queue/skip`, { event_id: ids.second });
    expect(notHead.status).toBe(422);
    expect(notHead.json.detail).toEqual([
      expect.objectContaining({ loc: ["body", "event_id"], msg: "This event is not at the head of the queue (any more)." }),
    ]);
    const bad = await call("POST", `/v1/webhooks/endpoints/${endpointId}/queue/skip`, { event_id: "nope" });
    expect(bad.status).toBe(422);
    const extra = await call("POST", `/v1/webhooks/endpoints/${endpointId}/queue/skip`, { event_id: ids.head, all: true });
    expect(extra.status).toBe(422);

    const skipped = await call("POST", `/v1/webhooks/endpoints/${endpointId}/queue/skip`, { event_id: ids.head });
    expect(skipped.status).toBe(200);
    expect(skipped.json.total).toBe(2);
    expect((skipped.json.items as { id: string }[]).map((e) => e.id)).toEqual([ids.second, ids.third]);
    const row = await api.knex("webhook_events").where({ id: ids.head }).first();
    expect(row).toMatchObject({ pending: false, succeeded: false, last_http_code: 500 });

    // skipped once: a second skip of it is refused, as it is no longer the head
    expect((await call("POST", `/v1/webhooks/endpoints/${endpointId}/queue/skip`, { event_id: ids.head })).status).toBe(422);
    // the replay of failed events sends it again, at the head
    expect((await call("POST", `/v1/webhooks/endpoints/${endpointId}/replay`, {})).json).toEqual({ replayed: 1 });
    const again = await call("GET", `/v1/webhooks/endpoints/${endpointId}/queue`);
    expect((again.json.items as { id: string }[]).map((e) => e.id)).toEqual([ids.head, ids.second, ids.third]);
  });

  it("is the caller's organization's only, and skipping needs webhooks:write", async () => {
    const other = await orgWithToken(api.knex);
    expect((await call("GET", `/v1/webhooks/endpoints/${endpointId}/queue`, undefined, other.token)).status).toBe(404);
    const theirSkip = await call("POST", `/v1/webhooks/endpoints/${endpointId}/queue/skip`, { event_id: ids.head }, other.token);
    expect(theirSkip.status).toBe(404);
    expect((await call("GET", `/v1/webhooks/endpoints/not-a-uuid/queue`)).status).toBe(404);

    const reader = await orgWithToken(api.knex, { scopes: ["webhooks:read"] });
    const readerEndpoint = (await createWebhookEndpoint(api.knex, reader.org.id, { events: ["order.paid"] })).id;
    const read = await call("GET", `/v1/webhooks/endpoints/${readerEndpoint}/queue`, undefined, reader.token);
    expect(read).toEqual({ status: 200, json: { items: [], total: 0 } });
    const denied = await call("POST", `/v1/webhooks/endpoints/${readerEndpoint}/queue/skip`, { event_id: ids.head }, reader.token);
    expect(denied.status).toBe(403);
    expect(denied.json.error).toBe("NotPermitted");
  });
});
