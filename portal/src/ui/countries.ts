// ISO 3166-1 alpha-2 countries with their names in the reader's language, from the browser's own
// region names (no list shipped in the bundle); the same test the server's address check uses
// (server/customers/address.ts: the codes ICU names that are not assigned countries).
const NOT_COUNTRIES = new Set([
  "EU",
  "EZ",
  "UN",
  "QO",
  "XA",
  "XB",
  "ZZ",
  "AC",
  "CP",
  "CQ",
  "DG",
  "EA",
  "FX",
  "IC",
  "TA",
  "UK",
  "XK",
  "AN",
  "BU",
  "CS",
  "DD",
  "DY",
  "HV",
  "NH",
  "RH",
  "SU",
  "TP",
  "VD",
  "YD",
  "YU",
  "ZR",
]);

let cached: { code: string; name: string }[] | undefined;

export function countries(): { code: string; name: string }[] {
  if (cached) return cached;
  const names = new Intl.DisplayNames([navigator.language || "en", "en"], { type: "region" });
  const english = new Intl.DisplayNames(["en"], { type: "region" });
  const out: { code: string; name: string }[] = [];
  for (let a = 65; a <= 90; a++) {
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      if (NOT_COUNTRIES.has(code)) continue;
      let known: string | undefined;
      try {
        known = english.of(code);
      } catch {
        known = undefined;
      }
      if (!known || known === code) continue;
      out.push({ code, name: names.of(code) ?? known });
    }
  }
  cached = out.sort((x, y) => x.name.localeCompare(y.name));
  return cached;
}
