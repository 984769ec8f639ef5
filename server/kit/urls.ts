// URLs a caller stores and a page later links to or loads (a website, a social profile, an
// avatar, where a buyer lands): absolute http(s) URLs of at most 2083 characters, as Polar's
// HttpUrl. Any other scheme (javascript:, data:, file:…) would run or leak on the page showing it.
import { invalid } from "./errors.js";

export const MAX_URL_LENGTH = 2083;

/** What is wrong with `value` as an http(s) URL, as a 422 issue's msg and type; null when nothing is. */
export function httpUrlProblem(value: unknown): { msg: string; type: string } | null {
  if (typeof value !== "string") return { msg: "URL input should be a string or URL", type: "url_type" };
  // The WHATWG parser, as browsers read a link: " javascript:…" and "java\tscript:…" are javascript: URLs.
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return { msg: "Input should be a valid URL", type: "url_parsing" };
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    return { msg: "URL scheme should be 'http' or 'https'", type: "url_scheme" };
  if (value.length > MAX_URL_LENGTH) return { msg: `URL should have at most ${MAX_URL_LENGTH} characters`, type: "url_too_long" };
  return null;
}

/** `value` as stored (null stays null), or a 422 at `loc`. */
export function checkHttpUrl(value: string | null | undefined, loc: (string | number)[]): string | null {
  if (value === undefined || value === null) return null;
  const problem = httpUrlProblem(value);
  if (problem) throw invalid(loc, problem.msg, problem.type, value);
  return value;
}
