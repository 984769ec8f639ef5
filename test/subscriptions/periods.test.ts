// Billing periods are anchored to the start date: month ends clamp and come back.
import { describe, expect, it } from "vitest";
import { addIntervals, periodBounds } from "../../server/subscriptions/periods.js";

const iso = (d: Date) => d.toISOString();

describe("billing periods", () => {
  it("anchors monthly periods to the 31st: Jan 31 → Feb 29 (leap year) → Mar 31 → Apr 30 → May 31", () => {
    const anchor = new Date("2028-01-31T10:00:00Z");
    const ends = [0, 1, 2, 3, 4].map((n) => iso(periodBounds(anchor, "month", 1, n).end));
    expect(ends).toEqual([
      "2028-02-29T10:00:00.000Z",
      "2028-03-31T10:00:00.000Z",
      "2028-04-30T10:00:00.000Z",
      "2028-05-31T10:00:00.000Z",
      "2028-06-30T10:00:00.000Z",
    ]);
    expect(iso(addIntervals(new Date("2027-01-31T00:00:00Z"), "month", 1))).toBe("2027-02-28T00:00:00.000Z");
  });

  it("keeps each period's start at the previous end", () => {
    const anchor = new Date("2028-01-31T10:00:00Z");
    for (let n = 1; n < 24; n++) expect(periodBounds(anchor, "month", 1, n).start).toEqual(periodBounds(anchor, "month", 1, n - 1).end);
  });

  it("spans `count` intervals a period, anchored still: every 3 months from Nov 30 (Feb 29, May 30, Aug 30), every 2 years", () => {
    const anchor = new Date("2027-11-30T08:00:00Z");
    expect([0, 1, 2].map((n) => iso(periodBounds(anchor, "month", 3, n).end))).toEqual([
      "2028-02-29T08:00:00.000Z",
      "2028-05-30T08:00:00.000Z",
      "2028-08-30T08:00:00.000Z",
    ]);
    expect(periodBounds(anchor, "month", 3, 2).start).toEqual(periodBounds(anchor, "month", 3, 1).end);
    expect(iso(periodBounds(new Date("2028-02-29T00:00:00Z"), "year", 2, 1).end)).toBe("2032-02-29T00:00:00.000Z");
    expect(iso(periodBounds(anchor, "week", 2, 1).start)).toBe("2027-12-14T08:00:00.000Z");
  });

  it("counts days, weeks and years (Feb 29 → Feb 28 in a common year, back to Feb 29 in the next leap year)", () => {
    const t = new Date("2028-02-29T12:00:00Z");
    expect(iso(addIntervals(t, "day", 3))).toBe("2028-03-03T12:00:00.000Z");
    expect(iso(addIntervals(t, "week", 2))).toBe("2028-03-14T12:00:00.000Z");
    expect(iso(addIntervals(t, "year", 1))).toBe("2029-02-28T12:00:00.000Z");
    expect(iso(addIntervals(t, "year", 4))).toBe("2032-02-29T12:00:00.000Z");
  });
});
