// Input PostgreSQL cannot store: a NUL character in any text. Checked once for every operation,
// so no domain has to remember it (it would otherwise surface as a database error, a 500).
import { invalid } from "./errors.js";

function findNul(value: unknown, loc: (string | number)[]): (string | number)[] | null {
  if (typeof value === "string") return value.includes("\u0000") ? loc : null;
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) {
      const hit = findNul(v, [...loc, i]);
      if (hit) return hit;
    }
    return null;
  }
  if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (k.includes("\u0000")) return [...loc, k];
      const hit = findNul(v, [...loc, k]);
      if (hit) return hit;
    }
  }
  return null;
}

export function rejectNulCharacters(parts: { path?: unknown; query?: unknown; body?: unknown }): void {
  for (const [where, value] of Object.entries(parts)) {
    const loc = findNul(value, [where]);
    if (loc) throw invalid(loc, "Text must not contain NUL characters", "string_nul");
  }
}

/** PostgreSQL errors caused by the input's content rather than by a bug: answered as 422. */
export const INPUT_ERROR_CODES = new Set(["22P05", "22021", "22P02", "22003", "22007", "22008", "54000"]);
