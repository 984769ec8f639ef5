// Meter quantities in the caller's time zone: daylight-saving days of 23 and 25 hours, half-hour
// zones, and a property test comparing every aggregation, interval and customer filter (read from
// the rollups or from the events) with a plain recomputation over random events.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import type { Meter } from "@polar-sh/sdk/models/components/meter.js";
import { bucketStart, createCustomer, orgWithToken, useTestApi } from "../harness/index.js";

const api = useTestApi();

interface Quantities {
  quantities: { timestamp: string; quantity: number }[];
  total: number;
}

/** GET …/quantities with the `timezone` extension parameter (the official client does not send it). */
async function quantities(
  token: string,
  meterId: string,
  params: Record<string, string | string[]>,
): Promise<{ status: number; body: Quantities & { detail?: { loc: unknown[] }[] } }> {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) for (const x of Array.isArray(v) ? v : [v]) qs.append(k, x);
  const res = await fetch(`${api.url}/v1/meters/${meterId}/quantities?${qs}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as Quantities };
}

const calls = { conjunction: "and" as const, clauses: [{ property: "name", operator: "eq" as const, value: "call" }] };

describe("meter quantities in a time zone", () => {
  it("buckets days at local midnight across daylight saving (23- and 25-hour days)", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const polar = api.client(token);
    const alice = await createCustomer(api.knex, org.id);
    const meter = await polar.meters.create({ name: "Calls", filter: calls, aggregation: { func: "count" } });
    const times = [
      "2025-03-09T04:30:00Z", // Mar 8, 23:30 EST
      "2025-03-09T05:30:00Z", // Mar 9, 00:30 EST
      "2025-03-10T03:30:00Z", // Mar 9, 23:30 EDT (the 23-hour day)
      "2025-03-10T04:30:00Z", // Mar 10, 00:30 EDT
      "2025-11-02T04:30:00Z", // Nov 2, 00:30 EDT
      "2025-11-03T04:30:00Z", // Nov 2, 23:30 EST (the 25-hour day)
      "2025-11-03T05:30:00Z", // Nov 3, 00:30 EST
    ];
    await polar.events.ingest({ events: times.map((t) => ({ name: "call", customerId: alice.id, timestamp: new Date(t) })) });
    // From local midnight, a step of one local day: the third step is 23 hours after the second.
    const spring = await quantities(token, meter.id, {
      start_timestamp: "2025-03-08T05:00:00Z",
      end_timestamp: "2025-03-10T12:00:00Z",
      interval: "day",
      timezone: "America/New_York",
    });
    expect(spring.body.quantities).toEqual([
      { timestamp: "2025-03-08T05:00:00.000Z", quantity: 1 },
      { timestamp: "2025-03-09T05:00:00.000Z", quantity: 2 },
      { timestamp: "2025-03-10T04:00:00.000Z", quantity: 1 },
    ]);
    expect(spring.body.total).toBe(4);
    const fall = await quantities(token, meter.id, {
      start_timestamp: "2025-11-02T04:00:00Z",
      end_timestamp: "2025-11-03T05:00:00Z",
      interval: "day",
      timezone: "America/New_York",
    });
    expect(fall.body.quantities.map((q) => q.quantity)).toEqual([2, 1]);
    // The 25-hour day in hours: 25 buckets, one of them the second 01:00.
    const hours = await quantities(token, meter.id, {
      start_timestamp: "2025-11-02T04:00:00Z",
      end_timestamp: "2025-11-03T04:00:00Z",
      interval: "hour",
      timezone: "America/New_York",
    });
    expect(hours.body.quantities).toHaveLength(25);
    expect(hours.body.total).toBe(2);
    // In UTC (the default) the same events fall on other days.
    const utc = await polar.meters.quantities({
      id: meter.id,
      startTimestamp: new Date("2025-03-08T00:00:00Z"),
      endTimestamp: new Date("2025-03-10T00:00:00Z"),
      interval: "day",
    });
    expect(utc.quantities.map((q) => q.quantity)).toEqual([0, 2, 2]);
  });

  it("follows half-hour zones (read from the events) and refuses unknown zones", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const polar = api.client(token);
    const alice = await createCustomer(api.knex, org.id);
    const meter = await polar.meters.create({ name: "Calls", filter: calls, aggregation: { func: "sum", property: "n" } });
    await polar.events.ingest({
      events: [
        { name: "call", customerId: alice.id, timestamp: new Date("2025-03-01T18:29:00Z"), metadata: { n: 1 } }, // 23:59 IST
        { name: "call", customerId: alice.id, timestamp: new Date("2025-03-01T18:31:00Z"), metadata: { n: 10 } }, // 00:01 IST
      ],
    });
    const india = await quantities(token, meter.id, {
      start_timestamp: "2025-02-28T18:30:00Z",
      end_timestamp: "2025-03-02T00:00:00Z",
      interval: "day",
      timezone: "Asia/Kolkata",
    });
    expect(india.body.quantities).toEqual([
      { timestamp: "2025-02-28T18:30:00.000Z", quantity: 1 },
      { timestamp: "2025-03-01T18:30:00.000Z", quantity: 10 },
    ]);
    const bad = await quantities(token, meter.id, {
      start_timestamp: "2025-03-01T00:00:00Z",
      end_timestamp: "2025-03-02T00:00:00Z",
      interval: "day",
      timezone: "Mars/Olympus",
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail?.[0].loc).toEqual(["query", "timezone"]);
  });

  describe("against a plain recomputation", () => {
    const ZONES = ["UTC", "America/New_York", "Asia/Kolkata", "Europe/Berlin"] as const;
    const bucket = (tz: string, unit: "hour" | "day" | "week" | "month", t: number) => String(bucketStart(tz, unit, t));
    type Agg = { func: "count" } | { func: "sum" | "max" | "min" | "avg" | "unique"; property: string };
    function aggregate(agg: Agg, values: (number | string | undefined)[]): number {
      if (agg.func === "count") return values.length;
      if (agg.func === "unique") return new Set(values.filter((v) => v !== undefined).map((v) => JSON.stringify(v))).size;
      const nums = values.filter((v): v is number => typeof v === "number");
      if (nums.length === 0) return 0;
      if (agg.func === "sum") return nums.reduce((a, b) => a + b, 0);
      if (agg.func === "max") return Math.max(...nums);
      if (agg.func === "min") return Math.min(...nums);
      return nums.reduce((a, b) => a + b, 0) / nums.length;
    }

    const START = Date.parse("2025-03-05T00:00:00Z");
    const event = fc.record({
      offsetMinutes: fc.integer({ min: 0, max: 10 * 24 * 60 }),
      name: fc.constantFrom("call", "call", "call", "other"),
      who: fc.constantFrom("alice", "bob", "ext:carol", "ext:alice"),
      v: fc.option(fc.oneof(fc.integer({ min: -5, max: 50 }), fc.constantFrom("x", "y")), { nil: undefined }),
    });

    it("matches for every aggregation, interval, zone and customer filter", async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(event, { minLength: 0, maxLength: 40 }),
          fc.integer({ min: 0, max: 40 }),
          fc.constantFrom<Agg>(
            { func: "count" },
            { func: "sum", property: "v" },
            { func: "max", property: "v" },
            { func: "min", property: "v" },
            { func: "avg", property: "v" },
            { func: "unique", property: "v" },
          ),
          fc.constantFrom(...ZONES),
          fc.constantFrom("hour" as const, "day" as const, "week" as const, "month" as const),
          fc.constantFrom("none", "alice", "ext:carol", "both"),
          async (events, split, agg, tz, unit, who) => {
            const { org, token } = await orgWithToken(api.knex);
            const polar: Polar = api.client(token);
            const alice = await createCustomer(api.knex, org.id, { external_id: "alice" });
            const bob = await createCustomer(api.knex, org.id);
            const toIngest = events.map((e) => ({
              name: e.name,
              timestamp: new Date(START + e.offsetMinutes * 60_000),
              ...(e.who === "alice"
                ? { customerId: alice.id }
                : e.who === "bob"
                  ? { customerId: bob.id }
                  : { externalCustomerId: e.who.slice(4) }),
              metadata: e.v === undefined ? ({} as Record<string, number | string>) : { v: e.v },
            }));
            // Some events before the meter exists (its rollups are built from them), the rest after.
            const cut = Math.min(split, toIngest.length);
            if (cut > 0) await polar.events.ingest({ events: toIngest.slice(0, cut) });
            const meter: Meter = await polar.meters.create({ name: "Meter", filter: calls, aggregation: agg });
            if (cut < toIngest.length) await polar.events.ingest({ events: toIngest.slice(cut) });

            const end = new Date(START + (unit === "hour" ? 6 : 10) * 86_400_000);
            const params: Record<string, string | string[]> = {
              start_timestamp: new Date(START).toISOString(),
              end_timestamp: end.toISOString(),
              interval: unit,
              timezone: tz,
            };
            if (who === "alice" || who === "both") params.customer_id = alice.id;
            if (who === "ext:carol" || who === "both") params.external_customer_id = who === "both" ? ["carol", "alice"] : "carol";
            const res = await quantities(token, meter.id, params);
            expect(res.status).toBe(200);

            const wanted = (e: (typeof events)[number]) => {
              if (e.name !== "call") return false;
              const isAlice = e.who === "alice" || e.who === "ext:alice";
              if (who === "alice") return isAlice;
              if (who === "ext:carol") return e.who === "ext:carol";
              if (who === "both") return isAlice;
              return true;
            };
            const keys = new Set(res.body.quantities.map((q) => bucket(tz, unit, Date.parse(q.timestamp))));
            const inRange = events.filter((e) => wanted(e) && keys.has(bucket(tz, unit, START + e.offsetMinutes * 60_000)));
            for (const q of res.body.quantities) {
              const key = bucket(tz, unit, Date.parse(q.timestamp));
              const values = inRange.filter((e) => bucket(tz, unit, START + e.offsetMinutes * 60_000) === key).map((e) => e.v);
              expect(q.quantity, `${tz} ${unit} ${q.timestamp}`).toBeCloseTo(aggregate(agg, values), 9);
            }
            expect(res.body.total).toBeCloseTo(
              aggregate(
                agg,
                inRange.map((e) => e.v),
              ),
              9,
            );
          },
        ),
        { numRuns: 30 },
      );
    }, 240_000);
  });
});
