// Customer meters through the official client, merchant and portal: created by the customer's first
// event, credit or metered subscription; consumed and credited units and the balance of the current
// window (since the last meter.reset); every filter and sort key; organization and customer isolation.
import { describe, expect, it } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import { ResourceNotFound } from "@polar-sh/sdk/models/errors/resourcenotfound.js";
import { SDKError } from "@polar-sh/sdk/models/errors/sdkerror.js";
import { storeEvents } from "../../server/events/store.js";
import { foldUsage } from "../../server/meters/fold.js";
import { collectPages, createCustomer, createCustomerSessionToken, orgWithToken, rejects, useTestApi } from "../harness/index.js";

const api = useTestApi();
const at = (s: string) => new Date(s);

/** A system event as the platform writes it (a credit, a reset). */
async function system(
  orgId: string,
  customerId: string,
  name: "meter.credited" | "meter.reset",
  timestamp: string,
  metadata: Record<string, unknown>,
) {
  await api.knex.transaction((trx) =>
    storeEvents(trx, orgId, [{ name, source: "system", timestamp: at(timestamp), customerId, externalCustomerId: null, metadata }]),
  );
}

async function world() {
  const { org, token } = await orgWithToken(api.knex);
  const polar: Polar = api.client(token);
  const alice = await createCustomer(api.knex, org.id, { name: "Alice", external_id: "alice" });
  const bob = await createCustomer(api.knex, org.id, { name: "Bob" });
  const calls = await polar.meters.create({
    name: "Calls",
    filter: { conjunction: "and", clauses: [{ property: "name", operator: "eq", value: "call" }] },
    aggregation: { func: "count" },
  });
  const tokens = await polar.meters.create({
    name: "Tokens",
    filter: { conjunction: "and", clauses: [{ property: "name", operator: "eq", value: "call" }] },
    aggregation: { func: "sum", property: "tokens" },
  });
  const models = await polar.meters.create({
    name: "Models",
    filter: { conjunction: "and", clauses: [{ property: "name", operator: "eq", value: "call" }] },
    aggregation: { func: "unique", property: "model" },
  });
  return { org, token, polar, alice, bob, calls, tokens, models };
}

describe("customer meters", () => {
  it("reads consumed, credited and balance of the current window", async () => {
    const w = await world();
    await w.polar.events.ingest({
      events: [
        { name: "call", customerId: w.alice.id, timestamp: at("2025-03-01T10:00:00Z"), metadata: { tokens: 100, model: "a" } },
        { name: "call", externalCustomerId: "alice", timestamp: at("2025-03-01T10:30:00Z"), metadata: { tokens: 50, model: "b" } },
        { name: "call", customerId: w.bob.id, timestamp: at("2025-03-01T11:00:00Z"), metadata: { tokens: 7, model: "a" } },
        { name: "other", customerId: w.bob.id, timestamp: at("2025-03-01T11:00:00Z") },
      ],
    });
    await system(w.org.id, w.alice.id, "meter.credited", "2025-03-01T09:00:00Z", { meter_id: w.calls.id, units: 10, rollover: false });
    // The customers' meters of their usage appear once the worker folds the events in.
    await foldUsage(api.knex);
    const all = await collectPages(await w.polar.customerMeters.list({ limit: 100 }));
    const of = (customerId: string, meterId: string) => all.find((m) => m.customerId === customerId && m.meterId === meterId);
    expect(all).toHaveLength(6);
    expect(of(w.alice.id, w.calls.id)).toMatchObject({
      consumedUnits: 2,
      creditedUnits: 10,
      balance: 8,
      customer: { id: w.alice.id },
      meter: { id: w.calls.id, name: "Calls" },
    });
    expect(of(w.alice.id, w.tokens.id)).toMatchObject({ consumedUnits: 150, creditedUnits: 0, balance: -150 });
    expect(of(w.alice.id, w.models.id)).toMatchObject({ consumedUnits: 2 });
    expect(of(w.bob.id, w.tokens.id)).toMatchObject({ consumedUnits: 7 });
    const one = of(w.alice.id, w.calls.id)!;
    expect(await w.polar.customerMeters.get({ id: one.id })).toEqual(one);

    // A reset starts a new window: earlier usage and credits no longer count.
    await system(w.org.id, w.alice.id, "meter.reset", "2025-03-01T10:15:00Z", { meter_id: w.calls.id });
    expect(await w.polar.customerMeters.get({ id: one.id })).toMatchObject({ consumedUnits: 1, creditedUnits: 0, balance: -1 });
    await system(w.org.id, w.alice.id, "meter.credited", "2025-03-01T12:00:00Z", { meter_id: w.calls.id, units: 5, rollover: true });
    await w.polar.events.ingest({ events: [{ name: "call", customerId: w.alice.id, timestamp: at("2025-03-02T10:00:00Z") }] });
    expect(await w.polar.customerMeters.get({ id: one.id })).toMatchObject({ consumedUnits: 2, creditedUnits: 5, balance: 3 });
    // 0.49.0 reads the same meter with its customer and the meter's unit; so does the portal.
    await api.client049(w.token).meters.update({ id: w.tokens.id, meterUpdate: { unit: "token" } });
    const newer = await api.client049(w.token).customerMeters.get({ id: of(w.alice.id, w.tokens.id)!.id });
    expect(newer).toMatchObject({
      consumedUnits: 150,
      customer: { id: w.alice.id, type: "individual", billingName: "Alice" },
      meter: { unit: "token" },
    });
    const session = await createCustomerSessionToken(api.knex, w.alice.id);
    const portal = await fetch(`${api.url}/v1/customer-portal/meters/${newer.id}`, { headers: { authorization: `Bearer ${session}` } });
    expect((await portal.json()).meter).toMatchObject({ id: w.tokens.id, unit: "token", custom_label: null, custom_multiplier: null });
    // The customer's state lists the same meters.
    const state = await w.polar.customers.getState({ id: w.alice.id });
    expect(state.activeMeters.map((m) => [m.meterId, m.consumedUnits, m.creditedUnits, m.balance]).sort()).toEqual(
      [
        [w.calls.id, 2, 5, 3],
        [w.tokens.id, 150, 0, -150],
        [w.models.id, 2, 0, -2],
      ].sort(),
    );
  });

  it("lists with every filter and sort key, and pages", async () => {
    const w = await world();
    await w.polar.events.ingest({
      events: [
        ...Array.from({ length: 3 }, () => ({
          name: "call",
          customerId: w.alice.id,
          timestamp: at("2025-03-01T10:00:00Z"),
          metadata: { tokens: 1 },
        })),
        { name: "call", customerId: w.bob.id, timestamp: at("2025-03-01T10:00:00Z"), metadata: { tokens: 40 } },
      ],
    });
    await foldUsage(api.knex);
    const list = async (req: Parameters<Polar["customerMeters"]["list"]>[0]) =>
      (await collectPages(await w.polar.customerMeters.list(req))).map((m) => `${m.customer.name}/${m.meter.name}`);
    expect(await list({ customerId: w.bob.id, sorting: ["meter_name"] })).toEqual(["Bob/Calls", "Bob/Models", "Bob/Tokens"]);
    expect(await list({ externalCustomerId: "alice", sorting: ["-meter_name"] })).toEqual(["Alice/Tokens", "Alice/Models", "Alice/Calls"]);
    expect(await list({ meterId: [w.calls.id, w.tokens.id], sorting: ["customer_name", "meter_name"] })).toEqual([
      "Alice/Calls",
      "Alice/Tokens",
      "Bob/Calls",
      "Bob/Tokens",
    ]);
    expect(await list({ organizationId: w.org.id })).toHaveLength(6);
    expect(await list({ organizationId: "8a0f3b1e-0000-4000-8000-000000000000" })).toEqual([]);
    expect(await list({ meterId: w.tokens.id, sorting: ["-consumed_units"] })).toEqual(["Bob/Tokens", "Alice/Tokens"]);
    expect(await list({ meterId: w.tokens.id, sorting: ["balance"] })).toEqual(["Bob/Tokens", "Alice/Tokens"]);
    expect(await list({ meterId: w.calls.id, sorting: ["consumed_units"] })).toEqual(["Bob/Calls", "Alice/Calls"]);
    expect(await list({ meterId: w.calls.id, sorting: ["credited_units", "-customer_name"] })).toEqual(["Bob/Calls", "Alice/Calls"]);
    expect((await list({ sorting: ["created_at"] })).length).toBe(6);
    expect((await list({ sorting: ["-modified_at", "customer_id", "meter_id"] })).length).toBe(6);
    const page = await w.polar.customerMeters.list({ limit: 4, page: 2, sorting: ["-consumed_units", "meter_name", "customer_name"] });
    expect(page.result.pagination).toEqual({ totalCount: 6, maxPage: 2 });
    expect(page.result.items).toHaveLength(2);
    const sqlPage = await w.polar.customerMeters.list({ limit: 4, page: 2, sorting: ["meter_name", "customer_name"] });
    expect(sqlPage.result.items.map((m) => `${m.customer.name}/${m.meter.name}`)).toEqual(["Alice/Tokens", "Bob/Tokens"]);
  });

  it("shows the portal customer its own meters only", async () => {
    const w = await world();
    await w.polar.events.ingest({
      events: [
        { name: "call", customerId: w.alice.id, metadata: { tokens: 3, model: "x" } },
        { name: "call", customerId: w.bob.id },
      ],
    });
    await foldUsage(api.knex);
    const session = { customerSession: await createCustomerSessionToken(api.knex, w.alice.id) };
    const portal = api.client("unused").customerPortal.customerMeters;
    const mine = await collectPages(await portal.list(session, { sorting: ["meter_name"] }));
    expect(mine.map((m) => [m.meter.name, m.consumedUnits])).toEqual([
      ["Calls", 1],
      ["Models", 1],
      ["Tokens", 3],
    ]);
    expect(mine.every((m) => m.customerId === w.alice.id)).toBe(true);
    expect(await portal.get(session, { id: mine[0].id })).toEqual(mine[0]);
    expect((await collectPages(await portal.list(session, { query: "tok" }))).map((m) => m.meter.name)).toEqual(["Tokens"]);
    expect((await collectPages(await portal.list(session, { meterId: w.calls.id }))).map((m) => m.meter.name)).toEqual(["Calls"]);
    expect(
      (await collectPages(await portal.list(session, { sorting: ["-consumed_units", "meter_name"] }))).map((m) => m.meter.name),
    ).toEqual(["Tokens", "Calls", "Models"]);
    const bobs = (await collectPages(await w.polar.customerMeters.list({ customerId: w.bob.id })))[0];
    await rejects(portal.get(session, { id: bobs.id }), ResourceNotFound);
    const bad = await rejects(portal.get({ customerSession: "polar_cst_nope" }, { id: bobs.id }), SDKError);
    expect(bad.statusCode).toBe(401);
  });

  it("isolates organizations and checks scopes", async () => {
    const w = await world();
    await w.polar.events.ingest({ events: [{ name: "call", customerId: w.alice.id }] });
    await foldUsage(api.knex);
    const [mine] = await collectPages(await w.polar.customerMeters.list({ meterId: w.calls.id }));
    const other = await orgWithToken(api.knex);
    const stranger = api.client(other.token);
    await rejects(stranger.customerMeters.get({ id: mine.id }), ResourceNotFound);
    await rejects(stranger.customerMeters.get({ id: "nope" }), ResourceNotFound);
    expect(await collectPages(await stranger.customerMeters.list({ customerId: w.alice.id }))).toEqual([]);
    const noScope = await orgWithToken(api.knex, { scopes: ["meters:read"] });
    expect((await rejects(api.client(noScope.token).customerMeters.list({}), SDKError)).statusCode).toBe(403);
    const res = await fetch(`${api.url}/v1/customer-meters/?sorting=nope`, { headers: { authorization: `Bearer ${w.token}` } });
    expect(res.status).toBe(422);
  });
});
