// Time buckets recomputed in plain TypeScript (Intl's time zone data, no SQL), to check the API's:
// the instant an hour, day, week (Monday), month or year starts at in a zone.
export type Unit = "hour" | "day" | "week" | "month" | "year";

const formats = new Map<string, Intl.DateTimeFormat>();

/** The local calendar fields of an instant in a zone. */
export function localFields(tz: string, t: number) {
  let f = formats.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: tz,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formats.set(tz, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(t)).map((x) => [x.type, x.value]));
  return { y: Number(p.year), m: Number(p.month), d: Number(p.day), h: Number(p.hour), minute: Number(p.minute), second: Number(p.second) };
}

/** The instant of local midnight of a date in a zone (zones whose daylight saving does not move midnight). */
export function localMidnight(tz: string, y: number, m: number, d: number): number {
  const wall = Date.UTC(y, m - 1, d);
  let t = wall;
  for (let i = 0; i < 3; i++) {
    const l = localFields(tz, t);
    const shown = Date.UTC(l.y, l.m - 1, l.d, l.h, l.minute, l.second);
    t += wall - shown;
  }
  return t;
}

/** The instant the bucket containing `t` starts at. */
export function bucketStart(tz: string, unit: Unit, t: number): number {
  const l = localFields(tz, t);
  if (unit === "hour") return t - (l.minute * 60 + l.second) * 1000 - (((t % 1000) + 1000) % 1000);
  if (unit === "year") return localMidnight(tz, l.y, 1, 1);
  if (unit === "month") return localMidnight(tz, l.y, l.m, 1);
  const date = new Date(Date.UTC(l.y, l.m - 1, l.d));
  if (unit === "week") date.setUTCDate(date.getUTCDate() - ((date.getUTCDay() + 6) % 7));
  return localMidnight(tz, date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate());
}
