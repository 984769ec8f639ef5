// Formatting at the UI edge: money from integer minor units in the record's own currency, dates in
// the reader's locale (UTC on hover), enum values as words.

const digitsCache = new Map<string, number>();

/** How many minor units a currency has (2 for usd, 0 for jpy, 3 for kwd). */
export function currencyDigits(currency: string): number {
  const key = currency.toUpperCase();
  let d = digitsCache.get(key);
  if (d === undefined) {
    try {
      d = new Intl.NumberFormat("en", { style: "currency", currency: key }).resolvedOptions().maximumFractionDigits ?? 2;
    } catch {
      d = 2;
    }
    digitsCache.set(key, d);
  }
  return d;
}

export function formatMoney(minor: number | null | undefined, currency: string | null | undefined, locale?: string): string {
  if (minor === null || minor === undefined || Number.isNaN(minor)) return "—";
  const cur = (currency ?? "usd").toUpperCase();
  const digits = currencyDigits(cur);
  try {
    return new Intl.NumberFormat(locale, {
      style: "currency",
      currency: cur,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(minor / 10 ** digits);
  } catch {
    return `${(minor / 10 ** digits).toFixed(digits)} ${cur}`;
  }
}

/** Major units typed by a person → integer minor units (12.34 usd → 1234). */
export function toMinor(major: number, currency: string): number {
  return Math.round(major * 10 ** currencyDigits(currency));
}

export function toMajor(minor: number, currency: string): number {
  return minor / 10 ** currencyDigits(currency);
}

export function formatDateTime(iso: string | null | undefined, locale?: string): string {
  if (!iso) return "—";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString(locale, { dateStyle: "medium", timeStyle: "short" });
}

export function utcTitle(iso: string | null | undefined): string | undefined {
  if (!iso) return undefined;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return undefined;
  return `${d
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d+Z$/, "")} UTC`;
}

const PERIODIC: Record<string, string> = { day: "Daily", week: "Weekly", month: "Monthly", year: "Yearly" };

/** How often a product or subscription bills: "Monthly", "Every 3 months"; "One-time" without an interval. */
export function billingText(interval: string | null | undefined, count?: number | null): string {
  if (!interval) return "One-time";
  return count && count > 1 ? `Every ${count} ${interval}s` : (PERIODIC[interval] ?? humanize(interval));
}

/** "/ month", "/ 3 months": the period an amount is for. */
export function perPeriod(interval: string, count?: number | null): string {
  return count && count > 1 ? `/ ${count} ${interval}s` : `/ ${interval}`;
}

/** A trial's length: "14 days", "1 month"; "—" without a trial. */
export function trialText(interval: string | null | undefined, count: number | null | undefined): string {
  if (!interval || !count) return "—";
  return `${count} ${interval}${count === 1 ? "" : "s"}`;
}

const ACRONYMS = new Set(["id", "url", "csv", "mrr", "pdf", "ip", "api", "vat"]);

/** "partially_refunded" → "Partially refunded"; "order.paid" → "Order paid"; "github_repository" → "GitHub repository". */
export function humanize(value: string | null | undefined): string {
  if (value === null || value === undefined || value === "") return "—";
  const words = String(value)
    .split(/[_.\s-]+/)
    .filter(Boolean)
    .map((w) => {
      const lower = w.toLowerCase();
      if (ACRONYMS.has(lower)) return lower.toUpperCase();
      if (lower === "github") return "GitHub";
      return lower;
    });
  const text = words.join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A value at a dotted path of a record ("customer.email"). */
export function valueAt(record: unknown, path: string): unknown {
  let cur: unknown = record;
  for (const key of path.split(".")) {
    if (cur === null || cur === undefined || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/** What a meter counts: its unit, and a custom unit's label and multiplier. */
export interface MeterUnitOf {
  unit: "scalar" | "token" | "custom";
  custom_label?: string | null;
  custom_multiplier?: number | null;
}

/**
 * How a meter's quantities (and prices) are shown, as Polar defines it: per `scale` units, named
 * `label` ("1M tokens"; a custom unit's label per its multiplier). A scalar meter counts plain units.
 */
export function meterUnitFormat(m: MeterUnitOf): { scale: number; label: string | null } {
  if (m.unit === "token") return { scale: 1_000_000, label: "1M tokens" };
  if (m.unit === "custom") return { scale: m.custom_multiplier ?? 1, label: m.custom_label ?? null };
  return { scale: 1, label: null };
}

/** A quantity in the meter's unit: 1,234 · 12 gigabyte · 2.5 × 1M tokens · 3 × 1K requests. */
export function formatMeterQuantity(quantity: number, m: MeterUnitOf): string {
  const { scale, label } = meterUnitFormat(m);
  const n = (quantity / scale).toLocaleString(undefined, { maximumFractionDigits: 6 });
  if (!label) return n;
  return scale === 1 ? `${n} ${label}` : `${n} × ${label}`;
}
