// A meter's filter, aggregation and unit in words, and the choices the form offers for them.
import type { Filter, FilterClause, Meter } from "../../api";
import { humanize } from "../../common/format";

export const UNITS = [
  { id: "scalar", name: "Units" },
  { id: "token", name: "Tokens (shown per 1M)" },
  { id: "custom", name: "Custom" },
];

export const OPERATORS = ["eq", "ne", "gt", "gte", "lt", "lte", "like", "not_like"];

export const OPERATOR_TEXT: Record<string, string> = {
  eq: "=",
  ne: "≠",
  gt: ">",
  gte: "≥",
  lt: "<",
  lte: "≤",
  like: "contains",
  not_like: "does not contain",
};

export const FUNCS = ["count", "sum", "max", "min", "avg", "unique"];

export function filterText(f: Filter): string {
  const parts = f.clauses.map((c) =>
    "conjunction" in c
      ? `(${filterText(c)})`
      : `${(c as FilterClause).property} ${OPERATOR_TEXT[(c as FilterClause).operator] ?? (c as FilterClause).operator} ${JSON.stringify((c as FilterClause).value)}`,
  );
  return parts.join(` ${f.conjunction.toUpperCase()} `) || "every event";
}

export function aggregationText(m: Meter): string {
  const a = m.aggregation;
  return a.func === "count" ? "Count of events" : `${humanize(a.func)} of ${"property" in a ? a.property : "?"}`;
}

/** The unit in words: Units, Tokens (shown per 1M), or the custom label and its multiplier. */
export function unitText(m: Meter): string {
  if (m.unit === "token") return "Tokens (shown per 1M)";
  if (m.unit === "custom")
    return m.custom_multiplier && m.custom_multiplier > 1
      ? `${m.custom_label} (shown per ${m.custom_multiplier.toLocaleString()})`
      : `${m.custom_label}`;
  return "Units";
}
