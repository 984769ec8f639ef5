// Billing periods, anchored to the start: a period spans `count` intervals (every 3 months), and
// period n ends at anchor + (n + 1) × count intervals, with the day of month clamped to the
// month's length (Jan 31 → Feb 28 or 29 → Mar 31 → Apr 30 → May 31), never "previous end + 1
// month", which would drift to the 28th for good. All in UTC.
export type RecurringInterval = "day" | "week" | "month" | "year";

function addMonthsClamped(anchor: Date, months: number): Date {
  const y = anchor.getUTCFullYear();
  const m = anchor.getUTCMonth() + months;
  const targetYear = y + Math.floor(m / 12);
  const targetMonth = ((m % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(targetYear, targetMonth + 1, 0)).getUTCDate();
  const day = Math.min(anchor.getUTCDate(), lastDay);
  return new Date(
    Date.UTC(
      targetYear,
      targetMonth,
      day,
      anchor.getUTCHours(),
      anchor.getUTCMinutes(),
      anchor.getUTCSeconds(),
      anchor.getUTCMilliseconds(),
    ),
  );
}

/** anchor + n intervals. */
export function addIntervals(anchor: Date, interval: RecurringInterval, n: number): Date {
  switch (interval) {
    case "day":
      return new Date(anchor.getTime() + n * 86_400_000);
    case "week":
      return new Date(anchor.getTime() + n * 7 * 86_400_000);
    case "month":
      return addMonthsClamped(anchor, n);
    case "year":
      return addMonthsClamped(anchor, 12 * n);
  }
}

/** Start and end of period `index` (0 is the first) of a subscription anchored at `anchor`, billed every `count` intervals. */
export function periodBounds(anchor: Date, interval: RecurringInterval, count: number, index: number): { start: Date; end: Date } {
  return { start: addIntervals(anchor, interval, index * count), end: addIntervals(anchor, interval, (index + 1) * count) };
}
