// The tax report (a Borealis extension): per period, currency, country, rate and
// taxability reason, what paid orders charged and what refunds handed back, as an EU OSS return
// declares it. A refund counts in the period it was made, against its order's country and rate.
import type { Knex } from "knex";
import type { components, operations } from "../../generated/types.js";
import type { OrganizationCaller } from "../kit/auth.js";
import { invalid } from "../kit/errors.js";
import { taxReportGroups } from "./repository.js";

type TaxReport = components["schemas"]["TaxReport"];
type TaxReportPeriod = components["schemas"]["TaxReportPeriod"];
type TaxReportQuery = NonNullable<operations["tax:report"]["parameters"]["query"]>;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const MAX_YEARS = 5;

function checkDate(value: string, loc: (string | number)[]): Date {
  const t = new Date(`${value}T00:00:00Z`);
  if (!DATE.test(value) || Number.isNaN(t.getTime()) || t.toISOString().slice(0, 10) !== value) {
    throw invalid(loc, "Input should be a valid date in the format YYYY-MM-DD", "date_from_datetime_parsing", value);
  }
  return t;
}

const day = (d: Date) => d.toISOString().slice(0, 10);
const addMonths = (d: Date, n: number) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1));

type Period = Omit<TaxReportPeriod, "rows"> & { first: string };

/** The calendar periods from `start` to `end` (both days counted), each clipped to the range; `first` is its first day unclipped. */
function periodsOf(unit: "month" | "quarter", start: Date, end: Date): Period[] {
  const months = unit === "month" ? 1 : 3;
  const out: Period[] = [];
  let from = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() - (start.getUTCMonth() % months), 1));
  while (from <= end) {
    const next = addMonths(from, months);
    const name = unit === "month" ? day(from).slice(0, 7) : `${from.getUTCFullYear()}-Q${from.getUTCMonth() / 3 + 1}`;
    out.push({
      first: day(from),
      period: name,
      start_date: day(from < start ? start : from),
      end_date: day(next > end ? end : new Date(next.getTime() - 86_400_000)),
    });
    from = next;
  }
  return out;
}

export async function getTaxReport(db: Knex, caller: OrganizationCaller, query: TaxReportQuery): Promise<TaxReport> {
  const start = checkDate(query.start_date, ["query", "start_date"]);
  const end = checkDate(query.end_date, ["query", "end_date"]);
  if (end < start) throw invalid(["query", "end_date"], "The end date must be on or after the start date.", "value_error", query.end_date);
  if (end >= new Date(Date.UTC(start.getUTCFullYear() + MAX_YEARS, start.getUTCMonth(), start.getUTCDate()))) {
    throw invalid(["query", "end_date"], `The range is at most ${MAX_YEARS} years.`, "value_error", query.end_date);
  }
  const interval = query.interval ?? "month";
  const periods = periodsOf(interval, start, end);
  const groups = await taxReportGroups(db, caller.organizationId, interval, start, new Date(end.getTime() + 86_400_000));
  return {
    start_date: query.start_date,
    end_date: query.end_date,
    interval,
    periods: periods.map(({ first, ...p }) =>
      Object.assign(p, {
        rows: groups
          .filter((g) => g.period === first)
          .map(({ period: _period, ...g }) =>
            Object.assign(g, {
              net_amount: g.sales_net_amount - g.refunded_net_amount,
              tax_amount: g.sales_tax_amount - g.refunded_tax_amount,
            }),
          ),
      }),
    ),
  };
}
