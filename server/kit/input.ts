// Input that cannot be stored as given, checked once for every operation so no domain has to
// remember it: a NUL character in any text (PostgreSQL refuses it: a database error, a 500), and a
// number beyond ±(2^53 − 1), which JSON.parse has already rounded (9007199254740993 arrives as
// …992) and metadata, custom field data or an event would otherwise keep, wrong, without a word.
import { invalid, type ValidationIssue } from "./errors.js";

const NUL: Omit<ValidationIssue, "loc"> = { msg: "Text must not contain NUL characters", type: "string_nul" };
const UNSAFE_NUMBER: Omit<ValidationIssue, "loc"> = {
  msg: `Number is beyond ±${Number.MAX_SAFE_INTEGER} and cannot be stored exactly; send it as a string`,
  type: "value_error",
};

function findUnstorable(value: unknown, loc: (string | number)[]): ValidationIssue | null {
  if (typeof value === "string") return value.includes("\u0000") ? { loc, ...NUL } : null;
  // Every double at or beyond 2^53 is an integer, so this also catches 1e300.
  if (typeof value === "number") return Number.isInteger(value) && !Number.isSafeInteger(value) ? { loc, ...UNSAFE_NUMBER } : null;
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) {
      const hit = findUnstorable(v, [...loc, i]);
      if (hit) return hit;
    }
    return null;
  }
  if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (k.includes("\u0000")) return { loc: [...loc, k], ...NUL };
      const hit = findUnstorable(v, [...loc, k]);
      if (hit) return hit;
    }
  }
  return null;
}

export function rejectUnstorableInput(parts: { path?: unknown; query?: unknown; body?: unknown }): void {
  for (const [where, value] of Object.entries(parts)) {
    const hit = findUnstorable(value, [where]);
    if (hit) throw invalid(hit.loc, hit.msg, hit.type);
  }
}

/** PostgreSQL errors caused by the input's content rather than by a bug: answered as 422. */
export const INPUT_ERROR_CODES = new Set(["22P05", "22021", "22P02", "22003", "22007", "22008", "54000"]);
