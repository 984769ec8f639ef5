// Borealis extensions of the webhook deliveries: the deliveries list filtered by event type,
// outcome and time (paged on the server), and replaying every failed event of an endpoint that
// matches a filter in one call; 0.49.0's filters by HTTP code class and query.
import { beforeAll, describe, expect, it } from "vitest";
import { Polar as Polar049 } from "polar-sdk-049";
import { createWebhookEndpoint, orgWithToken, useTestApi } from "../harness/index.js";

const api = useTestApi();

describe("webhook deliveries: filters and replay of failed events", () => {
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

  /** An event on the endpoint, in a given state, created at `at`, with one delivery attempt. */
  async function event(
    name: string,
    type: string,
    at: string,
    state: { succeeded: boolean | null; pending?: boolean; archived?: boolean },
  ) {
    const [outbox] = await api
      .knex("outbox")
      .insert({ organization_id: orgId, type, payload: JSON.stringify({}), published_at: new Date() })
      .returning("id");
    const [row] = await api
      .knex("webhook_events")
      .insert({
        organization_id: orgId,
        endpoint_id: endpointId,
        outbox_id: outbox.id,
        type,
        payload: JSON.stringify({ type, data: {} }),
        succeeded: state.succeeded,
        last_http_code: state.succeeded ? 200 : 500,
        pending: state.pending ?? false,
        is_archived: state.archived ?? false,
        created_at: new Date(at),
      })
      .returning("id");
    ids[name] = row.id;
    await api.knex("webhook_deliveries").insert({
      organization_id: orgId,
      endpoint_id: endpointId,
      webhook_event_id: row.id,
      succeeded: !!state.succeeded,
      http_code: state.succeeded ? 200 : 500,
      response: state.succeeded ? "ok" : "boom",
      created_at: new Date(at),
    });
  }

  beforeAll(async () => {
    const made = await orgWithToken(api.knex);
    token = made.token;
    orgId = made.org.id;
    endpointId = (await createWebhookEndpoint(api.knex, orgId, { events: ["order.paid", "order.refunded"] })).id;
    await event("paidOk", "order.paid", "2026-01-01T10:00:00Z", { succeeded: true });
    await event("paidFailedJan", "order.paid", "2026-01-02T10:00:00Z", { succeeded: false });
    await event("refundFailedJan", "order.refunded", "2026-01-03T10:00:00Z", { succeeded: false });
    await event("paidFailedFeb", "order.paid", "2026-02-10T10:00:00Z", { succeeded: false });
    await event("paidFailedQueued", "order.paid", "2026-01-05T10:00:00Z", { succeeded: false, pending: true });
    await event("paidFailedArchived", "order.paid", "2026-01-06T10:00:00Z", { succeeded: false, archived: true });
  });

  it("filters the deliveries by event type, outcome and time, paged on the server", async () => {
    const list = (q: string) => call("GET", `/v1/webhooks/deliveries?endpoint_id=${endpointId}&${q}`);
    const types = (r: { json: Record<string, unknown> }) =>
      (r.json.items as { webhook_event: { id: string } }[]).map((d) => d.webhook_event.id);
    expect((await list("limit=100")).json.pagination).toEqual({ total_count: 6, max_page: 1 });
    expect(types(await list("succeeded=true"))).toEqual([ids.paidOk]);
    expect(new Set(types(await list("event_type=order.refunded&event_type=order.refunded")))).toEqual(new Set([ids.refundFailedJan]));
    const jan = await list("succeeded=false&start_timestamp=2026-01-01T00:00:00Z&end_timestamp=2026-01-31T23:59:59Z&limit=2&page=1");
    expect(jan.json.pagination).toEqual({ total_count: 4, max_page: 2 });
    expect(types(jan)).toEqual([ids.paidFailedArchived, ids.paidFailedQueued]); // newest first
    expect((await list("event_type=order.shipped")).status).toBe(422);
    const backwards = await list("start_timestamp=2026-02-01T00:00:00Z&end_timestamp=2026-01-01T00:00:00Z");
    expect(backwards.status).toBe(422);
    expect(backwards.json.detail).toEqual([expect.objectContaining({ loc: ["query", "end_timestamp"] })]);
  });

  it("queues again only the failed events matching the filter: not the delivered, queued or archived ones", async () => {
    const pending = async () =>
      new Set((await api.knex("webhook_events").where({ endpoint_id: endpointId, pending: true }).select("id")).map((r) => r.id as string));
    const replay = await call("POST", `/v1/webhooks/endpoints/${endpointId}/replay`, {
      event_type: ["order.paid"],
      start_timestamp: "2026-01-01T00:00:00Z",
      end_timestamp: "2026-01-31T23:59:59Z",
    });
    expect(replay).toEqual({ status: 202, json: { replayed: 1 } });
    expect(await pending()).toEqual(new Set([ids.paidFailedQueued, ids.paidFailedJan]));
    const [queued] = await api.knex("webhook_events").where({ id: ids.paidFailedJan }).select("queued");
    expect(queued.queued).toBe(2);
    // asked again: those are queued now, nothing more to replay in that window
    expect(
      (
        await call("POST", `/v1/webhooks/endpoints/${endpointId}/replay`, {
          event_type: ["order.paid"],
          start_timestamp: "2026-01-01T00:00:00Z",
          end_timestamp: "2026-01-31T23:59:59Z",
        })
      ).json,
    ).toEqual({ replayed: 0 });
    // no filter: every other failed event
    expect((await call("POST", `/v1/webhooks/endpoints/${endpointId}/replay`, {})).json).toEqual({ replayed: 2 });
    expect(await pending()).toEqual(new Set([ids.paidFailedQueued, ids.paidFailedJan, ids.refundFailedJan, ids.paidFailedFeb]));
  });

  it("answers 404 for another organization's endpoint and 422 for a bad filter", async () => {
    const stranger = (await orgWithToken(api.knex)).token;
    const other = await call("POST", `/v1/webhooks/endpoints/${endpointId}/replay`, {}, stranger);
    expect(other.status).toBe(404);
    expect(other.json.error).toBe("ResourceNotFound");
    expect((await call("POST", `/v1/webhooks/endpoints/not-a-uuid/replay`, {})).status).toBe(404);
    const bad = await call("POST", `/v1/webhooks/endpoints/${endpointId}/replay`, { event_type: ["nope"] });
    expect(bad.status).toBe(422);
    expect((bad.json.detail as { loc: unknown[] }[])[0].loc.slice(0, 2)).toEqual(["body", "event_type"]);
    const backwards = await call("POST", `/v1/webhooks/endpoints/${endpointId}/replay`, {
      start_timestamp: "2026-02-01T00:00:00Z",
      end_timestamp: "2026-01-01T00:00:00Z",
    });
    expect(backwards.status).toBe(422);
    expect(backwards.json.detail).toEqual([expect.objectContaining({ loc: ["body", "end_timestamp"] })]);
  });

  it("takes 0.49.0's filters: the answer's HTTP code class, and a query over the ids and the code", async () => {
    const endpoint = (await createWebhookEndpoint(api.knex, orgId, { events: ["order.paid"] })).id;
    const codes = [200, 204, 302, 404, 500, null];
    const delivered: Record<string, { id: string; event: string }> = {};
    for (const code of codes) {
      const [outbox] = await api
        .knex("outbox")
        .insert({ organization_id: orgId, type: "order.paid", payload: JSON.stringify({}), published_at: new Date() })
        .returning("id");
      const [event] = await api
        .knex("webhook_events")
        .insert({
          organization_id: orgId,
          endpoint_id: endpoint,
          outbox_id: outbox.id,
          type: "order.paid",
          payload: JSON.stringify({ type: "order.paid", data: {} }),
          succeeded: code === 200 || code === 204,
          last_http_code: code,
          pending: false,
        })
        .returning("id");
      const [delivery] = await api
        .knex("webhook_deliveries")
        .insert({
          organization_id: orgId,
          endpoint_id: endpoint,
          webhook_event_id: event.id,
          succeeded: code === 200 || code === 204,
          http_code: code,
          response: null,
        })
        .returning("id");
      delivered[String(code)] = { id: delivery.id, event: event.id };
    }
    const newer = new Polar049({ accessToken: token, serverURL: api.url });
    const of = async (req: { httpCodeClass?: "2xx" | "3xx" | "4xx" | "5xx"; query?: string }) =>
      (await newer.webhooks.listWebhookDeliveries(Object.assign({ endpointId: endpoint, limit: 100 }, req))).result.items
        .map((d) => d.id)
        .sort();
    const sorted = (...codes: string[]) => codes.map((c) => delivered[c].id).sort();
    expect(await of({})).toHaveLength(codes.length);
    // No answer (a timeout) is in no class.
    expect(await of({ httpCodeClass: "2xx" })).toEqual(sorted("200", "204"));
    expect(await of({ httpCodeClass: "3xx" })).toEqual(sorted("302"));
    expect(await of({ httpCodeClass: "4xx" })).toEqual(sorted("404"));
    expect(await of({ httpCodeClass: "5xx" })).toEqual(sorted("500"));
    // A substring of the delivery's id, its event's id or its code, ignoring case (a code's digits
    // may be in an id too: what matches is worked out from the rows).
    const matching = (q: string) =>
      Object.entries(delivered)
        .filter(([code, d]) => [d.id, d.event, code].some((v) => v.toLowerCase().includes(q.toLowerCase())))
        .map(([, d]) => d.id)
        .sort();
    expect(await of({ query: "404" })).toEqual(matching("404"));
    expect(matching("404")).toContain(delivered["404"].id);
    expect(await of({ query: delivered["302"].id.slice(0, 13).toUpperCase() })).toEqual(sorted("302"));
    expect(await of({ query: delivered["500"].event })).toEqual(sorted("500"));
    expect(await of({ query: "302", httpCodeClass: "5xx" })).toEqual(matching("302").filter((id) => id === delivered["500"].id));
  });
});
