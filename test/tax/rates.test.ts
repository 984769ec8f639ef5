// The rate tables: every country the issue names is there with its source, every history is a
// gapless run of periods from the coverage start, and the changes fall on their days.
import { describe, expect, it } from "vitest";
import {
  ALL_COUNTRY_RATES,
  ALL_PROVINCE_RATES,
  canadianProvince,
  COVERAGE_START,
  countryRates,
  onDay,
  type Dated,
} from "../../server/tax/rates.js";

const EU_27 = "AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE".split(" ");
const OTHERS = "GB NO CH IS AU NZ CA JP SG KR IN".split(" ");

function nextDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

function expectGapless<T>(history: Dated<T>[], what: string): void {
  expect(history.length, what).toBeGreaterThan(0);
  expect(history[0].from, what).toBe(COVERAGE_START);
  for (let i = 0; i < history.length - 1; i++) {
    const to = history[i].to;
    expect(to, what).toBeDefined();
    expect(nextDay(to ?? ""), what).toBe(history[i + 1].from);
  }
  expect(history[history.length - 1].to, what).toBeUndefined();
}

describe("rate tables", () => {
  it("cover the EU-27 and the other countries of the issue, each with its source and date", () => {
    expect(ALL_COUNTRY_RATES.map((c) => c.country).sort()).toEqual([...EU_27, ...OTHERS].sort());
    for (const c of [...ALL_COUNTRY_RATES, ...ALL_PROVINCE_RATES]) {
      expect(c.source).toMatch(/^https:\/\//);
      expect(c.checked).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  it("keep every history a gapless run of integer rates from the coverage start", () => {
    for (const c of ALL_COUNTRY_RATES) {
      expectGapless(c.standard, `${c.country} standard`);
      expectGapless(c.reduced, `${c.country} reduced`);
      if (c.ebook) expectGapless(c.ebook, `${c.country} ebook`);
      const values = [...c.standard.map((d) => d.value), ...c.reduced.flatMap((d) => d.value), ...(c.ebook ?? []).map((d) => d.value)];
      for (const v of values) expect(Number.isSafeInteger(v) && v >= 0 && v < 100_000, `${c.country} ${v}`).toBe(true);
    }
    for (const p of ALL_PROVINCE_RATES) expectGapless(p.rate, p.province);
  });

  it.each([
    ["CH", "standard", "2023-12-31", 7700, "2024-01-01", 8100],
    ["EE", "standard", "2023-12-31", 20000, "2024-01-01", 22000],
    ["EE", "standard", "2025-06-30", 22000, "2025-07-01", 24000],
    ["FI", "standard", "2024-08-31", 24000, "2024-09-01", 25500],
    ["FI", "ebook", "2024-12-31", 10000, "2025-01-01", 14000],
    ["SG", "standard", "2023-12-31", 8000, "2024-01-01", 9000],
    ["SK", "standard", "2024-12-31", 20000, "2025-01-01", 23000],
    ["LU", "standard", "2022-12-31", 17000, "2023-01-01", 16000],
    ["LU", "standard", "2023-12-31", 16000, "2024-01-01", 17000],
    ["RO", "standard", "2025-07-31", 19000, "2025-08-01", 21000],
  ] as const)("%s %s: %s is %i, %s is %i", (country, kind, before, was, on, is) => {
    const history = countryRates(country)?.[kind] ?? [];
    expect(onDay(history, before)).toBe(was);
    expect(onDay(history, on)).toBe(is);
  });

  it("has no rate before the coverage start", () => {
    expect(onDay(countryRates("FR")?.standard ?? [], "2021-12-31")).toBeUndefined();
  });

  it("finds a Canadian province from its code or its postal code", () => {
    expect(canadianProvince("qc", null)?.kind).toBe("QST");
    expect(canadianProvince("CA-ON", null)?.province).toBe("ON");
    expect(canadianProvince(null, "V6B 1A1")?.province).toBe("BC");
    expect(canadianProvince(null, "k1a 0b1")?.province).toBe("ON");
    expect(canadianProvince(null, null)).toBeUndefined();
    const ns = canadianProvince("NS", null)?.rate ?? [];
    expect([onDay(ns, "2025-03-31"), onDay(ns, "2025-04-01")]).toEqual([15000, 14000]);
  });
});
