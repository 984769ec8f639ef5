// Where the buyer lands after paying: an http(s) URL of at most 2083 characters, as Polar's
// HttpUrl. Checked for checkouts and for the checkout links that open them.
import { invalid } from "../kit/errors.js";

export function checkSuccessUrl(url: string | null | undefined, loc: (string | number)[] = ["body", "success_url"]): string | null {
  if (url === undefined || url === null) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid(loc, "Input should be a valid URL", "url_parsing", url);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw invalid(loc, "URL scheme should be 'http' or 'https'", "url_scheme", url);
  if (url.length > 2083) throw invalid(loc, "URL should have at most 2083 characters", "url_too_long", url);
  return url;
}
