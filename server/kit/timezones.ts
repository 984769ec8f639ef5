// Time buckets in the caller's time zone, shared by meter quantities and metrics. A day, week,
// month or year starts at local midnight (PostgreSQL's three-argument date_trunc, which follows
// daylight saving), and series step in local calendar units; hours are absolute hours (a 23- or
// 25-hour local day has 23 or 25 of them).
import type { Knex } from "knex";
import { timeZoneNames } from "./db.js";
import { invalid } from "./errors.js";

export type TimeUnit = "hour" | "day" | "week" | "month" | "year";

let known: Promise<Set<string>> | null = null;

/** The zone names PostgreSQL knows (read once per process; the list changes with its tzdata only). */
function zoneNames(db: Knex): Promise<Set<string>> {
  known ??= timeZoneNames(db)
    .then((names) => new Set(names))
    .catch((err: unknown) => {
      known = null;
      throw err;
    });
  return known;
}

/** A time zone name PostgreSQL knows, or a 422 at `loc`. */
export async function checkTimeZone(db: Knex, name: string | null | undefined, loc: (string | number)[]): Promise<string> {
  const tz = name ?? "UTC";
  if (!(await zoneNames(db)).has(tz)) throw invalid(loc, `Invalid time zone: ${tz}`, "value_error", tz);
  return tz;
}

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** The zone's UTC offset at an instant, in minutes (through the ICU data Node carries). */
export function offsetMinutes(tz: string, at: Date): number {
  let f = offsetFormats.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone: tz, timeZoneName: "longOffset" });
    offsetFormats.set(tz, f);
  }
  const name = f.formatToParts(at).find((p) => p.type === "timeZoneName")?.value ?? "GMT";
  const m = /GMT([+-])(\d{2}):?(\d{2})?/.exec(name);
  if (!m) return 0;
  return (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0));
}

/** An instant as the zone's wall time with its offset (`2026-01-01T01:00:00.000+01:00`); UTC as ISO's `Z`. */
export function zonedIso(tz: string, at: Date): string {
  if (tz === "UTC") return at.toISOString();
  const offset = offsetMinutes(tz, at);
  const wall = new Date(at.getTime() + offset * 60_000).toISOString().slice(0, 23);
  const abs = Math.abs(offset);
  return `${wall}${offset < 0 ? "-" : "+"}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

/**
 * Whether every bucket boundary between two instants falls on a whole UTC hour in this zone, so
 * that hourly rollups add up to the buckets exactly: true for UTC and the whole-hour zones, false
 * for +05:30, +05:45, Lord Howe's half-hour daylight saving and the like. Checked every 6 hours
 * across the range (offsets change at most a few times a year, and never twice in 6 hours).
 */
export function hourAligned(tz: string, from: Date, to: Date): boolean {
  if (tz === "UTC") return true;
  const step = 6 * 3_600_000;
  for (let t = from.getTime() - 86_400_000; t <= to.getTime() + 2 * 86_400_000; t += step) {
    if (offsetMinutes(tz, new Date(t)) % 60 !== 0) return false;
  }
  return true;
}

/**
 * A series of instants, one per bucket: from `start` by one unit while not past `end` (both
 * instants, as ISO strings), stepping in local calendar units for day and up.
 */
export function seriesSql(unit: TimeUnit, tz: string, start: string, end: string): { sql: string; bindings: unknown[] } {
  if (unit === "hour") {
    return { sql: "select generate_series(?::timestamptz, ?::timestamptz, '1 hour') as timestamp", bindings: [start, end] };
  }
  return {
    sql: `select generate_series(?::timestamptz at time zone ?, ?::timestamptz at time zone ?, '1 ${unit}'::interval) at time zone ? as timestamp`,
    bindings: [start, tz, end, tz, tz],
  };
}

/** A time zone name as an SQL literal (a name checkTimeZone accepted; quotes doubled all the same). */
export const zoneLiteral = (tz: string) => `'${tz.replace(/'/g, "''")}'`;

/**
 * `date_trunc` of a column by the unit in the zone, with the zone written into the expression, so
 * that a select list and its GROUP BY are the same expression.
 */
export const truncIn = (unit: TimeUnit, tz: string) => (column: string) => `date_trunc('${unit}', ${column}, ${zoneLiteral(tz)})`;

/** SQL of the instant one unit after a bucket start `expr` (a local unit for day and up). */
export function nextBucketSql(unit: TimeUnit, expr: string, tz: string): { sql: string; bindings: unknown[] } {
  if (unit === "hour") return { sql: `(${expr} + interval '1 hour')`, bindings: [] };
  return { sql: `((${expr} at time zone ?) + interval '1 ${unit}') at time zone ?`, bindings: [tz, tz] };
}
