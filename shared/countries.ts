// The assigned ISO 3166-1 alpha-2 country codes, for the server's address check, the portal's
// country picker and the console's tax settings: the two-letter codes ICU names as regions, less
// those that are no country.
// Plain code with no imports: the browser apps bundle it as it is.

// Codes ICU names that are not assigned ISO 3166-1 countries: groupings and private use, the
// exceptionally reserved (UK, XK, the Canary Islands…) and the transitionally reserved (former
// countries: AN, CS, SU, YU…). What is left is the contract's CountryAlpha2 (a test holds them equal).
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

let english: Intl.DisplayNames | undefined;

/** Whether `code` (upper case) is an assigned ISO 3166-1 alpha-2 country code. */
export function isCountryCode(code: string): boolean {
  if (!/^[A-Z]{2}$/.test(code) || NOT_COUNTRIES.has(code)) return false;
  english ??= new Intl.DisplayNames(["en"], { type: "region" });
  try {
    return english.of(code) !== code;
  } catch {
    return false;
  }
}

/** Every assigned ISO 3166-1 alpha-2 country code, in alphabetical order. */
export function countryCodes(): string[] {
  const letters = Array.from({ length: 26 }, (_, i) => String.fromCharCode(65 + i));
  return letters.flatMap((a) => letters.map((b) => a + b)).filter(isCountryCode);
}
