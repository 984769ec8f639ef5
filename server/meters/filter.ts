// A meter's filter tree and aggregation: validation of what the contract cannot express, and SQL
// over `events` (property names are bound, never interpolated). As in Polar, `name`, `source` and
// `timestamp` (epoch seconds) are columns and any other property a metadata key (`metadata.`
// dropped); comparing with a value of another JSON type is false; `like` matches a substring.
// Which events are a customer's is events-repository.ts's.
import { invalid } from "../kit/errors.js";

export type Operator = "eq" | "ne" | "gt" | "gte" | "lt" | "lte" | "like" | "not_like";
export type FilterValue = string | number | boolean;
export interface FilterClause {
  property: string;
  operator: Operator;
  value: FilterValue;
}
export interface Filter {
  conjunction: "and" | "or";
  clauses: (FilterClause | Filter)[];
}
export type Aggregation =
  { func: "count" } | { func: "sum" | "max" | "min" | "avg"; property: string } | { func: "unique"; property: string };

const OPERATORS: readonly Operator[] = ["eq", "ne", "gt", "gte", "lt", "lte", "like", "not_like"];
const INT_MIN = -2_147_483_648;
const INT_MAX = 2_147_483_647;
/** Nesting deeper than this is refused: no meter needs it and it bounds the generated SQL. */
export const MAX_FILTER_DEPTH = 10;

const stripMetadataPrefix = (p: string) => (p.startsWith("metadata.") ? p.slice("metadata.".length) : p);

export function isFilter(node: unknown): node is Filter {
  return typeof node === "object" && node !== null && "conjunction" in node;
}

/** Checks the tree and returns it normalised (metadata prefixes dropped, extra keys gone). */
export function checkFilter(input: unknown, loc: (string | number)[], depth = 1): Filter {
  if (typeof input !== "object" || input === null || Array.isArray(input))
    throw invalid(loc, "Input should be a valid dictionary", "dict_type");
  const f = input as Record<string, unknown>;
  if (f.conjunction !== "and" && f.conjunction !== "or") throw invalid([...loc, "conjunction"], "Input should be 'and' or 'or'", "enum");
  if (!Array.isArray(f.clauses)) throw invalid([...loc, "clauses"], "Input should be a valid list", "list_type");
  if (depth > MAX_FILTER_DEPTH) throw invalid(loc, `Filters can be nested at most ${MAX_FILTER_DEPTH} levels deep.`);
  const clauses = f.clauses.map((c: unknown, i: number): FilterClause | Filter => {
    const at = [...loc, "clauses", i];
    if (isFilter(c)) return checkFilter(c, at, depth + 1);
    if (typeof c !== "object" || c === null) throw invalid(at, "Input should be a filter clause or a filter", "union_type");
    const clause = c as Record<string, unknown>;
    if (typeof clause.property !== "string" || stripMetadataPrefix(clause.property).length === 0) {
      throw invalid([...at, "property"], "String should have at least 1 character", "string_too_short");
    }
    if (!OPERATORS.includes(clause.operator as Operator))
      throw invalid([...at, "operator"], `Input should be one of ${OPERATORS.join(", ")}`, "enum");
    const v = clause.value;
    if (typeof v === "number") {
      if (!Number.isInteger(v)) throw invalid([...at, "value"], "Input should be a valid integer", "int_type");
      if (v < INT_MIN || v > INT_MAX) throw invalid([...at, "value"], `Input should be between ${INT_MIN} and ${INT_MAX}`, "int_range");
    } else if (typeof v !== "string" && typeof v !== "boolean") {
      throw invalid([...at, "value"], "Input should be a string, an integer or a boolean", "union_type");
    }
    return { property: stripMetadataPrefix(clause.property), operator: clause.operator as Operator, value: v as FilterValue };
  });
  return { conjunction: f.conjunction, clauses };
}

export function checkAggregation(input: unknown, loc: (string | number)[]): Aggregation {
  if (typeof input !== "object" || input === null || Array.isArray(input))
    throw invalid(loc, "Input should be a valid dictionary", "dict_type");
  const a = input as Record<string, unknown>;
  const func = a.func ?? "count";
  if (func === "count") return { func: "count" };
  if (!["sum", "max", "min", "avg", "unique"].includes(func as string)) {
    throw invalid([...loc, "func"], "Input should be 'count', 'sum', 'max', 'min', 'avg' or 'unique'", "enum");
  }
  if (typeof a.property !== "string" || stripMetadataPrefix(a.property).length === 0) {
    throw invalid([...loc, "property"], `A ${func as string} aggregation needs a property.`, "missing");
  }
  return { func: func as "sum", property: stripMetadataPrefix(a.property) };
}

export interface Sql {
  sql: string;
  bindings: unknown[];
}

// Event columns a clause may name, with the JS type of value that can match them.
export const COLUMNS: Record<string, { type: "string" | "number"; sql: string }> = {
  name: { type: "string", sql: "events.name" },
  source: { type: "string", sql: "events.source" },
  timestamp: { type: "number", sql: "extract(epoch from events.timestamp)::bigint" },
};

const COMPARATORS: Record<Exclude<Operator, "like" | "not_like">, string> = { eq: "=", ne: "<>", gt: ">", gte: ">=", lt: "<", lte: "<=" };

function compare(expr: string, op: Operator, value: unknown, cast = ""): Sql {
  if (op === "like" || op === "not_like")
    return { sql: `(${expr} ${op === "like" ? "like" : "not like"} ?)`, bindings: [`%${String(value)}%`] };
  return { sql: `(${expr} ${COMPARATORS[op]} ?${cast})`, bindings: [value] };
}

const jsonText = (v: FilterValue) => (typeof v === "boolean" ? (v ? "true" : "false") : String(v));

function clauseSql(c: FilterClause): Sql {
  const column = COLUMNS[c.property];
  if (column) {
    if (typeof c.value !== column.type || typeof c.value === "boolean") return { sql: "false", bindings: [] };
    // like / not_like read a number column (timestamp) as its text.
    const expr = (c.operator === "like" || c.operator === "not_like") && column.type === "number" ? `(${column.sql})::text` : column.sql;
    return compare(expr, c.operator, c.value);
  }
  const text = "(events.metadata ->> ?)";
  if (c.operator === "like" || c.operator === "not_like") {
    const s = compare(text, c.operator, jsonText(c.value));
    return { sql: `coalesce(${s.sql}, false)`, bindings: [c.property, ...s.bindings] };
  }
  const str = compare(text, c.operator, jsonText(c.value));
  const num = typeof c.value === "number" ? compare(`${text}::numeric`, c.operator, c.value, "::numeric") : null;
  const bool = typeof c.value === "boolean" ? compare(`${text}::boolean`, c.operator, c.value, "::boolean") : null;
  // CASE on the JSON type: a number is compared as a number, a boolean as a boolean.
  return {
    sql:
      `coalesce(case jsonb_typeof(events.metadata -> ?) ` +
      `when 'string' then ${str.sql} ` +
      `when 'number' then ${num ? num.sql : "false"} ` +
      `when 'boolean' then ${bool ? bool.sql : "false"} ` +
      `else false end, false)`,
    bindings: [
      c.property,
      c.property,
      ...str.bindings,
      ...(num ? [c.property, ...num.bindings] : []),
      ...(bool ? [c.property, ...bool.bindings] : []),
    ],
  };
}

export function filterSql(f: Filter): Sql {
  if (f.clauses.length === 0) return { sql: "true", bindings: [] };
  const parts = f.clauses.map((c) => (isFilter(c) ? filterSql(c) : clauseSql(c)));
  return {
    sql: `(${parts.map((p) => p.sql).join(f.conjunction === "and" ? " and " : " or ")})`,
    bindings: parts.flatMap((p) => p.bindings),
  };
}

/** The aggregate expression, and the row condition it needs (numeric property present). */
export function aggregationSql(a: Aggregation): { value: Sql; where: Sql } {
  switch (a.func) {
    case "count":
      return { value: { sql: "count(events.id)", bindings: [] }, where: { sql: "true", bindings: [] } };
    case "unique":
      return { value: { sql: "count(distinct events.metadata -> ?)", bindings: [a.property] }, where: { sql: "true", bindings: [] } };
    default: {
      const column = COLUMNS[a.property];
      if (column) {
        return {
          value: { sql: `${a.func}((${column.sql})::float8)`, bindings: [] },
          where: { sql: column.type === "number" ? "true" : "false", bindings: [] },
        };
      }
      return {
        value: { sql: `${a.func}((events.metadata ->> ?)::float8)`, bindings: [a.property] },
        where: { sql: "jsonb_typeof(events.metadata -> ?) = 'number'", bindings: [a.property] },
      };
    }
  }
}

/**
 * The number an event contributes to a sum / max / min / avg aggregation, null when its property
 * is missing or not a number (rollups keep these per hour; the aggregate functions skip nulls).
 * Null for count and unique, which need no value.
 */
export function numericValueSql(a: Aggregation): Sql {
  if (a.func === "count" || a.func === "unique") return { sql: "null::float8", bindings: [] };
  const column = COLUMNS[a.property];
  if (column) return column.type === "number" ? { sql: `(${column.sql})::float8`, bindings: [] } : { sql: "null::float8", bindings: [] };
  return {
    sql: "case when jsonb_typeof(events.metadata -> ?) = 'number' then (events.metadata ->> ?)::float8 end",
    bindings: [a.property, a.property],
  };
}

/** The metadata keys a meter reads (its filter's clauses and its aggregation's property). */
export function metadataKeys(filter: Filter, aggregation: Aggregation): string[] {
  const keys = new Set<string>();
  const walk = (f: Filter) => {
    for (const c of f.clauses) {
      if (isFilter(c)) walk(c);
      else if (!COLUMNS[c.property]) keys.add(c.property);
    }
  };
  walk(filter);
  if (aggregation.func !== "count" && !COLUMNS[aggregation.property]) keys.add(aggregation.property);
  return [...keys];
}
