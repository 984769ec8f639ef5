// A customer's usage of a meter over a window: consumed (the meter's aggregation over the
// customer's events), credited (meter.credited units) and the balance. The window starts at the
// last meter.reset (and not before a subscription's period) and ends at `until` or is open. Whole
// UTC days come from the daily rollups plus unfolded events (fold.ts), partial days from the
// events, so the cost does not grow with the window's events.
import type { Knex } from "knex";
import { unitsTimesAmount } from "../kit/money.js";
import { resetsAndCredits } from "./events-repository.js";
import type { Aggregation } from "./filter.js";
import type { MeterRow } from "./models.js";
import { externalKey, hasRollups } from "./rollups.js";
import { consumptionParts, type ConsumptionKey } from "./rollups-repository.js";

export interface UsageRequest {
  meter: MeterRow;
  customer: { id: string; external_id: string | null };
  /** Usage at or after this instant only (a subscription period's start); null: the whole window. */
  from: Date | null;
  /** Exclusive end; null: open (everything from the window's start on). */
  until: Date | null;
}

export interface Usage {
  /** Where the window starts: the last meter.reset at or before `until`, else null. */
  windowStart: Date | null;
  consumed: number;
  /** meter.credited units in the window before `until` (revocations credit negative units). */
  credited: number;
  /** The part of `credited` given with rollover. */
  rolloverCredited: number;
}

const DAY = 86_400_000;
const floorDay = (d: Date) => new Date(Math.floor(d.getTime() / DAY) * DAY);
const ceilDay = (d: Date) => new Date(Math.ceil(d.getTime() / DAY) * DAY);
const iso = (d: Date | null, open: "-infinity" | "infinity") => (d ? d.toISOString() : open);

interface Parts {
  events: number;
  n: number;
  sum: number;
  min: number | null;
  max: number | null;
}

/** The aggregation over the union of two sets of events, from each set's parts. */
function combine(a: Aggregation, x: Parts, y: Parts): number {
  switch (a.func) {
    case "count":
      return x.events + y.events;
    case "sum":
      return x.sum + y.sum;
    case "max": {
      const m = [x.max, y.max].filter((v): v is number => v !== null);
      return m.length ? Math.max(...m) : 0;
    }
    case "min": {
      const m = [x.min, y.min].filter((v): v is number => v !== null);
      return m.length ? Math.min(...m) : 0;
    }
    case "avg":
      return x.n + y.n > 0 ? (x.sum + y.sum) / (x.n + y.n) : 0;
    default:
      throw new Error("unique is counted from the events");
  }
}

/** Windows and credits of every request, from the customers' system events (one statement). */
async function windows(db: Knex, requests: UsageRequest[]): Promise<{ start: Date | null; credited: number; rollover: number }[]> {
  const keys = requests.map((r, i) => ({ i, customer_id: r.customer.id, meter_id: r.meter.id, until: r.until?.toISOString() ?? null }));
  const rows = await resetsAndCredits(db, keys);
  const out = requests.map(() => ({ start: null as Date | null, credited: 0, rollover: 0 }));
  for (const row of rows) {
    out[row.i] = {
      start: row.last_reset ? new Date(row.last_reset) : null,
      credited: Number(row.credited),
      rollover: Number(row.rollover),
    };
  }
  return out;
}

/** How one window is read: whole UTC days from the rollups, the partial days at its edges from the events. */
function plan(lo: Date | null, hi: Date | null, rollups: boolean) {
  const none = { from: "infinity", to: "infinity" };
  if (!rollups) return { rollups: none, edges: [{ from: iso(lo, "-infinity"), to: iso(hi, "infinity") }, none] };
  const h0 = lo ? ceilDay(lo) : null;
  const h1 = hi ? floorDay(hi) : null;
  if (h0 && h1 && h0.getTime() >= h1.getTime()) {
    return { rollups: none, edges: [{ from: iso(lo, "-infinity"), to: iso(hi, "infinity") }, none] };
  }
  return {
    rollups: { from: iso(h0, "-infinity"), to: iso(h1, "infinity") },
    edges: [lo ? { from: lo.toISOString(), to: h0!.toISOString() } : none, hi ? { from: h1!.toISOString(), to: hi.toISOString() } : none],
  };
}

/** Consumption of the requests of one meter (one statement). */
async function consumption(
  db: Knex,
  meter: MeterRow,
  requests: { i: number; request: UsageRequest; lo: Date | null }[],
): Promise<Map<number, number>> {
  const rollups = hasRollups(meter);
  const keys = requests.map(({ i, request, lo }): ConsumptionKey => {
    const p = plan(lo, request.until, rollups);
    return {
      i,
      customer_id: request.customer.id,
      external_id: request.customer.external_id,
      keys: [request.customer.id, ...(request.customer.external_id !== null ? [externalKey(request.customer.external_id)] : [])],
      r_from: p.rollups.from,
      r_to: p.rollups.to,
      a_from: p.edges[0].from,
      a_to: p.edges[0].to,
      b_from: p.edges[1].from,
      b_to: p.edges[1].to,
    };
  });
  const rows = await consumptionParts(db, meter, keys);
  const out = new Map<number, number>();
  for (const r of rows) {
    if (meter.aggregation.func === "unique") {
      out.set(Number(r.i), Number(r.uniq ?? 0));
      continue;
    }
    const ro: Parts = { events: Number(r.r_events), n: Number(r.r_n), sum: Number(r.r_sum), min: r.r_min, max: r.r_max };
    const ed: Parts = { events: Number(r.e_events), n: Number(r.e_n), sum: Number(r.e_sum), min: r.e_min, max: r.e_max };
    out.set(Number(r.i), combine(meter.aggregation, ro, ed));
  }
  return out;
}

/** The usage of every request: one statement for the windows and credits, one per meter for consumption. */
export async function computeUsage(db: Knex, requests: UsageRequest[]): Promise<Usage[]> {
  if (requests.length === 0) return [];
  const w = await windows(db, requests);
  const byMeter = new Map<string, { meter: MeterRow; items: { i: number; request: UsageRequest; lo: Date | null }[] }>();
  requests.forEach((request, i) => {
    const starts = [w[i].start, request.from].filter((d): d is Date => d !== null);
    const lo = starts.length ? new Date(Math.max(...starts.map((d) => d.getTime()))) : null;
    const group = byMeter.get(request.meter.id) ?? { meter: request.meter, items: [] };
    group.items.push({ i, request, lo });
    byMeter.set(request.meter.id, group);
  });
  const consumed = new Map<number, number>();
  for (const { meter, items } of byMeter.values()) {
    for (const [i, v] of await consumption(db, meter, items)) consumed.set(i, v);
  }
  return requests.map((_, i) => ({
    windowStart: w[i].start,
    consumed: consumed.get(i) ?? 0,
    credited: w[i].credited,
    rolloverCredited: w[i].rollover,
  }));
}

export interface MeteredPrice {
  unit_amount: string | null;
  cap_amount: number | null;
}

/** What a metered price bills for a usage: consumed units beyond the credits, times the unit amount, capped. */
export function meteredCharge(usage: Pick<Usage, "consumed" | "credited">, price: MeteredPrice): { billedUnits: number; amount: number } {
  const billedUnits = Math.max(0, usage.consumed - Math.max(0, usage.credited));
  const amount = unitsTimesAmount(billedUnits, price.unit_amount ?? "0");
  return {
    billedUnits,
    amount: price.cap_amount !== null && price.cap_amount !== undefined ? Math.min(amount, Number(price.cap_amount)) : amount,
  };
}
