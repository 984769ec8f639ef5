// The metrics report's one statement that reads no table: the periods of its range (the source
// tables' grouped statements are their owners': orders' orderBuckets, subscriptions'
// subscriptionDeltas, checkouts' checkoutBuckets, on server/kit/report.ts's bucketing and filters).
import type { Knex } from "knex";
import { rowsOf } from "../kit/rows.js";
import { truncIn, zoneLiteral, type TimeUnit } from "../kit/timezones.js";

export interface Period {
  timestamp: Date;
  bucket: Date;
  next: Date;
}

/**
 * One timestamp per period, from local midnight of the start date by one local unit (an hour
 * is an hour) up to the end of the end date, and the bucket each one names.
 */
export async function reportPeriods(db: Knex, unit: TimeUnit, timeZone: string, startDate: string, endDate: string): Promise<Period[]> {
  const TZ = zoneLiteral(timeZone);
  const trunc = truncIn(unit, timeZone);
  const seriesSql =
    unit === "hour"
      ? `select s as timestamp, ${trunc("s")} as bucket, ${trunc("s")} + interval '1 hour' as next
         from generate_series((?::date)::timestamp at time zone ${TZ}, ((?::date + 1)::timestamp - interval '1 microsecond') at time zone ${TZ}, interval '1 hour') as s`
      : `select s at time zone ${TZ} as timestamp, ${trunc(`s at time zone ${TZ}`)} as bucket,
           ((${trunc(`s at time zone ${TZ}`)} at time zone ${TZ}) + interval '1 ${unit}') at time zone ${TZ} as next
         from generate_series((?::date)::timestamp, (?::date + 1)::timestamp - interval '1 microsecond', interval '1 ${unit}') as s`;
  return rowsOf<Period>(db.raw(seriesSql, [startDate, endDate]));
}
