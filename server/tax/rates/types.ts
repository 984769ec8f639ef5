// The shape of the rate tables: a country's rates, each effective-dated, with where they come from.
// Rates are integers in pcm (per cent mille, thousandths of a percent: 20000 = 20%, 9975 = 9.975%),
// since Quebec's QST is not a whole number of basis points.

/** A calendar date, "YYYY-MM-DD". */
export type IsoDate = string;

/** A value that applies from `from` to `to` (both included; no `to`: still in force). */
export interface Dated<T> {
  from: IsoDate;
  to?: IsoDate;
  value: T;
}

export interface CountryRates {
  /** ISO 3166-1 alpha-2. */
  country: string;
  name: string;
  /** The tax's name on a receipt: "VAT", "GST", "JCT". */
  tax: string;
  /** The official (or EU/OECD) table the values were taken from. */
  source: string;
  /** When the values were last compared with the source. */
  checked: IsoDate;
  standard: Dated<number>[];
  /** Reduced rates in force (informational: the calculator uses `ebook` and `standard`). */
  reduced: Dated<number[]>[];
  /** The rate of an e-book where it is not the standard one. */
  ebook?: Dated<number>[];
}

/** A Canadian province's sales tax: HST (replaces GST) or PST/QST (added to GST). */
export interface ProvinceRates {
  /** ISO 3166-2 subdivision code without the country: "ON", "QC". */
  province: string;
  name: string;
  kind: "HST" | "PST" | "QST";
  source: string;
  checked: IsoDate;
  rate: Dated<number>[];
  /** First letters of the province's postal codes (Canada Post's forward sortation areas). */
  postal: string;
}

/** The tables cover purchases from this date on; earlier dates have no rate. */
export const COVERAGE_START: IsoDate = "2022-01-01";

export function always<T>(value: T): Dated<T>[] {
  return [{ from: COVERAGE_START, value }];
}

/** A rate that never changed in the covered period, or its dated history. */
export type Rates = number | Dated<number>[];
export type ReducedRates = number[] | Dated<number[]>[];

function isHistory<T>(v: T | Dated<T>[]): v is Dated<T>[] {
  return Array.isArray(v) && v.length > 0 && typeof v[0] === "object" && v[0] !== null && "from" in v[0];
}

function history<T>(v: T | Dated<T>[]): Dated<T>[] {
  return isHistory(v) ? v : always(v);
}

/** A country's entry, from rates written the short way (a number when it never changed). */
export function country(
  code: string,
  name: string,
  tax: string,
  source: string,
  checked: IsoDate,
  standard: Rates,
  reduced: ReducedRates,
  ebook?: Rates,
): CountryRates {
  const entry: CountryRates = {
    country: code,
    name,
    tax,
    source,
    checked,
    standard: history(standard),
    reduced: history<number[]>(reduced),
  };
  if (ebook !== undefined) entry.ebook = history(ebook);
  return entry;
}

function dayBefore(day: IsoDate): IsoDate {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

/** A history from the coverage start: `initial`, then each [day, value] from that day on. */
export function changes<T>(initial: T, ...steps: [IsoDate, T][]): Dated<T>[] {
  const starts: [IsoDate, T][] = [[COVERAGE_START, initial], ...steps];
  return starts.map(([from, value], i) => {
    const next = starts[i + 1];
    return next === undefined ? { from, value } : { from, to: dayBefore(next[0]), value };
  });
}
