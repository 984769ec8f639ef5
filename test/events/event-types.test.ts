// Event types through the 0.49 client: every name ingestion has seen with its statistics, a user
// name's type made when it is first counted, its label updated (and kept when more events come)
// and shown on its events and event name, the filters and sort keys, another organization's type
// a 404, bad labels 422s, and the scopes.
import { describe, expect, it } from "vitest";
import type { Polar } from "polar-sdk-049";
import type { EventTypeWithStats } from "polar-sdk-049/models/components/eventtypewithstats.js";
import type { EventTypesListRequest } from "polar-sdk-049/models/operations/eventtypeslist.js";
import { HTTPValidationError } from "polar-sdk-049/models/errors/httpvalidationerror.js";
import { SDKError } from "polar-sdk-049/models/errors/sdkerror.js";
import { createCustomer, createEvent, orgWithToken, rejects, useTestApi } from "../harness/index.js";

const api = useTestApi();
const at = (s: string) => new Date(s);

async function all(polar: Polar, req: EventTypesListRequest = {}): Promise<EventTypeWithStats[]> {
  const out: EventTypeWithStats[] = [];
  for await (const page of await polar.eventTypes.list(req)) out.push(...page.result.items);
  return out;
}

async function setup() {
  const { org, token } = await orgWithToken(api.knex);
  const polar = api.client049(token);
  const customer = await createCustomer(api.knex, org.id, { external_id: "ext-1" });
  await polar.events.ingest({
    events: [
      { name: "signup", externalCustomerId: "ext-1", timestamp: at("2025-01-01T00:00:00Z"), metadata: { plan: "pro" } },
      { name: "signup", externalCustomerId: "ext-2", timestamp: at("2025-01-03T00:00:00Z") },
      { name: "api_call", customerId: customer.id, timestamp: at("2025-01-02T00:00:00Z") },
    ],
  });
  await createEvent(api.knex, org.id, {
    name: "benefit.granted",
    source: "system",
    customer_id: customer.id,
    timestamp: at("2025-01-04T00:00:00Z"),
  });
  return { org, token, polar, customer };
}

describe("event types", () => {
  it("lists the names ingestion has seen with their types and statistics, newest last seen first", async () => {
    const { org, polar } = await setup();
    const types = await all(polar);
    expect(types.map((t) => [t.name, t.label, t.source, t.occurrences])).toEqual([
      ["benefit.granted", "Benefit granted", "system", 1],
      ["signup", "signup", "user", 2],
      ["api_call", "api_call", "user", 1],
    ]);
    const [system, signup] = types;
    expect(system).toMatchObject({ id: null, createdAt: null, modifiedAt: null, organizationId: org.id });
    expect(signup).toMatchObject({ organizationId: org.id, modifiedAt: null, labelPropertySelector: null });
    expect(signup.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(signup.createdAt).toBeInstanceOf(Date);
    expect(signup.firstSeen).toEqual(at("2025-01-01T00:00:00Z"));
    expect(signup.lastSeen).toEqual(at("2025-01-03T00:00:00Z"));
  });

  it("updates a user name's label, which stays as more events of it come, and filters and sorts by it", async () => {
    const { polar, customer } = await setup();
    const signup = (await all(polar)).find((t) => t.name === "signup")!;
    const updated = await polar.eventTypes.update({
      id: signup.id!,
      eventTypeUpdate: { label: "  aardvark sign-ups  ", labelPropertySelector: "metadata.plan" },
    });
    expect(updated).toMatchObject({ id: signup.id, name: "signup", label: "aardvark sign-ups", labelPropertySelector: "metadata.plan" });
    expect(updated.modifiedAt).toBeInstanceOf(Date);
    await polar.events.ingest({ events: [{ name: "signup", externalCustomerId: "ext-3", timestamp: at("2025-01-05T00:00:00Z") }] });
    const after = await all(polar);
    expect(after[0]).toMatchObject({ id: signup.id, label: "aardvark sign-ups", labelPropertySelector: "metadata.plan", occurrences: 3 });

    const names = (list: EventTypeWithStats[]) => list.map((t) => t.name);
    expect(names(await all(polar, { query: "VARK" }))).toEqual(["signup"]);
    expect(names(await all(polar, { query: "GRANTED" }))).toEqual(["benefit.granted"]);
    expect(names(await all(polar, { query: "api_" }))).toEqual(["api_call"]);
    // By label, not by name (labels of one case, as collations order cases differently).
    expect(names(await all(polar, { source: "user", sorting: ["label"] }))).toEqual(["signup", "api_call"]);
    expect(names(await all(polar, { source: "user", sorting: ["-label"] }))).toEqual(["api_call", "signup"]);
    expect(names(await all(polar, { sorting: ["-occurrences", "name"] }))).toEqual(["signup", "api_call", "benefit.granted"]);
    expect(names(await all(polar, { sorting: ["first_seen"] }))).toEqual(["signup", "api_call", "benefit.granted"]);
    expect(names(await all(polar, { source: "user", sorting: ["name"] }))).toEqual(["api_call", "signup"]);
    expect(names(await all(polar, { source: "system" }))).toEqual(["benefit.granted"]);
    // A customer's names are counted from their events (by id or by external id).
    const mine = await all(polar, { customerId: customer.id, sorting: ["name"] });
    expect(mine.map((t) => [t.name, t.occurrences])).toEqual([
      ["api_call", 1],
      ["benefit.granted", 1],
      ["signup", 1],
    ]);
    expect(mine[2]).toMatchObject({ id: signup.id, label: "aardvark sign-ups" });
    expect(names(await all(polar, { externalCustomerId: "ext-2" }))).toEqual(["signup"]);
    expect(names(await all(polar, { rootEvents: true, sorting: ["name"] }))).toEqual(["api_call", "benefit.granted", "signup"]);
    expect(await all(polar, { parentId: signup.id })).toEqual([]);
    // Paging.
    const pages = [];
    for await (const page of await polar.eventTypes.list({ limit: 2, sorting: ["name"] })) pages.push(page.result);
    expect(pages.map((p) => p.items.map((t) => t.name))).toEqual([["api_call", "benefit.granted"], ["signup"]]);
    expect(pages[0].pagination).toEqual({ totalCount: 3, maxPage: 2 });

    // A blank selector clears it.
    const cleared = await polar.eventTypes.update({ id: signup.id!, eventTypeUpdate: { label: "Sign-up", labelPropertySelector: " " } });
    expect(cleared.labelPropertySelector).toBeNull();
  });

  it("labels the events and event names with their type's label, or the metadata its selector names", async () => {
    const { polar, token } = await setup();
    const signup = (await all(polar)).find((t) => t.name === "signup")!;
    await polar.eventTypes.update({ id: signup.id!, eventTypeUpdate: { label: "Sign-up", labelPropertySelector: "plan" } });
    const get = async (path: string) =>
      (
        (await (await fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
          items: { name: string; label: string }[];
        }
      ).items.map((e) => [e.name, e.label]);
    // the first signup has plan "pro" in its metadata, the second none; the others keep theirs
    expect(await get("/v1/events/?sorting=timestamp")).toEqual([
      ["signup", "pro"],
      ["api_call", "api_call"],
      ["signup", "Sign-up"],
      ["benefit.granted", "Benefit granted"],
    ]);
    expect(await get("/v1/events/names?sorting=name")).toEqual([
      ["api_call", "api_call"],
      ["benefit.granted", "Benefit granted"],
      ["signup", "Sign-up"],
    ]);
  });

  it("hides another organization's types and refuses bad labels and parameters", async () => {
    const mine = await setup();
    const theirs = await setup();
    const secret = (await all(theirs.polar)).find((t) => t.name === "signup")!;
    expect(await all(mine.polar, { organizationId: theirs.org.id })).toEqual([]);
    for (const id of [secret.id!, "5f1e1c52-8e3c-4a39-9d0c-3c0c7b1e0a11", "not-a-uuid"]) {
      const err = await rejects(mine.polar.eventTypes.update({ id, eventTypeUpdate: { label: "Mine" } }), SDKError);
      expect(err.statusCode).toBe(404);
    }
    const own = (await all(mine.polar)).find((t) => t.name === "signup")!;
    const loc = async (label: string, labelPropertySelector?: string) =>
      (await rejects(mine.polar.eventTypes.update({ id: own.id!, eventTypeUpdate: { label, labelPropertySelector } }), HTTPValidationError))
        .detail?.[0]?.loc;
    expect(await loc("")).toEqual(["body", "label"]);
    expect(await loc("   ")).toEqual(["body", "label"]);
    expect(await loc("x".repeat(129))).toEqual(["body", "label"]);
    expect(await loc("Fine", "y".repeat(257))).toEqual(["body", "label_property_selector"]);
    const badSort = await fetch(`${api.url}/v1/event-types/?sorting=-nothing`, { headers: { authorization: `Bearer ${mine.token}` } });
    expect(badSort.status).toBe(422);
    expect(((await badSort.json()) as { detail: { loc: unknown[] }[] }).detail[0].loc).toEqual(["query", "sorting", 0]);
    const badCustomer = await rejects(all(mine.polar, { customerId: "nope" }), HTTPValidationError);
    expect(badCustomer.detail?.[0]?.loc).toEqual(["query", "customer_id", 0]);
    expect((await all(theirs.polar)).find((t) => t.name === "signup")?.label).toBe("signup");
  });

  it("lists with events:read and updates with events:write only", async () => {
    const { org } = await setup();
    const reader = api.client049((await orgWithTokenFor(org.id, ["events:read"])).token);
    const [type] = await all(reader, { source: "user" });
    expect((await rejects(reader.eventTypes.update({ id: type.id!, eventTypeUpdate: { label: "No" } }), SDKError)).statusCode).toBe(403);
    const writer = api.client049((await orgWithTokenFor(org.id, ["events:write"])).token);
    expect((await writer.eventTypes.update({ id: type.id!, eventTypeUpdate: { label: "Yes" } })).label).toBe("Yes");
    const none = api.client049((await orgWithTokenFor(org.id, ["orders:read"])).token);
    expect((await rejects(all(none), SDKError)).statusCode).toBe(403);
  });
});

/** A token of `organizationId` with only these scopes. */
async function orgWithTokenFor(organizationId: string, scopes: string[]) {
  const { mintOrganizationToken } = await import("../../server/organization-access-tokens/service.js");
  return { token: await mintOrganizationToken(api.knex, organizationId, { scopes }) };
}
