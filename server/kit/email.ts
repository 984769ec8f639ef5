// Email addresses a caller gives (a customer's, a buyer's, an organization's support address): one
// @, a dotted domain, and RFC 5321's limits of 254 octets in all and 64 before the @ (a longer one
// can never receive mail). Messages as Polar's (pydantic's email-validator) words them.
import { invalid } from "./errors.js";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@.]+$/;
const MAX_OCTETS = 254;
const MAX_LOCAL_OCTETS = 64;

const tooMany = (n: number) => `${n} character${n === 1 ? "" : "s"} too many`;

/** What is wrong with `value` as an email address (after trimming), or null. */
export function emailProblem(value: string): string | null {
  if (!EMAIL.test(value)) return "value is not a valid email address";
  const octets = Buffer.byteLength(value);
  if (octets > MAX_OCTETS) return `value is not a valid email address: The email address is too long (${tooMany(octets - MAX_OCTETS)}).`;
  const local = Buffer.byteLength(value.slice(0, value.lastIndexOf("@")));
  if (local > MAX_LOCAL_OCTETS) {
    return `value is not a valid email address: The email address is too long before the @-sign (${tooMany(local - MAX_LOCAL_OCTETS)}).`;
  }
  return null;
}

/** The address trimmed, or a 422 at `loc`. */
export function checkEmail(email: unknown, loc: (string | number)[] = ["body", "email"]): string {
  const value = typeof email === "string" ? email.trim() : "";
  const problem = emailProblem(value);
  if (problem) throw invalid(loc, problem, "value_error", email);
  return value;
}
