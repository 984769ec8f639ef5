// Events through the official client: ingestion (per-item 422 with the item's index, all-or-nothing,
// external customer ids attributed when the customer appears, idempotency by external id even for
// racing batches), listing with every filter, event names with their statistics, reads by id, and
// organization isolation.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import type { Event } from "@polar-sh/sdk/models/components/event.js";
import { HTTPValidationError } from "@polar-sh/sdk/models/errors/httpvalidationerror.js";
import { ResourceNotFound } from "@polar-sh/sdk/models/errors/resourcenotfound.js";
import { SDKError } from "@polar-sh/sdk/models/errors/sdkerror.js";
import { HTTPValidationError as HTTPValidationError049 } from "polar-sdk-049/models/errors/httpvalidationerror.js";
import { collectPages, createCustomer, createMeter, orgWithToken, rejects, useTestApi } from "../harness/index.js";
import { storeEvents } from "../../server/events/store.js";
import { foldUsage } from "../../server/meters/fold.js";

const api = useTestApi();
const at = (s: string) => new Date(s);
const locs = (err: HTTPValidationError) => err.data$.detail?.map((d) => d.loc) ?? [];

async function setup() {
  const { org, token } = await orgWithToken(api.knex);
  return { org, token, polar: api.client(token) };
}

async function list(polar: Polar, req: Parameters<Polar["events"]["list"]>[0]): Promise<Event[]> {
  return collectPages(await polar.events.list(req));
}

/** POST /v1/events/ingest as raw JSON (for what the official client cannot send: external_id, bad shapes). */
async function rawIngest(
  token: string,
  events: unknown[],
): Promise<{ status: number; body: { inserted?: number; detail?: { loc: unknown[] }[] } }> {
  const res = await fetch(`${api.url}/v1/events/ingest`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ events }),
  });
  return { status: res.status, body: (await res.json()) as { inserted?: number } };
}

const nameOf = (e: Event) => e.name;

describe("events", () => {
  it("ingests events by customer id and external customer id and reads them back", async () => {
    const { org, polar } = await setup();
    const alice = await createCustomer(api.knex, org.id, { external_id: "alice" });
    const res = await polar.events.ingest({
      events: [
        {
          name: "api_call",
          customerId: alice.id,
          timestamp: at("2025-03-01T10:00:00Z"),
          metadata: { tokens: 12, model: "gpt", cached: false, ratio: 0.5 },
        },
        { name: "api_call", externalCustomerId: "alice", timestamp: at("2025-03-01T11:00:00Z") },
        { name: "upload", externalCustomerId: "not-yet-a-customer", timestamp: at("2025-03-01T12:00:00Z"), metadata: { bytes: 2048 } },
        { name: "ping", customerId: alice.id, organizationId: org.id },
      ],
    });
    expect(res).toEqual({ inserted: 4 });
    const events = await list(polar, { sorting: ["timestamp"] });
    expect(events.map(nameOf)).toEqual(["api_call", "api_call", "upload", "ping"]);
    const [first, second, third, fourth] = events;
    expect(first).toMatchObject({
      source: "user",
      organizationId: org.id,
      customerId: alice.id,
      externalCustomerId: "alice",
      metadata: { tokens: 12, model: "gpt", cached: false, ratio: 0.5 },
      timestamp: at("2025-03-01T10:00:00Z"),
    });
    expect(first.customer).toMatchObject({ id: alice.id, email: alice.email });
    // An external id a customer has: stored with that customer's id.
    expect(second).toMatchObject({ customerId: alice.id, externalCustomerId: "alice" });
    // Unknown: kept as it came, no customer yet.
    expect(third).toMatchObject({ customerId: null, customer: null, externalCustomerId: "not-yet-a-customer", metadata: { bytes: 2048 } });
    // No timestamp: now.
    expect(Math.abs(fourth.timestamp.getTime() - Date.now())).toBeLessThan(60_000);
    expect(await polar.events.get({ id: third.id })).toEqual(third);

    // The customer appears: its earlier events become its own.
    const later = await polar.customers.create({ email: "late@example.com", externalId: "not-yet-a-customer" });
    const attributed = await polar.events.get({ id: third.id });
    expect(attributed).toMatchObject({ customerId: later.id, externalCustomerId: "not-yet-a-customer" });
    expect(attributed.customer?.id).toBe(later.id);
    expect((await list(polar, { customerId: later.id })).map(nameOf)).toEqual(["upload"]);
  });

  it("reports every bad item with its index and stores nothing of the batch", async () => {
    const { org, token, polar } = await setup();
    const alice = await createCustomer(api.knex, org.id);
    const other = await orgWithToken(api.knex);
    const stranger = await createCustomer(api.knex, other.org.id);
    const err = await rejects(
      polar.events.ingest({
        events: [
          { name: "ok", customerId: alice.id },
          { name: "stranger", customerId: stranger.id },
          { name: "unknown", customerId: "8a0f3b1e-0000-4000-8000-000000000000" },
          { name: "future", customerId: alice.id, timestamp: new Date(Date.now() + 3_600_000) },
          { name: "meta", customerId: alice.id, metadata: { ["k".repeat(41)]: 1 } },
          { name: "foreign", customerId: alice.id, organizationId: other.org.id },
          { name: "   ", customerId: alice.id },
          { name: "ok too", externalCustomerId: "x" },
        ],
      }),
      HTTPValidationError,
    );
    expect(locs(err)).toEqual(
      expect.arrayContaining([
        ["body", "events", 1, "customer_id"],
        ["body", "events", 2, "customer_id"],
        ["body", "events", 3, "timestamp"],
        ["body", "events", 4, "metadata", "k".repeat(41)],
        ["body", "events", 5, "organization_id"],
        ["body", "events", 6, "name"],
      ]),
    );
    expect(locs(err).some((l) => l[2] === 0 || l[2] === 7)).toBe(false);
    expect(await api.knex("events").where({ organization_id: org.id }).count({ n: "*" }).first()).toEqual({ n: 0 });

    // Shapes the contract refuses: neither customer id, a bad metadata value, over 1,000 events.
    const bad = await rawIngest(token, [
      { name: "a", customer_id: alice.id },
      { name: "no customer" },
      { name: "x", customer_id: alice.id, metadata: { a: [1] } },
    ]);
    expect(bad.status).toBe(422);
    const badLocs = bad.body.detail!.map((d) => d.loc);
    expect(badLocs).toContainEqual(["body", "events", 1, "customer_id"]);
    expect(badLocs).toContainEqual(["body", "events", 1, "external_customer_id"]);
    expect(badLocs.some((l) => l[2] === 2)).toBe(true);
    expect(badLocs.some((l) => l[2] === 0)).toBe(false);
    const tooMany = await rawIngest(
      token,
      Array.from({ length: 1001 }, (_, i) => ({ name: "e", external_customer_id: `c${i}` })),
    );
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.detail![0].loc).toEqual(["body", "events"]);
    const exactly = await rawIngest(
      token,
      Array.from({ length: 1000 }, (_, i) => ({ name: "e", external_customer_id: `c${i % 7}` })),
    );
    expect(exactly).toEqual({ status: 200, body: { inserted: 1000 } });
    expect(await rawIngest(token, [])).toEqual({ status: 200, body: { inserted: 0 } });
  });

  it("stores large batches as they came, whatever characters their names and metadata hold", async () => {
    const { org, polar } = await setup();
    const alice = await createCustomer(api.knex, org.id);
    const odd = ["tab\there", "new\nline", "back\\slash \\N", "quote \"x\" 'y'", "émoji 🚀", "\\.", ""];
    const events = Array.from({ length: 120 }, (_, i) => ({
      name: `odd ${odd[i % odd.length]}`,
      customerId: alice.id,
      timestamp: new Date(Date.parse("2025-03-01T00:00:00Z") + i * 60_000),
      metadata: { text: odd[(i + 1) % odd.length], n: i, ok: i % 2 === 0, ratio: i / 7 },
    }));
    expect(await polar.events.ingest({ events })).toEqual({ inserted: 120 });
    const stored = await list(polar, { sorting: ["timestamp"], limit: 100 });
    // Names are stored trimmed.
    expect(stored.map((e) => [e.name, e.source === "user" ? e.metadata : null])).toEqual(events.map((e) => [e.name.trim(), e.metadata]));
  });

  it("stores an external id once, even when batches carrying it race", async () => {
    const { org, token } = await setup();
    const first = await rawIngest(token, [
      { name: "call", external_customer_id: "u1", external_id: "evt-1" },
      { name: "call", external_customer_id: "u1", external_id: "evt-2" },
      { name: "call", external_customer_id: "u1", external_id: "evt-1" },
      { name: "call", external_customer_id: "u1" },
    ]);
    expect(first.body).toEqual({ inserted: 3 });
    const again = await rawIngest(token, [
      { name: "call", external_customer_id: "u1", external_id: "evt-1" },
      { name: "call", external_customer_id: "u1", external_id: "evt-3" },
    ]);
    expect(again.body).toEqual({ inserted: 1 });
    // Eight batches at once, each with the same 50 ids (and 10 of their own).
    const shared = Array.from({ length: 50 }, (_, i) => ({ name: "race", external_customer_id: "u2", external_id: `race-${i}` }));
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, b) =>
        rawIngest(token, [
          ...shared,
          ...Array.from({ length: 10 }, (_, i) => ({ name: "race", external_customer_id: "u2", external_id: `own-${b}-${i}` })),
        ]),
      ),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.reduce((n, r) => n + r.body.inserted!, 0)).toBe(50 + 80);
    const stored = await api.knex("events").where({ organization_id: org.id, name: "race" }).count({ n: "*" }).first();
    expect(stored).toEqual({ n: 130 });
    // Another organization may use the same external ids.
    const other = await orgWithToken(api.knex);
    expect((await rawIngest(other.token, [{ name: "call", external_customer_id: "u1", external_id: "evt-1" }])).body).toEqual({
      inserted: 1,
    });
    // The statistics count each stored event once.
    const names = await collectPages(await api.client(token).events.listNames({ query: "race" }));
    expect(names.map((n) => [n.name, n.occurrences])).toEqual([["race", 130]]);
  });

  it("lists with every filter, sorting and paging", async () => {
    const { org, polar } = await setup();
    const alice = await createCustomer(api.knex, org.id, { external_id: "alice" });
    const bob = await createCustomer(api.knex, org.id);
    await polar.events.ingest({
      events: [
        { name: "api_call", customerId: alice.id, timestamp: at("2025-03-01T10:00:00Z"), metadata: { tokens: 10, model: "gpt-4" } },
        { name: "api_call", customerId: bob.id, timestamp: at("2025-03-02T10:00:00Z"), metadata: { tokens: 50, model: "claude" } },
        { name: "api_call", externalCustomerId: "alice", timestamp: at("2025-03-03T10:00:00Z"), metadata: { tokens: 5, model: "gpt-3.5" } },
        { name: "upload", externalCustomerId: "carol", timestamp: at("2025-03-04T10:00:00Z"), metadata: { bytes: 100 } },
        { name: "upload", customerId: bob.id, timestamp: at("2025-03-05T10:00:00Z"), metadata: { bytes: 900 } },
      ],
    });
    const ids = (es: Event[]) => es.map((e) => `${e.name}@${e.timestamp.toISOString().slice(8, 10)}`);
    expect(ids(await list(polar, {}))).toEqual(["upload@05", "upload@04", "api_call@03", "api_call@02", "api_call@01"]);
    expect(ids(await list(polar, { sorting: ["timestamp"] }))).toEqual([
      "api_call@01",
      "api_call@02",
      "api_call@03",
      "upload@04",
      "upload@05",
    ]);
    expect(ids(await list(polar, { name: "upload" }))).toEqual(["upload@05", "upload@04"]);
    expect(ids(await list(polar, { name: ["upload", "api_call"] }))).toHaveLength(5);
    expect(ids(await list(polar, { source: "system" }))).toEqual([]);
    expect(ids(await list(polar, { source: ["user"] }))).toHaveLength(5);
    expect(ids(await list(polar, { customerId: alice.id }))).toEqual(["api_call@03", "api_call@01"]);
    expect(ids(await list(polar, { customerId: [alice.id, bob.id] }))).toHaveLength(4);
    expect(ids(await list(polar, { externalCustomerId: "alice" }))).toEqual(["api_call@03", "api_call@01"]);
    expect(ids(await list(polar, { externalCustomerId: ["carol"] }))).toEqual(["upload@04"]);
    expect(ids(await list(polar, { startTimestamp: at("2025-03-02T10:00:00Z"), endTimestamp: at("2025-03-04T10:00:00Z") }))).toEqual([
      "api_call@03",
      "api_call@02",
    ]);
    expect(ids(await list(polar, { metadata: { model: ["gpt-4", "claude"] } }))).toEqual(["api_call@02", "api_call@01"]);
    expect(ids(await list(polar, { organizationId: org.id }))).toHaveLength(5);
    expect(ids(await list(polar, { organizationId: "8a0f3b1e-0000-4000-8000-000000000000" }))).toEqual([]);
    const tree = {
      conjunction: "or",
      clauses: [
        { property: "bytes", operator: "gt", value: 500 },
        {
          conjunction: "and",
          clauses: [
            { property: "name", operator: "eq", value: "api_call" },
            { property: "model", operator: "like", value: "gpt" },
          ],
        },
      ],
    };
    expect(ids(await list(polar, { filter: JSON.stringify(tree) }))).toEqual(["upload@05", "api_call@03", "api_call@01"]);
    const meter = await polar.meters.create({
      name: "Big calls",
      filter: { conjunction: "and", clauses: [{ property: "tokens", operator: "gte", value: 10 }] },
      aggregation: { func: "count" },
    });
    expect(ids(await list(polar, { meterId: meter.id }))).toEqual(["api_call@02", "api_call@01"]);
    const page = await polar.events.list({ limit: 2, page: 2, sorting: ["timestamp"] });
    expect(ids(page.result.items)).toEqual(["api_call@03", "upload@04"]);
    expect(page.result.pagination).toEqual({ totalCount: 5, maxPage: 3 });

    for (const bad of [
      { filter: "{not json" },
      { filter: JSON.stringify({ conjunction: "xor", clauses: [] }) },
      { meterId: "8a0f3b1e-0000-4000-8000-000000000000" },
    ]) {
      const err = await rejects(polar.events.list(bad), HTTPValidationError);
      expect(err.data$.detail?.[0].loc[0]).toBe("query");
    }
  });

  it("takes 0.49.0's search, depth and parent filters", async () => {
    const { org, token, polar } = await setup();
    const dana = await createCustomer(api.knex, org.id, { email: "dana@shop.test", name: "Dana Scully", external_id: "xf-1" });
    const eli = await createCustomer(api.knex, org.id, { email: "eli@else.test", name: "Eli" });
    await polar.events.ingest({
      events: [
        { name: "render_frame", customerId: dana.id, timestamp: at("2025-04-01T10:00:00Z"), metadata: { engine: "cycles" } },
        { name: "upload", externalCustomerId: "xf-1", timestamp: at("2025-04-02T10:00:00Z"), metadata: { bytes: 10 } },
        { name: "upload", customerId: eli.id, timestamp: at("2025-04-03T10:00:00Z"), metadata: { engine: "eevee" } },
      ],
    });
    const newer = api.client049(token);
    const names = async (req: Parameters<typeof newer.events.list>[0]) => {
      const page = await newer.events.list(Object.assign({ organizationId: org.id, sorting: ["timestamp" as const], limit: 100 }, req));
      return page.items.map((e) => `${e.name}@${e.timestamp.toISOString().slice(8, 10)}`);
    };
    // The name, the source, the metadata; the customer's name, email, external id or id.
    expect(await names({ query: "RENDER" })).toEqual(["render_frame@01"]);
    expect(await names({ query: "eevee" })).toEqual(["upload@03"]);
    expect(await names({ query: "scully" })).toEqual(["render_frame@01", "upload@02"]);
    expect(await names({ query: "else.test" })).toEqual(["upload@03"]);
    expect(await names({ query: "xf-1" })).toEqual(["render_frame@01", "upload@02"]);
    expect(await names({ query: eli.id.slice(0, 8) })).toEqual(["upload@03"]);
    expect(await names({ query: "use" })).toEqual(["render_frame@01", "upload@02", "upload@03"]);
    expect(await names({ query: "nothing at all" })).toEqual([]);
    // As Polar: a search names the organization, and has at least three characters.
    const unnamed = await rejects(newer.events.list({ query: "upload" }), HTTPValidationError049);
    expect(unnamed.detail?.[0]?.loc).toEqual(["query", "query"]);
    expect((await rejects(newer.events.list({ organizationId: org.id, query: "up" }), HTTPValidationError049)).detail?.[0]?.loc).toEqual([
      "query",
      "query",
    ]);
    // Events are ingested without a parent: all are roots, none descends from another.
    const first = (await newer.events.list({ organizationId: org.id, sorting: ["timestamp"], limit: 1 })).items[0].id;
    expect(await names({ depth: 0 })).toHaveLength(3);
    expect(await names({ depth: 5 })).toHaveLength(3);
    expect(await names({ parentId: first })).toEqual([]);
    expect(await names({ parentId: first, depth: 2 })).toEqual([]);
    expect((await rejects(newer.events.list({ depth: 6 }), HTTPValidationError049)).detail?.[0]?.loc).toEqual(["query", "depth"]);
  });

  it("lists event names with occurrences, first and last seen", async () => {
    const { org, polar } = await setup();
    const alice = await createCustomer(api.knex, org.id, { external_id: "alice" });
    await polar.events.ingest({
      events: [
        { name: "api_call", customerId: alice.id, timestamp: at("2025-03-01T10:00:00Z") },
        { name: "api_call", externalCustomerId: "zed", timestamp: at("2025-03-05T10:00:00Z") },
        { name: "api_call", customerId: alice.id, timestamp: at("2025-03-03T10:00:00Z") },
        { name: "upload", externalCustomerId: "zed", timestamp: at("2025-03-02T10:00:00Z") },
        { name: "download", customerId: alice.id, timestamp: at("2025-03-04T10:00:00Z") },
      ],
    });
    await polar.events.ingest({ events: [{ name: "upload", externalCustomerId: "alice", timestamp: at("2025-02-01T10:00:00Z") }] });
    const names = await collectPages(await polar.events.listNames({}));
    expect(names).toEqual([
      { name: "api_call", source: "user", occurrences: 3, firstSeen: at("2025-03-01T10:00:00Z"), lastSeen: at("2025-03-05T10:00:00Z") },
      { name: "download", source: "user", occurrences: 1, firstSeen: at("2025-03-04T10:00:00Z"), lastSeen: at("2025-03-04T10:00:00Z") },
      { name: "upload", source: "user", occurrences: 2, firstSeen: at("2025-02-01T10:00:00Z"), lastSeen: at("2025-03-02T10:00:00Z") },
    ]);
    const order = async (sorting: Parameters<Polar["events"]["listNames"]>[0]["sorting"]) =>
      (await collectPages(await polar.events.listNames({ sorting }))).map((n) => n.name);
    expect(await order(["name"])).toEqual(["api_call", "download", "upload"]);
    expect(await order(["-name"])).toEqual(["upload", "download", "api_call"]);
    expect(await order(["-occurrences", "name"])).toEqual(["api_call", "upload", "download"]);
    expect(await order(["first_seen"])).toEqual(["upload", "api_call", "download"]);
    expect(await order(["last_seen"])).toEqual(["upload", "download", "api_call"]);
    expect((await collectPages(await polar.events.listNames({ query: "LOAD" }))).map((n) => n.name)).toEqual(["download", "upload"]);
    expect(await collectPages(await polar.events.listNames({ source: "system" }))).toEqual([]);
    const alices = await collectPages(await polar.events.listNames({ customerId: alice.id, sorting: ["name"] }));
    expect(alices.map((n) => [n.name, n.occurrences])).toEqual([
      ["api_call", 2],
      ["download", 1],
      ["upload", 1],
    ]);
    const zeds = await collectPages(await polar.events.listNames({ externalCustomerId: "zed", sorting: ["name"] }));
    expect(zeds.map((n) => [n.name, n.occurrences])).toEqual([
      ["api_call", 1],
      ["upload", 1],
    ]);
    const page = await polar.events.listNames({ limit: 1, page: 2, sorting: ["name"] });
    expect(page.result.items.map((n) => n.name)).toEqual(["download"]);
    expect(page.result.pagination).toEqual({ totalCount: 3, maxPage: 3 });
  });

  it("counts ingested events in the meters' totals at once and per customer once folded", async () => {
    const { org, polar } = await setup();
    const alice = await createCustomer(api.knex, org.id);
    const meter = await createMeter(api.knex, org.id);
    const tokens = await polar.meters.create({
      name: "Tokens",
      filter: { conjunction: "and", clauses: [{ property: "name", operator: "eq", value: "api_call" }] },
      aggregation: { func: "sum", property: "tokens" },
    });
    await polar.events.ingest({
      events: [
        { name: "api_call", customerId: alice.id, timestamp: at("2025-03-01T10:15:00Z"), metadata: { tokens: 3 } },
        { name: "api_call", customerId: alice.id, timestamp: at("2025-03-01T10:45:00Z"), metadata: { tokens: 4 } },
        { name: "api_call", externalCustomerId: "bob", timestamp: at("2025-03-01T11:00:00Z"), metadata: { tokens: "n/a" } },
      ],
    });
    type Rollup = { customer_key: string; bucket: Date; events: number; n: number; sum: number; min: number | null; max: number | null };
    // By bucket, then customer key in code-point order (the database's collation may order "ext:bob" and a uuid otherwise).
    const sorted = (rows: Rollup[]) =>
      [...rows].sort(
        (x, y) =>
          x.bucket.getTime() - y.bucket.getTime() || (x.customer_key < y.customer_key ? -1 : x.customer_key > y.customer_key ? 1 : 0),
      );
    const rollups = async () =>
      sorted(
        await api.knex("meter_rollups").where({ meter_id: tokens.id }).select("customer_key", "bucket", "events", "n", "sum", "min", "max"),
      );
    // The hourly totals at once; the daily per-customer rows once folded in.
    const totals = [
      { customer_key: "", bucket: at("2025-03-01T10:00:00Z"), events: 2, n: 2, sum: 7, min: 3, max: 4 },
      { customer_key: "", bucket: at("2025-03-01T11:00:00Z"), events: 1, n: 0, sum: 0, min: null, max: null },
    ];
    expect(await rollups()).toEqual(totals);
    // A fold takes the events below the oldest transaction still open: with other suites writing
    // meanwhile, it may take a second pass to reach these.
    await expect
      .poll(async () => (await foldUsage(api.knex), await rollups()), { timeout: 15_000, interval: 200 })
      .toEqual(
        sorted([
          { customer_key: alice.id, bucket: at("2025-03-01T00:00:00Z"), events: 2, n: 2, sum: 7, min: 3, max: 4 },
          { customer_key: "ext:bob", bucket: at("2025-03-01T00:00:00Z"), events: 1, n: 0, sum: 0, min: null, max: null },
          ...totals,
        ]),
      );
    const day = { startTimestamp: at("2025-03-01T00:00:00Z"), endTimestamp: at("2025-03-01T00:00:00Z"), interval: "day" as const };
    expect((await polar.meters.quantities({ id: meter.id, ...day })).total).toBe(3);
    expect((await polar.meters.quantities({ id: tokens.id, ...day })).total).toBe(7);
    // bob appears: his hour moves to his id.
    const bob = await polar.customers.create({ email: "bob@example.com", externalId: "bob" });
    expect(await api.knex("meter_rollups").where({ meter_id: tokens.id, customer_key: "ext:bob" }).count({ n: "*" }).first()).toEqual({
      n: 0,
    });
    expect(await api.knex("meter_rollups").where({ meter_id: tokens.id, customer_key: bob.id }).first("events")).toEqual({ events: 1 });
  });

  it("reads every system event the platform writes, with its metadata", async () => {
    const { org, polar, token } = await setup();
    const alice = await createCustomer(api.knex, org.id, { external_id: "alice" });
    const grant = { benefit_id: randomUUID(), benefit_grant_id: randomUUID(), benefit_type: "meter_credit" };
    const sub = { subscription_id: randomUUID() };
    const written: [string, Record<string, unknown>][] = [
      ["benefit.granted", grant],
      ["benefit.cycled", grant],
      ["benefit.revoked", grant],
      ["benefit.updated", grant],
      ["meter.credited", { meter_id: randomUUID(), units: 10, rollover: true }],
      ["meter.reset", { meter_id: randomUUID() }],
      ["subscription.cycled", sub],
      ["subscription.revoked", sub],
      ["subscription.product_updated", { ...sub, old_product_id: randomUUID(), new_product_id: randomUUID() }],
    ];
    await api.knex.transaction((trx) =>
      storeEvents(
        trx,
        org.id,
        written.map(([name, metadata], i) => ({
          name,
          metadata,
          source: "system" as const,
          timestamp: new Date(Date.parse("2025-03-01T00:00:00Z") + i * 1000),
          customerId: alice.id,
          externalCustomerId: "alice",
        })),
      ),
    );
    const events = await list(polar, { source: "system", sorting: ["timestamp"] });
    expect(events.map((e) => [e.name, e.source, e.customerId])).toEqual(written.map(([name]) => [name, "system", alice.id]));
    const byName = Object.fromEntries(events.map((e) => [e.name, e.metadata]));
    expect(byName["benefit.cycled"]).toEqual({
      benefitId: grant.benefit_id,
      benefitGrantId: grant.benefit_grant_id,
      benefitType: "meter_credit",
    });
    expect(byName["meter.credited"]).toMatchObject({ units: 10, rollover: true });
    expect(byName["subscription.product_updated"]).toMatchObject({ subscriptionId: sub.subscription_id });
    expect((await collectPages(await polar.events.listNames({ source: "system" }))).map((n) => n.name).sort()).toEqual(
      written.map(([name]) => name).sort(),
    );

    // 0.49.0 reads each event's label: a system event's type in words, a user event's its name.
    await polar.events.ingest({ events: [{ name: "api_call", customerId: alice.id, timestamp: at("2025-03-02T00:00:00Z") }] });
    const newer = api.client049(token);
    const labels = (await newer.events.list({ sorting: ["timestamp"], limit: 100 })).items.map((e) => [e.name, e.label]);
    expect(labels).toEqual([
      ["benefit.granted", "Benefit granted"],
      ["benefit.cycled", "Benefit cycled"],
      ["benefit.revoked", "Benefit revoked"],
      ["benefit.updated", "Benefit updated"],
      ["meter.credited", "Meter credited"],
      ["meter.reset", "Meter reset"],
      ["subscription.cycled", "Subscription cycled"],
      ["subscription.revoked", "Subscription revoked"],
      ["subscription.product_updated", "Subscription product updated"],
      ["api_call", "api_call"],
    ]);
    const names = await collectPages(await newer.events.listNames({ query: "api" }));
    expect(names.map((n) => [n.name, n.label])).toEqual([["api_call", "api_call"]]);
  });

  it("isolates organizations and checks scopes", async () => {
    const { org, polar } = await setup();
    const alice = await createCustomer(api.knex, org.id);
    await polar.events.ingest({ events: [{ name: "secret", customerId: alice.id }] });
    const [mine] = await list(polar, {});
    const other = await setup();
    await rejects(other.polar.events.get({ id: mine.id }), ResourceNotFound);
    await rejects(other.polar.events.get({ id: "not-a-uuid" }), ResourceNotFound);
    expect(await list(other.polar, {})).toEqual([]);
    expect(await list(other.polar, { organizationId: org.id })).toEqual([]);
    expect(await collectPages(await other.polar.events.listNames({}))).toEqual([]);
    await rejects(other.polar.events.ingest({ events: [{ name: "x", customerId: alice.id }] }), HTTPValidationError);
    const readOnly = await orgWithToken(api.knex, { scopes: ["events:read"] });
    expect(await list(api.client(readOnly.token), {})).toEqual([]);
    const denied = await rejects(api.client(readOnly.token).events.ingest({ events: [{ name: "x", externalCustomerId: "y" }] }), SDKError);
    expect(denied.statusCode).toBe(403);
    expect((await rejects(api.client("polar_oat_nope").events.list({}), SDKError)).statusCode).toBe(401);
  });
});
