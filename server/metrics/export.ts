// The metrics export (metrics:export): metrics:get's periods as CSV, a row per period (its
// timestamp in the asked time zone) and a column per asked metric, named by its display name,
// in the order of the metrics' list, as Polar writes it.
import type { Knex } from "knex";
import type { OrganizationCaller } from "../kit/auth.js";
import { csvFile } from "../kit/csv.js";
import { checkTimeZone, zonedIso } from "../kit/timezones.js";
import { METRICS } from "./definitions.js";
import { getMetrics, type MetricsQuery } from "./service.js";

export async function exportMetrics(db: Knex, caller: OrganizationCaller, query: MetricsQuery): Promise<string> {
  const report = await getMetrics(db, caller, query);
  const tz = await checkTimeZone(db, query.timezone, ["query", "timezone"]);
  const shown = METRICS.filter((m) => report.metrics[m.slug] !== undefined);
  return csvFile(
    ["Timestamp", ...shown.map((m) => m.display_name)],
    report.periods.map((p) => [zonedIso(tz, new Date(p.timestamp)), ...shown.map((m) => p[m.slug])]),
  );
}
