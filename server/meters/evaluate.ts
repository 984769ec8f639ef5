// A meter's filter and aggregated value evaluated in TypeScript, exactly as filter.ts's SQL does,
// so batches ingested with COPY have their totals added up here instead of in the database.
// Where the database's answer depends on more than the values (collation, LIKE wildcards, numbers
// in exponent form), it says so and the caller falls back to SQL. A property test in test/meters
// checks both agree.
import { COLUMNS, isFilter, type Aggregation, type Filter, type FilterClause, type FilterValue } from "./filter.js";

export interface EventValues {
  timestamp: Date;
  name: string;
  source: string;
  metadata: Record<string, unknown>;
}

/** The answer could differ from the database's: use the SQL. */
export class NotEvaluable extends Error {}

const text = (v: FilterValue) => (typeof v === "boolean" ? (v ? "true" : "false") : String(v));

/** LIKE '%value%' as containment: only for values without the pattern's special characters. */
function contains(haystack: string, needle: string): boolean {
  if (/[%_\\]/.test(needle)) throw new NotEvaluable();
  return haystack.includes(needle);
}

function order<T extends number | boolean>(a: T, op: FilterClause["operator"], b: T): boolean {
  switch (op) {
    case "eq":
      return a === b;
    case "ne":
      return a !== b;
    case "gt":
      return a > b;
    case "gte":
      return a >= b;
    case "lt":
      return a < b;
    case "lte":
      return a <= b;
    default:
      throw new NotEvaluable();
  }
}

/** Text comparison: equality is the same everywhere, ordering is the collation's. */
function textCompare(a: string, op: FilterClause["operator"], b: string): boolean {
  if (op === "eq") return a === b;
  if (op === "ne") return a !== b;
  throw new NotEvaluable();
}

/** A number as PostgreSQL writes its jsonb text (the plain notation JSON.stringify uses for most). */
function numberText(n: number): string {
  const s = String(n);
  if (/e/i.test(s)) throw new NotEvaluable();
  return s;
}

const epochSeconds = (d: Date) => Math.round(d.getTime() / 1000);

function clause(c: FilterClause, e: EventValues): boolean {
  const column = COLUMNS[c.property];
  const like = c.operator === "like" || c.operator === "not_like";
  if (column) {
    if (typeof c.value !== column.type || typeof c.value === "boolean") return false;
    if (c.property === "timestamp") {
      const seconds = epochSeconds(e.timestamp);
      if (like) return contains(String(seconds), String(c.value)) === (c.operator === "like");
      return order(seconds, c.operator, c.value as number);
    }
    const value = c.property === "name" ? e.name : e.source;
    if (like) return contains(value, c.value as string) === (c.operator === "like");
    return textCompare(value, c.operator, c.value as string);
  }
  const v = e.metadata[c.property];
  if (v === undefined || v === null) return false;
  if (like) {
    const t = typeof v === "string" ? v : typeof v === "number" ? numberText(v) : typeof v === "boolean" ? (v ? "true" : "false") : null;
    if (t === null) throw new NotEvaluable();
    return contains(t, text(c.value)) === (c.operator === "like");
  }
  if (typeof v === "string") return textCompare(v, c.operator, text(c.value));
  if (typeof v === "number") {
    if (typeof c.value !== "number") return false;
    numberText(v);
    return order(v, c.operator, c.value);
  }
  if (typeof v === "boolean") return typeof c.value === "boolean" ? order(v, c.operator, c.value) : false;
  throw new NotEvaluable();
}

export function matches(f: Filter, e: EventValues): boolean {
  if (f.clauses.length === 0) return true;
  const results = f.clauses.map((c) => (isFilter(c) ? matches(c, e) : clause(c, e)));
  return f.conjunction === "and" ? results.every(Boolean) : results.some(Boolean);
}

/** The number an event adds to a sum / max / min / avg meter (null: none), as numericValueSql. */
export function numericValue(a: Aggregation, e: EventValues): number | null {
  if (a.func === "count" || a.func === "unique") return null;
  const column = COLUMNS[a.property];
  if (column) return column.type === "number" ? epochSeconds(e.timestamp) : null;
  const v = e.metadata[a.property];
  return typeof v === "number" ? v : null;
}
