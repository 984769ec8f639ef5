// Formatting at the edge: money from minor units in its own currency, dates, intervals, colours.
import { DEFAULT_BRAND_COLOR, type RecurringInterval } from "./messages.js";

const LOCALE = "en-US";

/** An amount in minor units, in its currency: 1999 USD → "$19.99", 500 JPY → "¥500". */
export function formatMoney(amount: number, currency: string): string {
  const format = new Intl.NumberFormat(LOCALE, { style: "currency", currency: currency.toUpperCase() });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(amount / 10 ** digits);
}

/** A date, in UTC: "March 3, 2027". */
export function formatDate(iso: string): string {
  return new Intl.DateTimeFormat(LOCALE, { dateStyle: "long", timeZone: "UTC" }).format(new Date(iso));
}

/** A moment, in UTC: "March 3, 2027 at 9:30 AM UTC". */
export function formatDateTime(iso: string): string {
  return `${new Intl.DateTimeFormat(LOCALE, { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }).format(new Date(iso))} UTC`;
}

/** A rate in percent: 20 → "20%", 8.875 → "8.875%". */
export function formatPercent(rate: number): string {
  return new Intl.NumberFormat(LOCALE, { style: "percent", maximumFractionDigits: 3 }).format(rate / 100);
}

/** "month", "3 months", "year". */
export function formatInterval(interval: RecurringInterval, count: number): string {
  return count === 1 ? interval : `${count} ${interval}s`;
}

/** A price per period: "$19.99 / month", "$50.00 every 3 months". */
export function formatPrice(amount: number, currency: string, interval: RecurringInterval, count: number): string {
  const money = formatMoney(amount, currency);
  return count === 1 ? `${money} / ${interval}` : `${money} every ${formatInterval(interval, count)}`;
}

/** A file size: 2400000 → "2.4 MB". */
export function formatBytes(size: number): string {
  const units = ["B", "kB", "MB", "GB"];
  let value = size;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 1 }).format(value)} ${units[unit]}`;
}

const DARK_TEXT = "#111111";

/** The brand colour when it is #rrggbb, else the default (it goes into style attributes). */
export function brandColor(color: string): string {
  return /^#[0-9a-f]{6}$/i.test(color) ? color : DEFAULT_BRAND_COLOR;
}

function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** White or near-black, whichever reads better on the colour (one of them is always above 4.5:1). */
export function textOn(color: string): string {
  const l = luminance(brandColor(color));
  const onWhite = 1.05 / (l + 0.05);
  const onDark = (l + 0.05) / (luminance(DARK_TEXT) + 0.05);
  return onWhite >= onDark ? "#ffffff" : DARK_TEXT;
}
