// Meters through the official client: filter trees and aggregations (validated), every filter
// and sort key, paging, updates and archiving, and quantities computed from real events.
import { beforeAll, describe, expect, it } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import type { Meter } from "@polar-sh/sdk/models/components/meter.js";
import type { Filter } from "@polar-sh/sdk/models/components/filter.js";
import { HTTPValidationError } from "@polar-sh/sdk/models/errors/httpvalidationerror.js";
import { ResourceNotFound } from "@polar-sh/sdk/models/errors/resourcenotfound.js";
import { SDKError } from "@polar-sh/sdk/models/errors/sdkerror.js";
import { HTTPValidationError as HTTPValidationError049 } from "polar-sdk-049/models/errors/httpvalidationerror.js";
import {
  collectPages,
  createBenefit,
  createCustomer,
  createEvent,
  createMeter,
  orgWithToken,
  rejects,
  useTestApi,
} from "../harness/index.js";
import { meterQuantities } from "../../server/meters/quantities.js";

const api = useTestApi();

async function collect(polar: Polar, req: Parameters<Polar["meters"]["list"]>[0]): Promise<Meter[]> {
  return collectPages(await polar.meters.list(req));
}

const locs = (err: HTTPValidationError) => err.data$.detail?.map((d) => d.loc) ?? [];
const at = (s: string) => new Date(s);
const calls: Filter = { conjunction: "and", clauses: [{ property: "name", operator: "eq", value: "api_call" }] };

describe("meters", () => {
  let polar: Polar;
  let orgId: string;

  beforeAll(async () => {
    const { org, token } = await orgWithToken(api.knex);
    orgId = org.id;
    polar = api.client(token);
  });

  it("creates meters with nested filters and every aggregation, and reads them back", async () => {
    const filter: Filter = {
      conjunction: "or",
      clauses: [
        { property: "name", operator: "eq", value: "api_call" },
        {
          conjunction: "and",
          clauses: [
            { property: "metadata.tokens", operator: "gte", value: 10 },
            { property: "premium", operator: "ne", value: true },
          ],
        },
      ],
    };
    const m = await polar.meters.create({
      name: "Tokens",
      filter,
      aggregation: { func: "sum", property: "metadata.tokens" },
      metadata: { team: "ai" },
    });
    expect(m).toMatchObject({
      name: "Tokens",
      organizationId: orgId,
      metadata: { team: "ai" },
      aggregation: { func: "sum", property: "tokens" },
    });
    expect(m.archivedAt).toBeNull();
    expect(m.filter).toEqual({
      conjunction: "or",
      clauses: [
        { property: "name", operator: "eq", value: "api_call" },
        {
          conjunction: "and",
          clauses: [
            { property: "tokens", operator: "gte", value: 10 },
            { property: "premium", operator: "ne", value: true },
          ],
        },
      ],
    });
    expect(await polar.meters.get({ id: m.id })).toEqual(m);
    for (const aggregation of [
      { func: "count" as const },
      { func: "max" as const, property: "x" },
      { func: "min" as const, property: "x" },
      { func: "avg" as const, property: "x" },
      { func: "unique" as const, property: "user" },
    ]) {
      const made = await polar.meters.create({ name: `Agg ${aggregation.func}`, filter: calls, aggregation });
      expect(made.aggregation).toEqual(aggregation);
    }
    // A count aggregation may leave out its func (raw HTTP: the client always sends one).
    const res = await fetch(`${api.url}/v1/meters/`, {
      method: "POST",
      headers: { authorization: `Bearer ${(await orgWithToken(api.knex)).token}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Everything", filter: { conjunction: "and", clauses: [] }, aggregation: {} }),
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { aggregation: unknown }).aggregation).toEqual({ func: "count" });
  });

  it("keeps each meter's unit: scalar unless given, tokens, or a custom label and multiplier", async () => {
    const { token } = await orgWithToken(api.knex);
    const [older, newer] = [api.client(token), api.client049(token)];
    const base = { filter: calls, aggregation: { func: "count" as const } };
    // 0.34.17 knows no unit: its meters count scalar units.
    const plain = await older.meters.create({ name: "Calls", ...base });
    expect(await newer.meters.get({ id: plain.id })).toMatchObject({ unit: "scalar", customLabel: null, customMultiplier: null });
    const tokens = await newer.meters.create({ name: "Tokens", unit: "token", ...base });
    expect(tokens).toMatchObject({ unit: "token", customLabel: null, customMultiplier: null });
    const storage = await newer.meters.create({ name: "Storage", unit: "custom", customLabel: "gigabyte", ...base });
    expect(storage).toMatchObject({ unit: "custom", customLabel: "gigabyte", customMultiplier: 1 });

    // A custom unit needs its label; the other units take neither label nor multiplier.
    const refused = (p: Promise<unknown>) => rejects(p, HTTPValidationError049).then((e) => e.detail?.map((d) => d.loc.join(".")));
    expect(await refused(newer.meters.create({ name: "Requests", unit: "custom", ...base }))).toEqual(["body.custom_label"]);
    expect(await refused(newer.meters.create({ name: "Requests", unit: "token", customMultiplier: 1000, ...base }))).toEqual([
      "body.custom_multiplier",
    ]);
    expect(await refused(newer.meters.update({ id: plain.id, meterUpdate: { customLabel: "call" } }))).toEqual(["body.custom_label"]);
    const raw = await fetch(`${api.url}/v1/meters/${plain.id}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ unit: "custom", custom_label: "request", custom_multiplier: 0 }),
    });
    expect(raw.status).toBe(422);

    // Edited: to a custom unit shown per 1000 requests, and back, which clears the label.
    const custom = await newer.meters.update({
      id: plain.id,
      meterUpdate: { unit: "custom", customLabel: "request", customMultiplier: 1000 },
    });
    expect(custom).toMatchObject({ unit: "custom", customLabel: "request", customMultiplier: 1000 });
    expect(await newer.meters.update({ id: plain.id, meterUpdate: { customMultiplier: 100 } })).toMatchObject({
      customLabel: "request",
      customMultiplier: 100,
    });
    expect(await newer.meters.update({ id: plain.id, meterUpdate: { unit: "scalar" } })).toMatchObject({
      unit: "scalar",
      customLabel: null,
      customMultiplier: null,
    });
    // 0.34.17 still reads and updates it.
    expect((await older.meters.update({ id: tokens.id, meterUpdate: { name: "LLM tokens" } })).name).toBe("LLM tokens");
    expect((await newer.meters.get({ id: tokens.id })).unit).toBe("token");
  });

  it("rejects invalid filters and aggregations with 422", async () => {
    const cases: [Parameters<Polar["meters"]["create"]>[0], (string | number)[]][] = [
      [{ name: "ab", filter: calls, aggregation: { func: "count" } }, ["body", "name"]],
      [
        {
          name: "Big",
          filter: { conjunction: "and", clauses: [{ property: "n", operator: "eq", value: 3_000_000_000 }] },
          aggregation: { func: "count" },
        },
        ["body", "filter", "clauses", 0, "value"],
      ],
      [
        {
          name: "Empty prop",
          filter: { conjunction: "and", clauses: [{ property: "metadata.", operator: "eq", value: 1 }] },
          aggregation: { func: "count" },
        },
        ["body", "filter", "clauses", 0, "property"],
      ],
      [{ name: "No prop", filter: calls, aggregation: { func: "unique", property: "" } }, ["body", "aggregation", "property"]],
      [
        { name: "Foreign", filter: calls, aggregation: { func: "count" }, organizationId: "8a0f3b1e-0000-4000-8000-000000000000" },
        ["body", "organization_id"],
      ],
    ];
    for (const [body, loc] of cases) {
      const err = await rejects(polar.meters.create(body), HTTPValidationError);
      expect(locs(err), JSON.stringify(body)).toContainEqual(loc);
    }
    let deep: Filter = { conjunction: "and", clauses: [] };
    for (let i = 0; i < 11; i++) deep = { conjunction: "and", clauses: [deep] };
    await rejects(polar.meters.create({ name: "Deep", filter: deep, aggregation: { func: "count" } }), HTTPValidationError);

    const { token } = await orgWithToken(api.knex);
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const raw = async (body: unknown) => {
      const res = await fetch(`${api.url}/v1/meters/`, { method: "POST", headers, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as { detail: { loc: unknown[] }[] } };
    };
    for (const body of [
      { name: "Sum", filter: calls, aggregation: { func: "sum" } },
      {
        name: "Bad op",
        filter: { conjunction: "and", clauses: [{ property: "name", operator: "contains", value: "x" }] },
        aggregation: { func: "count" },
      },
      { name: "Bad conj", filter: { conjunction: "xor", clauses: [] }, aggregation: { func: "count" } },
      {
        name: "Float",
        filter: { conjunction: "and", clauses: [{ property: "n", operator: "eq", value: 1.5 }] },
        aggregation: { func: "count" },
      },
      { name: "Median", filter: calls, aggregation: { func: "median", property: "x" } },
      { filter: calls, aggregation: { func: "count" } },
    ]) {
      const r = await raw(body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.detail[0].loc[0]).toBe("body");
    }
  });

  it("lists with every filter, sort key and paging", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const c = api.client(token);
    const a = await c.meters.create({ name: "Storage GB", filter: calls, aggregation: { func: "count" }, metadata: { unit: "gb" } });
    const b = await c.meters.create({ name: "API calls", filter: calls, aggregation: { func: "count" }, metadata: { unit: "call" } });
    const d = await c.meters.create({ name: "Bandwidth", filter: calls, aggregation: { func: "count" }, metadata: { unit: "gb" } });
    await c.meters.update({ id: d.id, meterUpdate: { isArchived: true } });
    const names = (ms: Meter[]) => ms.map((m) => m.name);
    expect(names(await collect(c, {}))).toEqual(["API calls", "Bandwidth", "Storage GB"]);
    expect(names(await collect(c, { sorting: ["-name"] }))).toEqual(["Storage GB", "Bandwidth", "API calls"]);
    expect(names(await collect(c, { sorting: ["created_at"] }))).toEqual(["Storage GB", "API calls", "Bandwidth"]);
    expect(names(await collect(c, { sorting: ["-created_at"] }))).toEqual(["Bandwidth", "API calls", "Storage GB"]);
    expect(names(await collect(c, { organizationId: org.id }))).toHaveLength(3);
    expect(names(await collect(c, { organizationId: orgId }))).toEqual([]);
    expect(names(await collect(c, { query: "stor" }))).toEqual(["Storage GB"]);
    expect(names(await collect(c, { isArchived: true }))).toEqual(["Bandwidth"]);
    expect(names(await collect(c, { isArchived: false }))).toEqual(["API calls", "Storage GB"]);
    expect(names(await collect(c, { metadata: { unit: "gb" } }))).toEqual(["Bandwidth", "Storage GB"]);
    expect(names(await collect(c, { metadata: { unit: ["gb", "call"] } }))).toHaveLength(3);
    const page1 = await c.meters.list({ limit: 2 });
    expect(page1.result.items.map((m) => m.id)).toEqual([b.id, d.id]);
    expect(page1.result.pagination).toEqual({ totalCount: 3, maxPage: 2 });
    const page2 = await c.meters.list({ limit: 2, page: 2 });
    expect(page2.result.items.map((m) => m.id)).toEqual([a.id]);
  });

  it("updates fields, archives and unarchives, refusing to archive a meter in use", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const c = api.client(token);
    const m = await c.meters.create({ name: "Seats", filter: calls, aggregation: { func: "count" } });
    const u = await c.meters.update({
      id: m.id,
      meterUpdate: {
        name: "Active seats",
        filter: { conjunction: "or", clauses: [] },
        aggregation: { func: "max", property: "seats" },
        metadata: { v: 2 },
      },
    });
    expect(u).toMatchObject({
      name: "Active seats",
      filter: { conjunction: "or", clauses: [] },
      aggregation: { func: "max", property: "seats" },
      metadata: { v: 2 },
    });
    expect(u.modifiedAt).toBeInstanceOf(Date);
    const archived = await c.meters.update({ id: m.id, meterUpdate: { isArchived: true } });
    expect(archived.archivedAt).toBeInstanceOf(Date);
    const again = await c.meters.update({ id: m.id, meterUpdate: { isArchived: true } });
    expect(again.archivedAt).toEqual(archived.archivedAt);
    const back = await c.meters.update({ id: m.id, meterUpdate: { isArchived: false } });
    expect(back.archivedAt).toBeNull();
    await rejects(c.meters.update({ id: m.id, meterUpdate: { name: "no" } }), HTTPValidationError);

    const product = await c.products.create({
      name: "Usage plan",
      recurringInterval: "month",
      prices: [{ amountType: "free" }, { amountType: "metered_unit", meterId: m.id, unitAmount: 1 }],
    });
    const inUse = await rejects(c.meters.update({ id: m.id, meterUpdate: { isArchived: true } }), HTTPValidationError);
    expect(locs(inUse)).toEqual([["body", "is_archived"]]);
    await c.products.update({ id: product.id, productUpdate: { isArchived: true } });
    await createBenefit(api.knex, org.id, {
      type: "meter_credit",
      properties: JSON.stringify({ meter_id: m.id, units: 10, rollover: false }),
    });
    const credited = await rejects(c.meters.update({ id: m.id, meterUpdate: { isArchived: true } }), HTTPValidationError);
    expect(credited.data$.detail?.[0].msg).toMatch(/benefits/);
  });

  describe("quantities", () => {
    let c: Polar;
    let org: { id: string };

    beforeAll(async () => {
      const made = await orgWithToken(api.knex);
      org = made.org;
      c = api.client(made.token);
      const ev = (timestamp: string, metadata: Record<string, unknown>, name = "api_call") =>
        createEvent(api.knex, org.id, { timestamp: at(timestamp), name, metadata });
      await ev("2025-02-28T23:59:59Z", { tokens: 7 });
      await ev("2025-03-01T10:00:00Z", { tokens: 10, model: "gpt-4" });
      await ev("2025-03-01T15:00:00Z", { tokens: 5, model: "gpt-3.5" });
      await ev("2025-03-02T09:00:00Z", { tokens: 20, model: "gpt-4" });
      await ev("2025-03-02T10:00:00Z", { tokens: "many" });
      await ev("2025-03-02T11:00:00Z", { tokens: 50 }, "other_event");
      await ev("2025-03-03T23:00:00Z", { tokens: 1, model: "claude" });
      await ev("2025-03-04T01:00:00Z", { tokens: 100 });
      // Another organization's identical event never counts.
      const other = await orgWithToken(api.knex);
      await createEvent(api.knex, other.org.id, { timestamp: at("2025-03-01T10:00:00Z"), metadata: { tokens: 1000 } });
    });

    const range = { startTimestamp: at("2025-03-01T00:00:00Z"), endTimestamp: at("2025-03-03T00:00:00Z"), interval: "day" as const };
    const quantities = async (
      aggregation: Parameters<Polar["meters"]["create"]>[0]["aggregation"],
      filter: Filter = calls,
      extra: object = {},
    ) => {
      const m = await c.meters.create({ name: `Meter ${JSON.stringify(aggregation)}`, filter, aggregation });
      return c.meters.quantities({ id: m.id, ...range, ...extra });
    };

    it("aggregates per day with every function", async () => {
      const count = await quantities({ func: "count" });
      expect(count.quantities).toEqual([
        { timestamp: at("2025-03-01T00:00:00Z"), quantity: 2 },
        { timestamp: at("2025-03-02T00:00:00Z"), quantity: 2 },
        { timestamp: at("2025-03-03T00:00:00Z"), quantity: 1 },
      ]);
      expect(count.total).toBe(5);
      const sum = await quantities({ func: "sum", property: "tokens" });
      expect(sum.quantities.map((q) => q.quantity)).toEqual([15, 20, 1]);
      expect(sum.total).toBe(36);
      const max = await quantities({ func: "max", property: "metadata.tokens" });
      expect(max.quantities.map((q) => q.quantity)).toEqual([10, 20, 1]);
      expect(max.total).toBe(20);
      const min = await quantities({ func: "min", property: "tokens" });
      expect(min.quantities.map((q) => q.quantity)).toEqual([5, 20, 1]);
      expect(min.total).toBe(1);
      const avg = await quantities({ func: "avg", property: "tokens" });
      expect(avg.quantities.map((q) => q.quantity)).toEqual([7.5, 20, 1]);
      expect(avg.total).toBe(9);
      const unique = await quantities({ func: "unique", property: "model" });
      expect(unique.quantities.map((q) => q.quantity)).toEqual([2, 1, 1]);
      expect(unique.total).toBe(3);
      const all = await quantities({ func: "count" }, { conjunction: "and", clauses: [] });
      expect(all.quantities.map((q) => q.quantity)).toEqual([2, 3, 1]);
    });

    it("buckets by hour, week, month and year", async () => {
      const m = await c.meters.create({ name: "Calls", filter: calls, aggregation: { func: "count" } });
      const hours = await c.meters.quantities({
        id: m.id,
        startTimestamp: at("2025-03-01T09:00:00Z"),
        endTimestamp: at("2025-03-01T16:00:00Z"),
        interval: "hour",
      });
      expect(hours.quantities).toHaveLength(8);
      expect(hours.quantities.filter((q) => q.quantity > 0).map((q) => q.timestamp.toISOString())).toEqual([
        "2025-03-01T10:00:00.000Z",
        "2025-03-01T15:00:00.000Z",
      ]);
      const months = await c.meters.quantities({
        id: m.id,
        startTimestamp: at("2025-01-15T00:00:00Z"),
        endTimestamp: at("2025-04-20T00:00:00Z"),
        interval: "month",
      });
      expect(months.quantities.map((q) => q.quantity)).toEqual([0, 1, 6, 0]);
      expect(months.total).toBe(7);
      const weeks = await c.meters.quantities({
        id: m.id,
        startTimestamp: at("2025-02-24T00:00:00Z"),
        endTimestamp: at("2025-03-03T00:00:00Z"),
        interval: "week",
      });
      expect(weeks.quantities.map((q) => q.quantity)).toEqual([5, 2]);
      const years = await c.meters.quantities({
        id: m.id,
        startTimestamp: at("2024-06-01T00:00:00Z"),
        endTimestamp: at("2025-06-01T00:00:00Z"),
        interval: "year",
      });
      expect(years.quantities.map((q) => q.quantity)).toEqual([0, 7]);
    });

    it("applies every operator, nesting, columns and metadata prefixes", async () => {
      const { org: o, token } = await orgWithToken(api.knex);
      const oc = api.client(token);
      for (let n = 1; n <= 5; n++) {
        const tag = ["alpha", "beta", "alphabet", "gamma", undefined][n - 1];
        await createEvent(api.knex, o.id, {
          name: "op",
          timestamp: at(`2025-03-01T${String(10 + n).padStart(2, "0")}:00:00Z`),
          metadata: { n, flag: n % 2 === 1, ...(tag ? { tag } : {}) },
        });
      }
      await createEvent(api.knex, o.id, { name: "op", source: "system", timestamp: at("2025-03-01T20:00:00Z"), metadata: { n: 99 } });
      const m = await oc.meters.create({ name: "Ops", filter: calls, aggregation: { func: "count" } });
      const day = { startTimestamp: at("2025-03-01T00:00:00Z"), endTimestamp: at("2025-03-01T00:00:00Z"), interval: "day" as const };
      const clause = (property: string, operator: string, value: string | number | boolean) =>
        ({ property, operator, value }) as Filter["clauses"][number];
      const userOps = (...clauses: Filter["clauses"]): Filter => ({
        conjunction: "and",
        clauses: [clause("name", "eq", "op"), clause("source", "eq", "user"), ...clauses],
      });
      const cases: [Filter, number][] = [
        [userOps(clause("n", "eq", 3)), 1],
        [userOps(clause("n", "ne", 3)), 4],
        [userOps(clause("n", "gt", 3)), 2],
        [userOps(clause("n", "gte", 3)), 3],
        [userOps(clause("n", "lt", 3)), 2],
        [userOps(clause("n", "lte", 3)), 3],
        [userOps(clause("tag", "like", "alpha")), 2],
        [userOps(clause("tag", "not_like", "alpha")), 2],
        [userOps(clause("tag", "eq", "beta")), 1],
        [userOps(clause("flag", "eq", true)), 3],
        [userOps(clause("flag", "ne", true)), 2],
        [userOps(clause("n", "eq", "3")), 0],
        [userOps(clause("tag", "eq", 1)), 0],
        [userOps(clause("metadata.n", "eq", 2)), 1],
        [userOps(clause("timestamp", "gte", Date.parse("2025-03-01T13:00:00Z") / 1000)), 3],
        [userOps(clause("timestamp", "eq", "yesterday")), 0],
        [{ conjunction: "and", clauses: [clause("name", "like", "o")] }, 6],
        [{ conjunction: "and", clauses: [clause("source", "eq", "system")] }, 1],
        [{ conjunction: "or", clauses: [clause("n", "eq", 1), clause("n", "eq", 5)] }, 2],
        [
          userOps({
            conjunction: "or",
            clauses: [clause("tag", "eq", "alpha"), { conjunction: "and", clauses: [clause("n", "gt", 3), clause("flag", "eq", true)] }],
          }),
          2,
        ],
        [{ conjunction: "or", clauses: [] }, 6],
      ];
      for (const [filter, expected] of cases) {
        await oc.meters.update({ id: m.id, meterUpdate: { filter } });
        const q = await oc.meters.quantities({ id: m.id, ...day });
        expect(q.total, JSON.stringify(filter)).toBe(expected);
      }
    });

    it("computes per customer first, then over the customers, for 0.49.0 (customer_aggregation_function)", async () => {
      const { org: o, token } = await orgWithToken(api.knex);
      const alice = await createCustomer(api.knex, o.id, { external_id: "ext-alice" });
      const bob = await createCustomer(api.knex, o.id);
      const ev = (day: string, who: Record<string, string>, tokens: number) =>
        createEvent(api.knex, o.id, Object.assign({ timestamp: at(`2025-03-0${day}T12:00:00Z`), metadata: { tokens } }, who));
      // Day 1: Alice 3 events (one by her external id, not attributed yet), Bob 1. Day 2: Bob 2, someone not created yet 1.
      await ev("1", { customer_id: alice.id }, 1);
      await ev("1", { customer_id: alice.id }, 2);
      await ev("1", { external_customer_id: "ext-alice" }, 3);
      await ev("1", { customer_id: bob.id }, 10);
      await ev("2", { customer_id: bob.id }, 5);
      await ev("2", { customer_id: bob.id }, 5);
      await ev("2", { external_customer_id: "ext-nobody" }, 1);
      const newer = api.client049(token);
      const per = async (
        aggregation: Parameters<typeof newer.meters.create>[0]["aggregation"],
        fn: "count" | "sum" | "max" | "min" | "avg" | "unique",
      ) => {
        const m = await newer.meters.create({ name: `Per customer ${JSON.stringify(aggregation)}`, filter: calls, aggregation });
        const q = await newer.meters.quantities({
          id: m.id,
          startTimestamp: at("2025-03-01T00:00:00Z"),
          endTimestamp: at("2025-03-02T00:00:00Z"),
          interval: "day",
          customerAggregationFunction: fn,
        });
        return { buckets: q.quantities.map((x) => x.quantity), total: q.total };
      };
      // A count meter: Alice 3 and Bob 1 on day 1, Bob 2 and the newcomer 1 on day 2; the total sums the days.
      expect(await per({ func: "count" }, "max")).toEqual({ buckets: [3, 2], total: 5 });
      expect(await per({ func: "count" }, "min")).toEqual({ buckets: [1, 1], total: 2 });
      expect(await per({ func: "count" }, "avg")).toEqual({ buckets: [2, 1.5], total: 3.5 });
      expect(await per({ func: "count" }, "sum")).toEqual({ buckets: [4, 3], total: 7 });
      expect(await per({ func: "count" }, "count")).toEqual({ buckets: [2, 2], total: 4 });
      expect(await per({ func: "count" }, "unique")).toEqual({ buckets: [2, 2], total: 4 });
      // A sum meter: Alice 6 and Bob 10, then Bob 10 and 1.
      expect(await per({ func: "sum", property: "tokens" }, "max")).toEqual({ buckets: [10, 10], total: 20 });
      expect(await per({ func: "sum", property: "tokens" }, "unique")).toEqual({ buckets: [2, 2], total: 4 });
      // A max meter's total is the days' max; an avg meter's, the average over all the events.
      expect(await per({ func: "max", property: "tokens" }, "min")).toEqual({ buckets: [3, 1], total: 3 });
      const avg = await per({ func: "avg", property: "tokens" }, "max");
      expect(avg.buckets).toEqual([10, 5]);
      expect(avg.total).toBeCloseTo(27 / 7);
      // Without the function: across all the events.
      const m = await newer.meters.create({ name: "All calls", filter: calls, aggregation: { func: "count" } });
      expect(
        (
          await newer.meters.quantities({
            id: m.id,
            startTimestamp: at("2025-03-01T00:00:00Z"),
            endTimestamp: at("2025-03-02T00:00:00Z"),
            interval: "day",
          })
        ).total,
      ).toBe(7);
    });

    it("filters by customer, external customer and event metadata", async () => {
      const { org: o, token } = await orgWithToken(api.knex);
      const oc = api.client(token);
      const alice = await createCustomer(api.knex, o.id, { external_id: "ext-alice" });
      const bob = await createCustomer(api.knex, o.id);
      const ts = at("2025-03-01T12:00:00Z");
      await createEvent(api.knex, o.id, { timestamp: ts, customer_id: alice.id, metadata: { plan: "pro" } });
      await createEvent(api.knex, o.id, { timestamp: ts, external_customer_id: "ext-alice", metadata: { plan: "free" } });
      await createEvent(api.knex, o.id, { timestamp: ts, customer_id: bob.id, metadata: { plan: "pro" } });
      await createEvent(api.knex, o.id, { timestamp: ts, external_customer_id: "ext-nobody" });
      const m = await oc.meters.create({ name: "Calls", filter: calls, aggregation: { func: "count" } });
      const day = { startTimestamp: ts, endTimestamp: ts, interval: "day" as const };
      const total = async (extra: object) => (await oc.meters.quantities({ id: m.id, ...day, ...extra })).total;
      expect(await total({})).toBe(4);
      expect(await total({ customerId: alice.id })).toBe(2);
      expect(await total({ customerId: [alice.id, bob.id] })).toBe(3);
      expect(await total({ externalCustomerId: "ext-alice" })).toBe(2);
      expect(await total({ externalCustomerId: ["ext-alice", "ext-nobody"] })).toBe(3);
      expect(await total({ metadata: { plan: "pro" } })).toBe(2);
      expect(await total({ customerId: alice.id, metadata: { plan: "free" } })).toBe(1);
      expect((await rejects(total({ customerId: "not-a-uuid" }), HTTPValidationError)).detail?.[0].loc).toEqual([
        "query",
        "customer_id",
        0,
      ]);
    });

    it("does not depend on the database session's time zone (daylight saving included)", async () => {
      const { org: o } = await orgWithToken(api.knex);
      for (const day of ["08", "09", "10", "11"]) await createEvent(api.knex, o.id, { timestamp: at(`2025-03-${day}T12:00:00Z`) });
      const meter = await createMeter(api.knex, o.id);
      const caller = { kind: "organization" as const, organizationId: o.id, tokenId: "t", scopes: new Set<string>() };
      const q = await api.knex.transaction(async (trx) => {
        await trx.raw("set local timezone = 'America/New_York'");
        return meterQuantities(trx, caller, meter.id, {
          start_timestamp: "2025-03-08T00:00:00Z",
          end_timestamp: "2025-03-11T00:00:00Z",
          interval: "day",
        });
      });
      expect(q.quantities).toEqual(["08", "09", "10", "11"].map((d) => ({ timestamp: `2025-03-${d}T00:00:00.000Z`, quantity: 1 })));
      expect(q.total).toBe(4);
    });

    it("refuses ranges that are reversed, too early or too long for the interval, and foreign meters", async () => {
      const m = await c.meters.create({ name: "Calls", filter: calls, aggregation: { func: "count" } });
      const bad = [
        { startTimestamp: at("2025-03-05T00:00:00Z"), endTimestamp: at("2025-03-01T00:00:00Z"), interval: "day" as const },
        { startTimestamp: at("2025-03-01T00:00:00Z"), endTimestamp: at("2025-03-09T00:00:00Z"), interval: "hour" as const },
        { startTimestamp: at("2022-12-31T00:00:00Z"), endTimestamp: at("2023-01-02T00:00:00Z"), interval: "day" as const },
      ];
      for (const r of bad) {
        const err = await rejects(c.meters.quantities({ id: m.id, ...r }), HTTPValidationError);
        expect(err.data$.detail?.[0].loc[0]).toBe("query");
      }
      const headers = { authorization: `Bearer ${(await orgWithToken(api.knex)).token}` };
      const res = await fetch(
        `${api.url}/v1/meters/${m.id}/quantities?start_timestamp=2025-03-01T00:00:00Z&end_timestamp=2025-03-02T00:00:00Z&interval=day`,
        { headers },
      );
      expect(res.status).toBe(404);
      const missing = await fetch(`${api.url}/v1/meters/${m.id}/quantities?start_timestamp=2025-03-01T00:00:00Z&interval=day`, { headers });
      expect(missing.status).toBe(422);
      const badInterval = await fetch(
        `${api.url}/v1/meters/${m.id}/quantities?start_timestamp=2025-03-01T00:00:00Z&end_timestamp=2025-03-02T00:00:00Z&interval=minute`,
        { headers },
      );
      expect(badInterval.status).toBe(422);
    });
  });

  it("isolates organizations: 404 for foreign and unknown ids, 401 and 403 for tokens", async () => {
    const other = await orgWithToken(api.knex);
    const foreign = await api.client(other.token).meters.create({ name: "Secret", filter: calls, aggregation: { func: "count" } });
    await rejects(polar.meters.get({ id: foreign.id }), ResourceNotFound);
    await rejects(polar.meters.get({ id: "8a0f3b1e-0000-4000-8000-000000000000" }), ResourceNotFound);
    await rejects(polar.meters.update({ id: foreign.id, meterUpdate: { name: "Hijacked" } }), ResourceNotFound);
    await rejects(
      polar.meters.quantities({
        id: foreign.id,
        startTimestamp: at("2025-03-01T00:00:00Z"),
        endTimestamp: at("2025-03-02T00:00:00Z"),
        interval: "day",
      }),
      ResourceNotFound,
    );
    expect((await api.knex("meters").where({ id: foreign.id }).first()).name).toBe("Secret");
    expect((await collect(polar, {})).map((m) => m.id)).not.toContain(foreign.id);
    expect((await rejects(api.client("polar_oat_nope").meters.list({}), SDKError)).statusCode).toBe(401);
    const readOnly = await orgWithToken(api.knex, { scopes: ["meters:read"] });
    expect((await api.client(readOnly.token).meters.list({})).result.items).toEqual([]);
    expect(
      (await rejects(api.client(readOnly.token).meters.create({ name: "Nope", filter: calls, aggregation: { func: "count" } }), SDKError))
        .statusCode,
    ).toBe(403);
  });
});
