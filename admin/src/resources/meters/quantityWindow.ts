// The window and interval the quantities chart asks for, and how its buckets are labelled.

export const INTERVALS = ["hour", "day", "week", "month"] as const;

export type Interval = (typeof INTERVALS)[number];

export const WINDOWS = [1, 7, 30, 90, 365];

// days, weeks and months start at the reader's midnight (the API's `timezone` extension)
export const TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The window asked for: the last N days, or the days typed (From's midnight to the end of To, local time). */
export function windowOf(days: number | "custom", from: string, to: string): { start: Date; end: Date } | null {
  if (days !== "custom") {
    const end = new Date();
    return { start: new Date(end.getTime() - days * 86_400_000), end };
  }
  if (!from || !to) return null;
  return { start: new Date(`${from}T00:00:00`), end: new Date(`${to}T23:59:59.999`) };
}

export function bucketLabel(iso: string, interval: Interval): string {
  return new Date(iso).toLocaleDateString(
    undefined,
    interval === "hour"
      ? { hour: "2-digit", day: "numeric", month: "short" }
      : { day: "numeric", month: "short", ...(interval === "month" ? { year: "numeric" } : {}) },
  );
}

export interface QuantityRow {
  timestamp: string;
  quantity: number;
  label: string;
  shown: number;
}
