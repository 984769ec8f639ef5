// The built-in calculator: a table of hand-checked cases (country × consumer or business × VAT
// id × prices with or without tax × category), effective dates, rounding, and properties.
import { code as currencyCode } from "currency-codes";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { calculate, lineTax, percent, roundHalfAwayFromZero } from "../../server/tax/calculator.js";
import { TaxError } from "../../server/tax/errors.js";
import type { TaxabilityReason, TaxBuyer, TaxCategory, TaxRegistration, TaxSettings } from "../../server/tax/models.js";
import { ALL_COUNTRY_RATES } from "../../server/tax/rates.js";

const reg = (country: string, state?: string): TaxRegistration => (state ? { country, state } : { country });
const OSS: TaxRegistration = { country: "EU", scheme: "oss" };
const ABROAD = ["GB", "NO", "CH", "IS", "AU", "NZ", "JP", "SG", "KR", "IN"].map((c) => reg(c));

/** A French seller registered at home, in the EU's OSS, and in every other country the tables cover. */
const FR_OSS: TaxSettings = {
  provider: "builtin",
  origin_country: "FR",
  prices_include_tax: false,
  registrations: [reg("FR"), OSS, ...ABROAD, reg("CA"), reg("CA", "QC"), reg("CA", "BC")],
};
const FR_ONLY: TaxSettings = { provider: "builtin", origin_country: "FR", prices_include_tax: false, registrations: [reg("FR")] };
const NOWHERE: TaxSettings = { provider: "builtin", origin_country: "FR", prices_include_tax: false, registrations: [] };
const US_OSS: TaxSettings = { provider: "builtin", origin_country: "US", prices_include_tax: false, registrations: [OSS, reg("US", "CA")] };
const CA_FEDERAL: TaxSettings = { provider: "builtin", origin_country: "FR", prices_include_tax: false, registrations: [reg("CA")] };
const NO_TAX: TaxSettings = { provider: "none", origin_country: "FR", prices_include_tax: false, registrations: [reg("FR"), OSS] };

const DAY = new Date("2025-09-15T12:00:00Z");
const consumer = (country: string, more: Partial<TaxBuyer> = {}): TaxBuyer => Object.assign({ country, business: false }, more);
const business = (country: string, vat?: string): TaxBuyer => ({
  country,
  business: true,
  tax_id: vat ? [vat, country === "GB" ? "gb_vat" : "eu_vat"] : null,
});

type Case = [
  label: string,
  settings: TaxSettings,
  buyer: TaxBuyer,
  category: TaxCategory,
  inclusive: boolean,
  amount: number,
  tax: number,
  ratePcm: number,
  reason: TaxabilityReason,
  display: string | null,
];

// Each amount and tax worked out by hand: exclusive tax = amount × rate; inclusive tax = amount × rate / (1 + rate).
const CASES: Case[] = [
  ["FR consumer, home", FR_OSS, consumer("FR"), "digital_service", false, 10000, 2000, 20000, "standard_rated", "VAT 20% (France)"],
  [
    "FR consumer, home, inclusive",
    FR_OSS,
    consumer("FR"),
    "digital_service",
    true,
    12000,
    2000,
    20000,
    "standard_rated",
    "VAT 20% (France)",
  ],
  [
    "FR business with its FR VAT id pays the home rate",
    FR_OSS,
    business("FR", "FR40303265045"),
    "saas",
    false,
    10000,
    2000,
    20000,
    "standard_rated",
    "VAT 20% (France)",
  ],
  ["DE consumer under OSS", FR_OSS, consumer("DE"), "digital_service", false, 10000, 1900, 19000, "standard_rated", "VAT 19% (Germany)"],
  [
    "DE consumer under OSS, inclusive",
    FR_OSS,
    consumer("DE"),
    "digital_service",
    true,
    11900,
    1900,
    19000,
    "standard_rated",
    "VAT 19% (Germany)",
  ],
  [
    "DE business, valid VAT id: reverse charge",
    FR_OSS,
    business("DE", "DE136695976"),
    "saas",
    false,
    10000,
    0,
    0,
    "reverse_charge",
    "Reverse charge",
  ],
  [
    "DE business, valid VAT id, inclusive: reverse charge",
    FR_OSS,
    business("DE", "DE 136 695 976"),
    "saas",
    true,
    10000,
    0,
    0,
    "reverse_charge",
    "Reverse charge",
  ],
  [
    "DE business, VAT id failing its checksum: consumer rate",
    FR_OSS,
    business("DE", "DE136695977"),
    "saas",
    false,
    10000,
    1900,
    19000,
    "standard_rated",
    "VAT 19% (Germany)",
  ],
  [
    "DE business without a VAT id: consumer rate",
    FR_OSS,
    business("DE"),
    "saas",
    false,
    10000,
    1900,
    19000,
    "standard_rated",
    "VAT 19% (Germany)",
  ],
  [
    "DE business with an FR VAT id: not its country's",
    FR_OSS,
    { country: "DE", business: true, tax_id: ["FR40303265045", "eu_vat"] },
    "saas",
    false,
    10000,
    1900,
    19000,
    "standard_rated",
    "VAT 19% (Germany)",
  ],
  ["DE e-book", FR_OSS, consumer("DE"), "ebook", false, 10000, 700, 7000, "standard_rated", "VAT 7% (Germany)"],
  ["FR e-book", FR_OSS, consumer("FR"), "ebook", false, 10000, 550, 5500, "standard_rated", "VAT 5.5% (France)"],
  ["FR e-book, inclusive", FR_OSS, consumer("FR"), "ebook", true, 10550, 550, 5500, "standard_rated", "VAT 5.5% (France)"],
  ["IT e-book", FR_OSS, consumer("IT"), "ebook", false, 10000, 400, 4000, "standard_rated", "VAT 4% (Italy)"],
  ["LU e-book", FR_OSS, consumer("LU"), "ebook", false, 10000, 300, 3000, "standard_rated", "VAT 3% (Luxembourg)"],
  ["NL e-book, inclusive", FR_OSS, consumer("NL"), "ebook", true, 10900, 900, 9000, "standard_rated", "VAT 9% (Netherlands)"],
  ["DK e-book takes the standard rate", FR_OSS, consumer("DK"), "ebook", false, 10000, 2500, 25000, "standard_rated", "VAT 25% (Denmark)"],
  ["HU SaaS", FR_OSS, consumer("HU"), "saas", false, 10000, 2700, 27000, "standard_rated", "VAT 27% (Hungary)"],
  [
    "FI consumer after 2024-09-01",
    FR_OSS,
    consumer("FI"),
    "digital_service",
    false,
    10000,
    2550,
    25500,
    "standard_rated",
    "VAT 25.5% (Finland)",
  ],
  ["FI e-book after 2025-01-01", FR_OSS, consumer("FI"), "ebook", false, 10000, 1400, 14000, "standard_rated", "VAT 14% (Finland)"],
  [
    "EE consumer after 2025-07-01",
    FR_OSS,
    consumer("EE"),
    "digital_service",
    false,
    10000,
    2400,
    24000,
    "standard_rated",
    "VAT 24% (Estonia)",
  ],
  ["SK consumer, inclusive", FR_OSS, consumer("SK"), "general", true, 12300, 2300, 23000, "standard_rated", "VAT 23% (Slovakia)"],
  [
    "ES business without a VAT id, inclusive",
    FR_OSS,
    business("ES"),
    "general",
    true,
    12100,
    2100,
    21000,
    "standard_rated",
    "VAT 21% (Spain)",
  ],
  ["GR consumer", FR_OSS, consumer("GR"), "digital_service", false, 10000, 2400, 24000, "standard_rated", "VAT 24% (Greece)"],
  [
    "GR business, EL VAT id: reverse charge",
    FR_OSS,
    business("GR", "EL094259216"),
    "digital_service",
    false,
    10000,
    0,
    0,
    "reverse_charge",
    "Reverse charge",
  ],
  [
    "IE business, valid VAT id, e-book: reverse charge",
    FR_OSS,
    business("IE", "IE6433435F"),
    "ebook",
    false,
    10000,
    0,
    0,
    "reverse_charge",
    "Reverse charge",
  ],
  [
    "no OSS: a DE consumer pays the origin's rate",
    FR_ONLY,
    consumer("DE"),
    "digital_service",
    false,
    10000,
    2000,
    20000,
    "standard_rated",
    "VAT 20% (France)",
  ],
  [
    "no OSS: a DE e-book takes the origin's e-book rate",
    FR_ONLY,
    consumer("DE"),
    "ebook",
    false,
    10000,
    550,
    5500,
    "standard_rated",
    "VAT 5.5% (France)",
  ],
  [
    "no OSS: a DE business with a VAT id reverse-charges",
    FR_ONLY,
    business("DE", "DE136695976"),
    "saas",
    true,
    10000,
    0,
    0,
    "reverse_charge",
    "Reverse charge",
  ],
  ["registered nowhere: FR consumer not collected", NOWHERE, consumer("FR"), "digital_service", false, 10000, 0, 0, "not_collecting", null],
  [
    "registered nowhere: DE business with a VAT id not subject",
    NOWHERE,
    business("DE", "DE136695976"),
    "saas",
    false,
    10000,
    0,
    0,
    "not_subject_to_tax",
    null,
  ],
  [
    "US seller under OSS: FR consumer",
    US_OSS,
    consumer("FR"),
    "digital_service",
    false,
    10000,
    2000,
    20000,
    "standard_rated",
    "VAT 20% (France)",
  ],
  [
    "US seller under OSS: FR business reverse-charges",
    US_OSS,
    business("FR", "FR40303265045"),
    "saas",
    false,
    10000,
    0,
    0,
    "reverse_charge",
    "Reverse charge",
  ],
  [
    "US seller under OSS: DE goods, inclusive",
    US_OSS,
    consumer("DE"),
    "general",
    true,
    11900,
    1900,
    19000,
    "standard_rated",
    "VAT 19% (Germany)",
  ],
  ["exempt customer", FR_OSS, consumer("DE", { exempt: true }), "digital_service", false, 10000, 0, 0, "customer_exempt", null],
  ["provider none", NO_TAX, consumer("FR"), "digital_service", false, 10000, 0, 0, "not_collecting", null],
  ["GB consumer", FR_OSS, consumer("GB"), "digital_service", false, 10000, 2000, 20000, "standard_rated", "VAT 20% (United Kingdom)"],
  ["GB e-book is zero-rated", FR_OSS, consumer("GB"), "ebook", false, 10000, 0, 0, "product_exempt", "VAT 0% (United Kingdom)"],
  [
    "GB business with a GB VAT id, inclusive",
    FR_OSS,
    business("GB", "GB980780684"),
    "saas",
    true,
    12000,
    2000,
    20000,
    "standard_rated",
    "VAT 20% (United Kingdom)",
  ],
  ["GB consumer, seller not registered in GB", FR_ONLY, consumer("GB"), "digital_service", false, 10000, 0, 0, "not_collecting", null],
  [
    "GB business with a VAT id, seller not registered",
    FR_ONLY,
    business("GB", "GB980780684"),
    "saas",
    false,
    10000,
    0,
    0,
    "not_subject_to_tax",
    null,
  ],
  ["NO consumer", FR_OSS, consumer("NO"), "digital_service", false, 10000, 2500, 25000, "standard_rated", "MVA 25% (Norway)"],
  ["NO e-book is zero-rated", FR_OSS, consumer("NO"), "ebook", true, 10000, 0, 0, "product_exempt", "MVA 0% (Norway)"],
  ["CH consumer", FR_OSS, consumer("CH"), "saas", false, 10000, 810, 8100, "standard_rated", "VAT 8.1% (Switzerland)"],
  ["CH e-book, inclusive", FR_OSS, consumer("CH"), "ebook", true, 10260, 260, 2600, "standard_rated", "VAT 2.6% (Switzerland)"],
  ["IS consumer", FR_OSS, consumer("IS"), "digital_service", false, 10000, 2400, 24000, "standard_rated", "VSK 24% (Iceland)"],
  ["AU consumer, inclusive", FR_OSS, consumer("AU"), "digital_service", true, 11000, 1000, 10000, "standard_rated", "GST 10% (Australia)"],
  ["NZ consumer", FR_OSS, consumer("NZ"), "saas", false, 10000, 1500, 15000, "standard_rated", "GST 15% (New Zealand)"],
  ["JP consumer", FR_OSS, consumer("JP"), "digital_service", false, 1000, 100, 10000, "standard_rated", "JCT 10% (Japan)"],
  ["SG consumer", FR_OSS, consumer("SG"), "digital_service", false, 10000, 900, 9000, "standard_rated", "GST 9% (Singapore)"],
  [
    "KR consumer, inclusive",
    FR_OSS,
    consumer("KR"),
    "digital_service",
    true,
    11000,
    1000,
    10000,
    "standard_rated",
    "VAT 10% (South Korea)",
  ],
  ["IN consumer", FR_OSS, consumer("IN"), "saas", false, 10000, 1800, 18000, "standard_rated", "GST 18% (India)"],
  [
    "CA Ontario: HST",
    FR_OSS,
    consumer("CA", { state: "ON" }),
    "digital_service",
    false,
    10000,
    1300,
    13000,
    "standard_rated",
    "HST 13% (Ontario)",
  ],
  [
    "CA Nova Scotia after 2025-04-01: HST",
    FR_OSS,
    consumer("CA", { state: "NS" }),
    "digital_service",
    false,
    10000,
    1400,
    14000,
    "standard_rated",
    "HST 14% (Nova Scotia)",
  ],
  [
    "CA Quebec: GST and QST, 1497.5 rounds away",
    FR_OSS,
    consumer("CA", { state: "QC" }),
    "digital_service",
    false,
    10000,
    1498,
    14975,
    "standard_rated",
    "GST 5% + QST 9.975% (Quebec)",
  ],
  [
    "CA Quebec, federal registration only: GST",
    CA_FEDERAL,
    consumer("CA", { state: "QC" }),
    "digital_service",
    false,
    10000,
    500,
    5000,
    "standard_rated",
    "GST 5% (Canada)",
  ],
  [
    "CA British Columbia from the postal code: GST and PST",
    FR_OSS,
    consumer("CA", { postal_code: "V6B 1A1" }),
    "saas",
    false,
    10000,
    1200,
    12000,
    "standard_rated",
    "GST 5% + PST 7% (British Columbia)",
  ],
  [
    "CA Alberta: GST",
    FR_OSS,
    consumer("CA", { postal_code: "T2P 1J9" }),
    "saas",
    true,
    10500,
    500,
    5000,
    "standard_rated",
    "GST 5% (Canada)",
  ],
  ["CA, seller not registered", FR_ONLY, consumer("CA", { state: "ON" }), "digital_service", false, 10000, 0, 0, "not_collecting", null],
  [
    "US buyer where the seller is registered: not supported",
    US_OSS,
    consumer("US", { state: "CA" }),
    "digital_service",
    false,
    10000,
    0,
    0,
    "not_supported",
    null,
  ],
  [
    "US buyer in another state than the seller's registration: not collecting",
    US_OSS,
    consumer("US", { state: "NY" }),
    "digital_service",
    false,
    10000,
    0,
    0,
    "not_collecting",
    null,
  ],
  [
    "US buyer, seller registered in the state, prefixed code: not supported",
    US_OSS,
    consumer("US", { state: "US-CA" }),
    "digital_service",
    false,
    10000,
    0,
    0,
    "not_supported",
    null,
  ],
  [
    "US buyer, seller not registered",
    FR_OSS,
    consumer("US", { state: "NY" }),
    "digital_service",
    false,
    10000,
    0,
    0,
    "not_collecting",
    null,
  ],
  [
    "BR business with a tax id, no rates",
    FR_OSS,
    { country: "BR", business: true, tax_id: ["16.727.230/0001-97", "br_cnpj"] },
    "saas",
    false,
    10000,
    0,
    0,
    "not_subject_to_tax",
    null,
  ],
];

describe("calculate: the table", () => {
  it("has at least 40 cases", () => expect(CASES.length).toBeGreaterThanOrEqual(40));

  it.each(CASES)("%s", (_label, settings, buyer, category, inclusive, amount, tax, ratePcm, reason, display) => {
    const result = calculate({
      settings: Object.assign({}, settings, { prices_include_tax: inclusive }),
      buyer,
      currency: "eur",
      lines: [{ amount, category, reference: "line-1" }],
      date: DAY,
    });
    const [line] = result.lines;
    expect(line).toMatchObject({ reference: "line-1", category, amount, tax_amount: tax, rate_pcm: ratePcm, taxability_reason: reason });
    expect(line.jurisdiction?.display_name ?? null).toBe(display);
    expect([line.net_amount, line.total_amount]).toEqual(inclusive ? [amount - tax, amount] : [amount, amount + tax]);
    expect(line.components.reduce((s, c) => s + c.amount, 0)).toBe(tax);
    expect(result).toMatchObject({ tax_amount: tax, net_amount: line.net_amount, total_amount: line.total_amount });
  });
});

describe("calculate: orders", () => {
  it("taxes each line by its category and sums the totals", () => {
    const result = calculate({
      settings: FR_OSS,
      buyer: consumer("DE"),
      currency: "eur",
      lines: [{ amount: 1000, category: "ebook" }, { amount: 2000 }, { amount: 999, category: "saas" }],
      date: DAY,
    });
    expect(result.lines.map((l) => l.tax_amount)).toEqual([70, 380, 190]); // 189.81 rounds to 190
    expect(result).toMatchObject({
      net_amount: 3999,
      tax_amount: 640,
      total_amount: 4639,
      taxability_reason: "standard_rated",
      currency: "eur",
      date: "2025-09-15",
      processor_id: null,
    });
    expect(result.jurisdiction).toEqual({ country: "DE", state: null, display_name: "VAT 7% (Germany)" });
  });

  it("splits Quebec's tax between GST and QST, and gives each its rate and jurisdiction", () => {
    const [line] = calculate({
      settings: FR_OSS,
      buyer: consumer("CA", { state: "QC" }),
      currency: "cad",
      lines: [{ amount: 10000 }],
      date: DAY,
    }).lines;
    expect(line.basis_points).toBe(1498);
    expect(line.jurisdiction).toEqual({ country: "CA", state: "QC", display_name: "GST 5% + QST 9.975% (Quebec)" });
    expect(line.components).toEqual([
      {
        tax: "GST",
        rate_pcm: 5000,
        basis_points: 500,
        amount: 500,
        jurisdiction: { country: "CA", state: null, display_name: "GST 5% (Canada)" },
      },
      {
        tax: "QST",
        rate_pcm: 9975,
        basis_points: 998,
        amount: 998,
        jurisdiction: { country: "CA", state: "QC", display_name: "QST 9.975% (Quebec)" },
      },
    ]);
  });

  it("gives the order no reason when it has no lines", () => {
    expect(calculate({ settings: FR_OSS, buyer: consumer("FR"), currency: "eur", lines: [], date: DAY })).toMatchObject({
      tax_amount: 0,
      taxability_reason: null,
      jurisdiction: null,
    });
  });

  it("refuses what it cannot compute", () => {
    const refused = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e instanceof TaxError ? e.code : e;
      }
      return "computed";
    };
    const input = { settings: FR_OSS, buyer: consumer("FR"), currency: "eur", lines: [{ amount: 100 }], date: DAY };
    expect(refused(() => calculate(Object.assign({}, input, { buyer: consumer("CA") })))).toBe("location_incomplete");
    expect(refused(() => calculate(Object.assign({}, input, { date: new Date("2021-12-31T12:00:00Z") })))).toBe("no_rate");
    expect(refused(() => calculate(Object.assign({}, input, { settings: Object.assign({}, FR_OSS, { provider: "stripe" }) })))).toBe(
      "wrong_provider",
    );
    expect(refused(() => calculate(Object.assign({}, input, { lines: [{ amount: 10.5 }] })))).toBe("invalid_input");
    expect(refused(() => calculate(Object.assign({}, input, { buyer: consumer("France") })))).toBe("invalid_input");
    expect(refused(() => calculate(Object.assign({}, input, { currency: "euro" })))).toBe("invalid_input");
  });
});

describe("calculate: effective dates", () => {
  const rateOn = (country: string, at: string, category: TaxCategory = "digital_service") =>
    calculate({ settings: FR_OSS, buyer: consumer(country), currency: "eur", lines: [{ amount: 10000, category }], date: new Date(at) })
      .lines[0].tax_amount;

  it.each([
    ["CH", "2023-12-31T23:59:59Z", 770, "2024-01-01T00:00:00Z", 810],
    ["EE", "2023-12-31T12:00:00Z", 2000, "2024-01-01T12:00:00Z", 2200],
    ["EE", "2025-06-30T12:00:00Z", 2200, "2025-07-01T12:00:00Z", 2400],
    ["FI", "2024-08-31T12:00:00Z", 2400, "2024-09-01T12:00:00Z", 2550],
    ["SG", "2023-12-31T12:00:00Z", 800, "2024-01-01T12:00:00Z", 900],
    ["SK", "2024-12-31T23:59:59Z", 2000, "2025-01-01T00:00:00Z", 2300],
    ["LU", "2022-12-31T12:00:00Z", 1700, "2023-01-01T12:00:00Z", 1600],
  ])("%s: the day before the change and the day of it", (country, before, was, on, is) => {
    expect(rateOn(country, before)).toBe(was);
    expect(rateOn(country, on)).toBe(is);
  });

  it("changes the e-book rate on its own day (FI 10% → 14% on 2025-01-01)", () => {
    expect([rateOn("FI", "2024-12-31T12:00:00Z", "ebook"), rateOn("FI", "2025-01-01T12:00:00Z", "ebook")]).toEqual([1000, 1400]);
  });
});

describe("rounding", () => {
  it("rounds halves away from zero", () => {
    expect([5n, -5n, 4n, -4n, 7n].map((n) => roundHalfAwayFromZero(n, 2n))).toEqual([3n, -3n, 2n, -2n, 4n]);
    expect(roundHalfAwayFromZero(149n, 100n)).toBe(1n);
    expect(roundHalfAwayFromZero(150n, 100n)).toBe(2n);
    expect(roundHalfAwayFromZero(-150n, 100n)).toBe(-2n);
    expect(lineTax(50, 19000, false)).toBe(10); // 9.5
    expect(lineTax(-50, 19000, false)).toBe(-10); // a credit line: -9.5
    expect(lineTax(150, 17000, false)).toBe(26); // 25.5
    expect(lineTax(3, 20000, true)).toBe(1); // 0.5 carved out of 3
    expect(lineTax(2, 20000, true)).toBe(0); // 0.333…
  });

  it("rounds zero-decimal currencies (JPY, KRW) to the whole unit", () => {
    expect([currencyCode("JPY")?.digits, currencyCode("KRW")?.digits]).toEqual([0, 0]);
    const tax = (country: string, currency: string, amount: number, inclusive = false) =>
      calculate({
        settings: Object.assign({}, FR_OSS, { prices_include_tax: inclusive }),
        buyer: consumer(country),
        currency,
        lines: [{ amount }],
        date: DAY,
      }).lines[0].tax_amount;
    expect(tax("JP", "jpy", 5)).toBe(1); // ¥0.5
    expect(tax("JP", "jpy", 15)).toBe(2); // ¥1.5
    expect(tax("JP", "jpy", 1234)).toBe(123); // ¥123.4
    expect(tax("JP", "jpy", 1100, true)).toBe(100);
    expect(tax("KR", "krw", 1005)).toBe(101); // ₩100.5
    expect(tax("KR", "krw", 999, true)).toBe(91); // ₩90.818…
  });

  it("rounds once per line, not per unit or per order", () => {
    const lines = [{ amount: 50 }, { amount: 50 }];
    const result = calculate({ settings: FR_OSS, buyer: consumer("DE"), currency: "eur", lines, date: DAY });
    expect(result.lines.map((l) => l.tax_amount)).toEqual([10, 10]); // 9.5 each, not 19 for the order
    expect(result.tax_amount).toBe(20);
  });

  it("writes rates as percents", () => {
    expect([20000, 5500, 9975, 25500, 0, 810].map(percent)).toEqual(["20%", "5.5%", "9.975%", "25.5%", "0%", "0.81%"]);
  });
});

describe("properties", () => {
  const countries = ALL_COUNTRY_RATES.map((c) => c.country);
  const categories: TaxCategory[] = ["digital_service", "ebook", "saas", "general"];
  const province = fc.constantFrom("ON", "QC", "BC", "MB", "SK", "AB", "NS", "NB", "NL", "PE", "NT", "NU", "YT");
  const order = fc.record({
    country: fc.constantFrom(...countries),
    state: province,
    business: fc.boolean(),
    amounts: fc.array(fc.record({ amount: fc.integer({ min: 0, max: 1_000_000_000 }), category: fc.constantFrom(...categories) }), {
      minLength: 1,
      maxLength: 5,
    }),
    day: fc.date({ min: new Date("2022-01-01T00:00:00Z"), max: new Date("2027-12-31T23:59:59Z"), noInvalidDate: true }),
  });

  /** amount × rate / 100000 rounded half up, by integer division (amounts are not negative here). */
  const expected = (amount: number, ratePcm: number) => {
    const exact = amount * ratePcm; // below 2^53 for these amounts and rates
    const whole = Math.floor(exact / 100_000);
    return exact - whole * 100_000 >= 50_000 ? whole + 1 : whole;
  };

  it("inclusive prices: tax + net is the listed price on every line", () => {
    fc.assert(
      fc.property(order, (o) => {
        const settings = Object.assign({}, FR_OSS, { prices_include_tax: true });
        const result = calculate({
          settings,
          buyer: { country: o.country, state: o.state, business: o.business },
          currency: "eur",
          lines: o.amounts,
          date: o.day,
        });
        result.lines.forEach((l, i) => {
          expect(l.tax_amount + l.net_amount).toBe(o.amounts[i].amount);
          expect(l.total_amount).toBe(o.amounts[i].amount);
          expect(l.components.reduce((s, c) => s + c.amount, 0)).toBe(l.tax_amount);
        });
        expect(result.total_amount).toBe(o.amounts.reduce((s, l) => s + l.amount, 0));
      }),
      { numRuns: 300 },
    );
  });

  it("exclusive prices: tax is round(amount × rate) on every line", () => {
    fc.assert(
      fc.property(order, (o) => {
        const result = calculate({
          settings: FR_OSS,
          buyer: { country: o.country, state: o.state, business: o.business },
          currency: "eur",
          lines: o.amounts,
          date: o.day,
        });
        result.lines.forEach((l, i) => {
          expect(l.tax_amount).toBe(expected(o.amounts[i].amount, l.rate_pcm));
          expect(l.total_amount).toBe(o.amounts[i].amount + l.tax_amount);
          expect(l.components.reduce((s, c) => s + c.amount, 0)).toBe(l.tax_amount);
        });
      }),
      { numRuns: 300 },
    );
  });
});
