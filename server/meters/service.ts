// Meter rules: name, filter tree and aggregation validated; archiving refused while live prices
// or benefits use the meter; quantities aggregated from the events table per interval.
import type { Knex } from "knex";
import type { components } from "../../generated/types.js";
import type { OrganizationCaller } from "../kit/auth.js";
import { invalid, ResourceNotFound } from "../kit/errors.js";
import { asList, isUuid } from "../kit/ids.js";
import { checkMetadata } from "../kit/metadata.js";
import { applyMetadataFilter, applySorting, listPage, type Page } from "../kit/pagination.js";
import { aggregationSql, checkAggregation, checkFilter, filterSql } from "./filter.js";
import { toMeter, type MeterOut, type MeterQuantitiesOut, type MeterRow } from "./models.js";
import { activeBenefitsUsing, activePricesUsing, findReadable, readable } from "./repository.js";

type Schemas = components["schemas"];
export type MeterCreateInput = Schemas["MeterCreate"];
export type MeterUpdateInput = Schemas["MeterUpdate"];
export type TimeInterval = Schemas["TimeInterval"];

export interface MeterListQuery {
  organization_id?: string[] | string | null;
  query?: string | null;
  is_archived?: boolean | null;
  page?: number;
  limit?: number;
  sorting?: string[] | null;
  metadata?: Record<string, unknown> | null;
}

export interface QuantitiesQuery {
  start_timestamp: string;
  end_timestamp: string;
  interval: TimeInterval;
  customer_id?: string[] | string | null;
  external_customer_id?: string[] | string | null;
  metadata?: Record<string, unknown> | null;
}

function checkName(name: string): string {
  if (name.trim().length < 3) throw invalid(["body", "name"], "String should have at least 3 characters", "string_too_short");
  return name.trim();
}

export async function createMeter(db: Knex, caller: OrganizationCaller, input: MeterCreateInput): Promise<MeterOut> {
  if (input.organization_id && input.organization_id !== caller.organizationId) {
    throw invalid(["body", "organization_id"], "Organization not found or not accessible with this token.");
  }
  const name = checkName(input.name);
  const filter = checkFilter(input.filter, ["body", "filter"]);
  const aggregation = checkAggregation(input.aggregation, ["body", "aggregation"]);
  const metadata = checkMetadata(input.metadata);
  const [row] = await db("meters")
    .insert({
      organization_id: caller.organizationId,
      name,
      filter: JSON.stringify(filter),
      aggregation: JSON.stringify(aggregation),
      metadata: JSON.stringify(metadata),
    })
    .returning("*");
  return toMeter(row as MeterRow);
}

export async function getMeter(db: Knex, caller: OrganizationCaller, id: string): Promise<MeterOut> {
  const row = await findReadable(db, caller, id);
  if (!row) throw new ResourceNotFound("Meter not found.");
  return toMeter(row);
}

export async function listMeters(db: Knex, caller: OrganizationCaller, query: MeterListQuery): Promise<Page<MeterOut>> {
  const q = readable(db, caller).select("meters.*");
  const orgs = asList(query.organization_id);
  if (orgs.length) q.whereIn("meters.organization_id", orgs.filter(isUuid));
  if (query.query) q.whereRaw("meters.name ilike ?", [`%${query.query.replace(/[\\%_]/g, "\\$&")}%`]);
  if (query.is_archived === true) q.whereNotNull("meters.archived_at");
  if (query.is_archived === false) q.whereNull("meters.archived_at");
  applyMetadataFilter(q, "meters.metadata", query.metadata);
  applySorting(q, query.sorting, { created_at: "meters.created_at", name: "meters.name" }, ["name"], "meters.id");
  return listPage(q, query, (rows: MeterRow[]) => rows.map(toMeter));
}

export async function updateMeter(db: Knex, caller: OrganizationCaller, id: string, input: MeterUpdateInput): Promise<MeterOut> {
  return db.transaction(async (trx) => {
    const row = await findReadable(trx, caller, id, { forUpdate: true });
    if (!row) throw new ResourceNotFound("Meter not found.");
    const patch: Record<string, unknown> = {};
    if (input.name !== undefined && input.name !== null) patch.name = checkName(input.name);
    if (input.filter !== undefined && input.filter !== null) patch.filter = JSON.stringify(checkFilter(input.filter, ["body", "filter"]));
    if (input.aggregation !== undefined && input.aggregation !== null) {
      patch.aggregation = JSON.stringify(checkAggregation(input.aggregation, ["body", "aggregation"]));
    }
    if (input.metadata !== undefined) patch.metadata = JSON.stringify(checkMetadata(input.metadata));
    if (input.is_archived === true && row.archived_at === null) {
      if ((await activePricesUsing(trx, row.id)) > 0) {
        throw invalid(["body", "is_archived"], "Cannot archive meter that is still attached to active products", "value_error", true);
      }
      if ((await activeBenefitsUsing(trx, row.id)) > 0) {
        throw invalid(["body", "is_archived"], "Cannot archive meter that is still referenced by active benefits", "value_error", true);
      }
      patch.archived_at = new Date();
    }
    if (input.is_archived === false) patch.archived_at = null;
    patch.modified_at = new Date();
    const [updated] = await trx("meters").where({ id: row.id }).update(patch).returning("*");
    return toMeter(updated as MeterRow);
  });
}

// Polar's bounds on a quantities request: no data before 2023, and a number of buckets that
// stays reasonable for the interval.
const MIN_TIMESTAMP = Date.UTC(2023, 0, 1);
const MAX_RANGE_DAYS: Record<TimeInterval, number> = { hour: 7, day: 366, week: 7 * 53, month: 365 * 4, year: 365 * 10 };
const DAY_MS = 86_400_000;

/** Days between the calendar dates (UTC) of two instants, as Polar compares them. */
function dayDistance(a: Date, b: Date): number {
  const day = (d: Date) => Math.floor(d.getTime() / DAY_MS);
  return day(b) - day(a);
}

export async function meterQuantities(
  db: Knex,
  caller: OrganizationCaller,
  id: string,
  query: QuantitiesQuery,
): Promise<MeterQuantitiesOut> {
  const meter = await findReadable(db, caller, id);
  if (!meter) throw new ResourceNotFound("Meter not found.");
  const start = new Date(query.start_timestamp);
  const end = new Date(query.end_timestamp);
  if (Number.isNaN(start.getTime())) throw invalid(["query", "start_timestamp"], "Input should be a valid datetime", "datetime_parsing");
  if (Number.isNaN(end.getTime())) throw invalid(["query", "end_timestamp"], "Input should be a valid datetime", "datetime_parsing");
  if (start.getTime() < MIN_TIMESTAMP) {
    throw invalid(["query", "start_timestamp"], "Input should be greater than or equal to 2023-01-01T00:00:00Z", "greater_than_equal");
  }
  const days = dayDistance(start, end);
  if (days < 0 || days > MAX_RANGE_DAYS[query.interval]) {
    throw invalid(["query"], "The interval is too small for the given date range. Use a larger interval or reduce the date range.", "value_error");
  }

  const unit = query.interval;
  const filter = filterSql(meter.filter);
  const agg = aggregationSql(meter.aggregation);
  // The events a meter reads: this organization's, through its filter, with the aggregated
  // property present, narrowed by the request's customer and metadata filters.
  const events = db("events")
    .where("events.organization_id", meter.organization_id)
    .whereRaw(filter.sql, filter.bindings)
    .whereRaw(agg.where.sql, agg.where.bindings)
    // Every bucket from the start's to the end's (a range the timestamp index can serve).
    .whereRaw("events.timestamp >= date_trunc(?, ?::timestamptz, 'UTC')", [unit, start.toISOString()])
    .whereRaw("events.timestamp < ((date_trunc(?, ?::timestamptz, 'UTC') at time zone 'UTC') + ?::interval) at time zone 'UTC'", [
      unit,
      end.toISOString(),
      `1 ${unit}`,
    ]);
  const customerIds = asList(query.customer_id).filter(isUuid);
  if (asList(query.customer_id).length) {
    // A customer's events carry its id, or only its external id when ingested that way.
    events.where((w) =>
      w.whereIn("events.customer_id", customerIds).orWhereExists(
        db("customers")
          .whereIn("customers.id", customerIds)
          .where("customers.organization_id", meter.organization_id)
          .whereRaw("customers.external_id = events.external_customer_id"),
      ),
    );
  }
  const externalIds = asList(query.external_customer_id);
  if (externalIds.length) {
    events.where((w) =>
      w.whereIn("events.external_customer_id", externalIds).orWhereExists(
        db("customers")
          .whereIn("customers.external_id", externalIds)
          .where("customers.organization_id", meter.organization_id)
          .whereRaw("customers.id = events.customer_id"),
      ),
    );
  }
  applyMetadataFilter(events, "events.metadata", query.metadata);

  // The series steps in UTC whatever the session's time zone (a day is 24 hours, months
  // keep their day of month).
  const seriesSql = "generate_series(?::timestamptz at time zone 'UTC', ?::timestamptz at time zone 'UTC', ?::interval) at time zone 'UTC'";
  const series = db.raw(`select ${seriesSql} as timestamp`, [
    start.toISOString(),
    end.toISOString(),
    `1 ${unit}`,
  ]);
  const buckets = events
    .clone()
    .select(db.raw("date_trunc(?, events.timestamp, 'UTC') as bucket", [unit]), db.raw(`${agg.value.sql} as quantity`, agg.value.bindings))
    .groupByRaw("1");
  const rows: { timestamp: Date; quantity: number | null }[] = await db
    .with("series", series)
    .with("buckets", buckets)
    .from("series")
    .joinRaw("left join buckets on buckets.bucket = date_trunc(?, series.timestamp, 'UTC')", [unit])
    .select("series.timestamp", "buckets.quantity")
    .orderBy("series.timestamp");

  // The total aggregates the events of every bucket at once (an average of averages, or a sum
  // of distinct counts, would be wrong).
  const total = await events
    .clone()
    .whereRaw(
      `date_trunc(?, events.timestamp, 'UTC') in (select date_trunc(?, s.timestamp, 'UTC') from (select ${seriesSql} as timestamp) as s)`,
      [unit, unit, start.toISOString(), end.toISOString(), `1 ${unit}`],
    )
    .first(db.raw(`${agg.value.sql} as total`, agg.value.bindings));

  return {
    quantities: rows.map((r) => ({ timestamp: new Date(r.timestamp).toISOString(), quantity: Number(r.quantity ?? 0) })),
    total: Number((total as { total: number | null } | undefined)?.total ?? 0),
  };
}
