// The countries of the country picker: the codes the server takes (shared/countries.ts), named in
// the reader's language by the browser's own region names (no names shipped in the bundle).
import { countryCodes } from "../../../shared/countries.js";

let cached: { code: string; name: string }[] | undefined;

export function countries(): { code: string; name: string }[] {
  if (cached) return cached;
  const names = new Intl.DisplayNames([navigator.language || "en", "en"], { type: "region" });
  cached = countryCodes()
    .map((code) => ({ code, name: names.of(code) ?? code }))
    .sort((x, y) => x.name.localeCompare(y.name));
  return cached;
}
