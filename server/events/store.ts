// The one way events are written, user and system alike, in the caller's transaction under the
// organization's usage lock: the rows (known external ids skipped), meters' hourly totals, name
// statistics, credits and resets, and customers' first user event. Batches without external ids
// are COPYed when meters can be evaluated here (meters/evaluate.ts); otherwise one statement does
// it all. Statements: meters/events-repository.ts. Folding per customer: meters/fold.ts.
import type { Knex } from "knex";
import { metadataKeys } from "../meters/filter.js";
import type { MeterRow } from "../meters/models.js";
import { ofOrganizationById } from "../meters/repository.js";
import { matches, NotEvaluable, numericValue } from "../meters/evaluate.js";
import { hasRollups } from "../meters/rollups.js";
import { lockUsageShared } from "../meters/rollups-repository.js";
import { addTotals, copyEvents, insertEvents, type Totals } from "../meters/events-repository.js";
import { lowerFirstUserEventAt } from "../customers/repository.js";

export interface NewEvent {
  timestamp: Date;
  name: string;
  source: "user" | "system";
  customerId: string | null;
  externalCustomerId: string | null;
  externalId?: string | null;
  metadata: Record<string, unknown>;
}

/** System events that credit or reset a customer's meter (metadata.meter_id names it). */
const METER_SYSTEM_EVENTS = ["meter.credited", "meter.reset"];

/** Batches at least this large and without external ids are written with COPY (no conflict to check). */
const COPY_FROM = 50;
const HOUR = 3_600_000;

/** The batch's meter totals per hour and name statistics, added up here (null: the SQL must decide). */
function totalsOf(meters: MeterRow[], events: NewEvent[]): Totals | null {
  const rollups = new Map<string, Totals["rollups"][number]>();
  const names = new Map<string, Totals["names"][number]>();
  try {
    for (const meter of meters.filter(hasRollups)) {
      for (const e of events) {
        if (!matches(meter.filter, e)) continue;
        const hour = new Date(Math.floor(e.timestamp.getTime() / HOUR) * HOUR).toISOString();
        const key = `${meter.id} ${hour}`;
        const r = rollups.get(key) ?? { meter_id: meter.id, bucket: hour, events: 0, n: 0, sum: 0, min: null, max: null };
        r.events++;
        const v = numericValue(meter.aggregation, e);
        if (v !== null) {
          r.n++;
          r.sum += v;
          r.min = r.min === null ? v : Math.min(r.min, v);
          r.max = r.max === null ? v : Math.max(r.max, v);
        }
        rollups.set(key, r);
      }
    }
  } catch (err) {
    if (err instanceof NotEvaluable) return null;
    throw err;
  }
  for (const e of events) {
    const key = `${e.name}\u0000${e.source}`;
    const at = e.timestamp.toISOString();
    const n = names.get(key) ?? { name: e.name, source: e.source, occurrences: 0, first_seen: at, last_seen: at };
    n.occurrences++;
    if (at < n.first_seen) n.first_seen = at;
    if (at > n.last_seen) n.last_seen = at;
    names.set(key, n);
  }
  return { rollups: [...rollups.values()], names: [...names.values()] };
}

/** Per customer, the earliest of these user events (every one of them stored). */
function firstUserEvents(events: NewEvent[]): { customer_id: string; first: Date }[] {
  const firsts = new Map<string, Date>();
  for (const e of events) {
    if (e.source !== "user" || e.customerId === null) continue;
    const known = firsts.get(e.customerId);
    if (!known || e.timestamp < known) firsts.set(e.customerId, e.timestamp);
  }
  return [...firsts].map(([customer_id, first]) => ({ customer_id, first }));
}

/** Stores the events; answers how many were inserted (those with an external id seen before are not). */
export async function storeEvents(trx: Knex.Transaction, organizationId: string, events: NewEvent[]): Promise<number> {
  if (events.length === 0) return 0;
  await lockUsageShared(trx, organizationId);
  const meters = await ofOrganizationById(trx, organizationId);
  // Without external ids nothing can conflict: a COPY writes the rows (as fast as the table takes
  // them), and the same statement below adds the batch itself to the totals.
  const copied = events.length >= COPY_FROM && events.every((e) => !e.externalId);
  if (copied) {
    await copyEvents(trx, organizationId, events);
    await lowerFirstUserEventAt(trx, firstUserEvents(events));
  }
  const meterEvents = events.some((e) => e.source === "system" && METER_SYSTEM_EVENTS.includes(e.name));
  if (copied && !meterEvents) {
    const totals = totalsOf(meters, events);
    if (totals) {
      await addTotals(trx, organizationId, totals);
      return events.length;
    }
  }
  // Copied rows are already stored: the statement below gets only what the totals, the name
  // statistics and the credits read of them (the metadata keys the meters name), less to parse.
  const keys = copied
    ? [...new Set([...meters.flatMap((m) => metadataKeys(m.filter, m.aggregation)), ...(meterEvents ? ["meter_id"] : [])])]
    : null;
  const pick = (metadata: Record<string, unknown>) =>
    keys ? Object.fromEntries(keys.filter((k) => k in metadata).map((k) => [k, metadata[k]])) : metadata;
  const input = JSON.stringify(
    events.map((e) => ({
      timestamp: e.timestamp.toISOString(),
      name: e.name,
      source: e.source,
      customer_id: copied && !meterEvents ? null : e.customerId,
      external_customer_id: copied ? null : e.externalCustomerId,
      external_id: e.externalId ?? null,
      metadata: pick(e.metadata),
    })),
  );
  const { inserted, firsts } = await insertEvents(trx, organizationId, input, {
    copied,
    rollupMeters: meters.filter(hasRollups),
    meterEvents: meterEvents ? METER_SYSTEM_EVENTS : null,
  });
  // Copied rows lowered theirs above; otherwise only the rows inserted count (not a skipped duplicate).
  if (!copied) await lowerFirstUserEventAt(trx, firsts);
  return inserted;
}
