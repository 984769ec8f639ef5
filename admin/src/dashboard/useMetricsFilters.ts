// The metrics' range, interval and products, kept in the page's URL (so a view can be shared and
// survives a reload), and what follows from them: the query for GET /v1/metrics/, the previous
// period of the same length, and which intervals the range allows (GET /v1/metrics/limits).
import { useEffect, useMemo, useState } from "react";
import { useDataProvider } from "react-admin";
import { useSearchParams } from "react-router-dom";
import type { MetricsLimits, TimeInterval } from "../api";
import type { BorealisDataProvider } from "../dataProvider";

export const INTERVALS: { id: TimeInterval; name: string }[] = [
  { id: "hour", name: "Hourly" },
  { id: "day", name: "Daily" },
  { id: "week", name: "Weekly" },
  { id: "month", name: "Monthly" },
  { id: "year", name: "Yearly" },
];

const DAY_MS = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const iso = (t: number) => new Date(t).toISOString().slice(0, 10);
const parse = (d: string) => Date.parse(`${d}T00:00:00Z`);
/** Today in the reader's time zone, as YYYY-MM-DD. */
const today = () => new Date().toLocaleDateString("en-CA");

export interface MetricsFilters {
  start: string;
  end: string;
  interval: TimeInterval;
  productIds: string[];
  /** The default view: the last 30 days, by day, every product. */
  isDefault: boolean;
  /** Days from start to end (0 for one day); NaN when a date is not one. */
  days: number;
  /** The query for GET /v1/metrics/ (null while the dates make no range). */
  query: Record<string, unknown> | null;
  /** The same query over the period of the same length just before (null before the limits' first day). */
  previousQuery: Record<string, unknown> | null;
  previousStart: string | null;
  previousEnd: string | null;
  /** The first day the metrics cover (GET /v1/metrics/limits). */
  minDate: string;
  /** Whether the limits allow `interval` over this range (true until they are known). */
  allows: (interval: TimeInterval) => boolean;
  set: (patch: Partial<Pick<MetricsFilters, "start" | "end" | "interval" | "productIds">>) => void;
}

export function useMetricsFilters(): MetricsFilters {
  const dataProvider = useDataProvider<BorealisDataProvider>();
  const [params, setParams] = useSearchParams();
  const [limits, setLimits] = useState<MetricsLimits | null>(null);
  useEffect(() => {
    dataProvider.getMetricsLimits().then(
      ({ data }) => setLimits(data),
      () => setLimits(null),
    );
  }, [dataProvider]);

  const defaultEnd = today();
  const defaultStart = iso(parse(defaultEnd) - 29 * DAY_MS);
  const start = params.get("from") ?? defaultStart;
  const end = params.get("to") ?? defaultEnd;
  const interval = (INTERVALS.find((i) => i.id === params.get("interval"))?.id ?? "day") as TimeInterval;
  const productIds = params.getAll("product");

  return useMemo(() => {
    const valid = DATE.test(start) && DATE.test(end) && !Number.isNaN(parse(start)) && !Number.isNaN(parse(end));
    const days = valid ? (parse(end) - parse(start)) / DAY_MS : NaN;
    const allows = (i: TimeInterval) => {
      if (!limits || Number.isNaN(days)) return true;
      const l = limits.intervals[i];
      return days >= l.min_days && days <= l.max_days;
    };
    const timezone = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
    const base = (s: string, e: string) => ({
      start_date: s,
      end_date: e,
      interval,
      timezone,
      ...(productIds.length ? { product_id: productIds } : {}),
    });
    const ok = valid && days >= 0;
    const previousStart = ok ? iso(parse(start) - (days + 1) * DAY_MS) : null;
    const previousEnd = ok ? iso(parse(start) - DAY_MS) : null;
    const minDate = limits?.min_date ?? "2023-01-01";
    const hasPrevious = previousStart !== null && previousEnd !== null && previousStart >= minDate;
    return {
      start,
      end,
      interval,
      productIds,
      isDefault: !params.get("from") && !params.get("to") && !params.get("interval") && productIds.length === 0,
      days,
      query: ok ? base(start, end) : null,
      previousQuery: hasPrevious ? base(previousStart, previousEnd) : null,
      previousStart: hasPrevious ? previousStart : null,
      previousEnd: hasPrevious ? previousEnd : null,
      minDate,
      allows,
      set: (patch) => {
        // the address as it is now: a change typed right after another may come before the page
        // has re-rendered with the first, and must not drop it
        const next = new URLSearchParams(window.location.search);
        if (patch.start !== undefined) next.set("from", patch.start);
        if (patch.end !== undefined) next.set("to", patch.end);
        if (patch.interval !== undefined) next.set("interval", patch.interval);
        if (patch.productIds !== undefined) {
          next.delete("product");
          for (const id of patch.productIds) next.append("product", id);
        }
        // a range the interval cannot cover takes the finest interval that can
        const s = next.get("from") ?? start;
        const e = next.get("to") ?? end;
        const d = (parse(e) - parse(s)) / DAY_MS;
        const i = (next.get("interval") ?? interval) as TimeInterval;
        if (limits && !Number.isNaN(d) && d >= 0) {
          const fits = (x: TimeInterval) => d >= limits.intervals[x].min_days && d <= limits.intervals[x].max_days;
          if (!fits(i)) {
            const finest = INTERVALS.map((x) => x.id).find(fits);
            if (finest) next.set("interval", finest);
          }
        }
        setParams(next, { replace: true });
      },
    };
    // productIds is a new array each render; its joined value is what changes
  }, [start, end, interval, productIds.join(","), limits, params, setParams]);
}

/** A period's label on a chart's axis, as fine as its interval. */
export function periodLabel(timestamp: string, interval: TimeInterval): string {
  const d = new Date(timestamp);
  switch (interval) {
    case "hour":
      return d.toLocaleString(undefined, { day: "2-digit", month: "2-digit", hour: "2-digit", minute: "2-digit" });
    case "day":
    case "week":
      return d.toLocaleDateString(undefined, { day: "2-digit", month: "short" });
    case "month":
      return d.toLocaleDateString(undefined, { month: "short", year: "numeric" });
    case "year":
      return String(d.getFullYear());
  }
}

/** A range as the reader reads dates: "1 Mar 2025 – 31 Mar 2025". */
export function rangeLabel(start: string, end: string): string {
  const f = (d: string) => new Date(`${d}T00:00:00`).toLocaleDateString(undefined, { day: "numeric", month: "short", year: "numeric" });
  return start === end ? f(start) : `${f(start)} – ${f(end)}`;
}
