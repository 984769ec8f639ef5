// Money, dates and intervals, formatted here at the edge only: amounts arrive as integer minor
// units with their currency and are shown in that currency, in the reader's locale.
const locale = () => navigator.language || "en-US";

const digitsCache = new Map<string, number>();

/** How many minor-unit digits a currency has (2 for USD, 0 for JPY). */
export function minorDigits(currency: string): number {
  const code = currency.toUpperCase();
  let digits = digitsCache.get(code);
  if (digits === undefined) {
    digits = new Intl.NumberFormat("en", { style: "currency", currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
    digitsCache.set(code, digits);
  }
  return digits;
}

function money(minor: number, currency: string, signDisplay: "auto" | "exceptZero"): string {
  const code = currency.toUpperCase();
  const digits = minorDigits(code);
  return new Intl.NumberFormat(locale(), {
    style: "currency",
    currency: code,
    signDisplay,
    minimumFractionDigits: minor % 10 ** digits === 0 ? 0 : digits,
  }).format(minor / 10 ** digits);
}

export function formatMoney(minor: number, currency: string): string {
  return money(minor, currency, "auto");
}

/** A change of a balance, signed both ways: "+$10", "-$4.50". */
export function formatMoneyChange(minor: number, currency: string): string {
  return money(minor, currency, "exceptZero");
}

/** A major-unit amount typed by the buyer ("12.50") in minor units, or null when it is not a number. */
export function parseMajor(text: string, currency: string): number | null {
  const cleaned = text.replace(/[^\d.,-]/g, "").replace(",", ".");
  if (cleaned === "" || Number.isNaN(Number(cleaned))) return null;
  return Math.round(Number(cleaned) * 10 ** minorDigits(currency));
}

export function toMajor(minor: number, currency: string): string {
  const digits = minorDigits(currency);
  return (minor / 10 ** digits).toFixed(minor % 10 ** digits === 0 ? 0 : digits);
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return "—";
  return new Intl.DateTimeFormat(locale(), { year: "numeric", month: "short", day: "numeric" }).format(new Date(iso));
}

const INTERVALS: Record<string, string> = { day: "day", week: "week", month: "month", year: "year" };

/** "/ month" for a recurring interval ("/ 3 months" billed every 3), "" for a one-time price. */
export function perInterval(interval: string | null | undefined, count?: number | null): string {
  if (!interval) return "";
  const unit = INTERVALS[interval] ?? interval;
  return count && count > 1 ? ` / ${count} ${unit}s` : ` / ${unit}`;
}

/** A trial's length as an adjective: "14-day", "1-month". */
export function trialLength(interval: string, count: number): string {
  return `${count}-${INTERVALS[interval] ?? interval}`;
}
