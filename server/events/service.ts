// Events: ingestion (batches of up to 1,000, all-or-nothing, idempotent by external id), listing with
// every filter (the filter tree and a meter's filter included), event names with their statistics,
// and reads by id.
import type { Knex } from "knex";
import type { OpBody, OpQuery } from "../../generated/handlers.js";
import type { OrganizationCaller } from "../kit/auth.js";
import { invalid, RequestValidationError, ResourceNotFound, type ValidationIssue } from "../kit/errors.js";
import { asList, isUuid } from "../kit/ids.js";
import { checkMetadata } from "../kit/metadata.js";
import { applyMetadataFilter, applySorting, listPage, type Page } from "../kit/pagination.js";
import { checkFilter, filterSql } from "../meters/filter.js";
import { findReadable as findMeter } from "../meters/repository.js";
import { toEvent, toEventName, type EventNameOut, type EventOut } from "./models.js";
import {
  countNames,
  customerOf,
  customersOf,
  eventNames,
  findReadable,
  namesOf,
  readable,
  whereCustomers,
  whereExternalCustomers,
  whereSearch,
  type EventRow,
} from "../meters/events-repository.js";
import { eventRefs } from "../customers/repository.js";
import { storeEvents, type NewEvent } from "./store.js";
import { typesOfNames, withTypes, type TypedNameRow } from "./event-types-repository.js";

export type IngestInput = OpBody<"events:ingest">;
export type EventListQuery = OpQuery<"events:list">;
export type EventNamesQuery = OpQuery<"events:list_names">;

const MAX_NAME_LENGTH = 400;
/** How far ahead of the customer's now an event may be stamped (clocks drift). */
const FUTURE_TOLERANCE_MS = 5 * 60_000;
/** Retries of a batch that lost a deadlock against another writer of the same rollup rows. */
const DEADLOCK_RETRIES = 3;

interface CustomerRef {
  id: string;
  external_id: string | null;
  frozen_time: Date | null;
}

function issueOf(err: unknown): ValidationIssue[] {
  if (err instanceof RequestValidationError) return err.issues;
  throw err;
}

async function retryDeadlocks<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (attempt > DEADLOCK_RETRIES || (code !== "40P01" && code !== "40001")) throw err;
    }
  }
}

/**
 * Stores a batch whole or not at all. Every item is checked first and every problem reported at
 * once, each with the item's index in `loc`. An event's customer is its `customer_id` (a live
 * customer of the organization) or the live customer with its `external_customer_id`; an external
 * id no customer has yet is kept and attributed when that customer appears. Without a timestamp an
 * event happens now (its customer's test clock's now, when bound to one).
 */
export async function ingestEvents(db: Knex, caller: OrganizationCaller, input: IngestInput): Promise<{ inserted: number }> {
  const issues: ValidationIssue[] = [];
  const items = input.events;
  const checked = items.map((item, i) => {
    const loc = ["body", "events", i];
    if (item.organization_id && item.organization_id !== caller.organizationId) {
      issues.push({
        loc: [...loc, "organization_id"],
        msg: "Organization not found or not accessible with this token.",
        type: "value_error",
      });
    }
    const name = item.name.trim();
    if (name.length === 0 || name.length > MAX_NAME_LENGTH) {
      issues.push({ loc: [...loc, "name"], msg: `String should have 1 to ${MAX_NAME_LENGTH} characters`, type: "string_too_short" });
    }
    let metadata: Record<string, unknown> = {};
    try {
      metadata = checkMetadata(item.metadata, [...loc, "metadata"]);
    } catch (err) {
      issues.push(...issueOf(err));
    }
    const timestamp = item.timestamp ? new Date(item.timestamp) : null;
    if (timestamp && Number.isNaN(timestamp.getTime()))
      issues.push({ loc: [...loc, "timestamp"], msg: "Input should be a valid datetime", type: "datetime_parsing" });
    const customerId = "customer_id" in item ? item.customer_id : null;
    const externalCustomerId = "external_customer_id" in item ? item.external_customer_id : null;
    if (customerId !== null && !isUuid(customerId))
      issues.push({ loc: [...loc, "customer_id"], msg: "Customer not found.", type: "value_error" });
    return { name, metadata, timestamp, customerId, externalCustomerId, externalId: item.external_id ?? null };
  });

  // Every problem of the batch is reported at once, the ones that take the customers' rows too.
  return retryDeadlocks(() =>
    db.transaction(async (trx) => {
      const found = [...issues];
      const customers = await customerRefs(trx, caller.organizationId, checked);
      const realNow = Date.now();
      const rows: NewEvent[] = checked.map((e, i) => {
        const loc = ["body", "events", i];
        const customer =
          e.customerId !== null
            ? customers.byId.get(e.customerId)
            : e.externalCustomerId !== null
              ? customers.byExternal.get(e.externalCustomerId)
              : undefined;
        if (e.customerId !== null && isUuid(e.customerId) && !customer)
          found.push({ loc: [...loc, "customer_id"], msg: "Customer not found.", type: "value_error" });
        const now = customer?.frozen_time ? new Date(customer.frozen_time).getTime() : realNow;
        if (e.timestamp && e.timestamp.getTime() > now + FUTURE_TOLERANCE_MS) {
          found.push({ loc: [...loc, "timestamp"], msg: "Timestamp must be in the past.", type: "value_error" });
        }
        return {
          timestamp: e.timestamp ?? new Date(now),
          name: e.name,
          source: "user",
          customerId: customer?.id ?? null,
          externalCustomerId: e.externalCustomerId ?? customer?.external_id ?? null,
          externalId: e.externalId,
          metadata: e.metadata,
        };
      });
      if (found.length) throw new RequestValidationError(found.sort((a, b) => Number(a.loc[2]) - Number(b.loc[2])));
      return { inserted: await storeEvents(trx, caller.organizationId, rows) };
    }),
  );
}

/** The batch's customers (live, of the organization) by id and by external id, with their test clock's time. */
async function customerRefs(
  db: Knex,
  organizationId: string,
  items: { customerId: string | null; externalCustomerId: string | null }[],
): Promise<{ byId: Map<string, CustomerRef>; byExternal: Map<string, CustomerRef> }> {
  const ids = [...new Set(items.map((i) => i.customerId).filter(isUuid))];
  const external = [
    ...new Set(
      items
        .filter((i) => i.customerId === null)
        .map((i) => i.externalCustomerId)
        .filter((v): v is string => v !== null),
    ),
  ];
  const byId = new Map<string, CustomerRef>();
  const byExternal = new Map<string, CustomerRef>();
  if (ids.length === 0 && external.length === 0) return { byId, byExternal };
  const rows: CustomerRef[] = await eventRefs(db, organizationId, ids, external);
  for (const r of rows) {
    byId.set(r.id, r);
    if (r.external_id !== null) byExternal.set(r.external_id, r);
  }
  return { byId, byExternal };
}

async function toEvents(db: Knex, organizationId: string, rows: EventRow[]): Promise<EventOut[]> {
  const names = [...new Set(rows.filter((r) => r.source === "user").map((r) => r.name))];
  const [customers, types] = await Promise.all([
    customersOf(db, organizationId, rows),
    names.length ? typesOfNames(db, organizationId, names) : [],
  ]);
  const typeOf = new Map(types.map((t) => [t.name, t]));
  return rows.map((r) => toEvent(r, customerOf(r, customers), r.source === "user" ? typeOf.get(r.name) : undefined));
}

export async function getEvent(db: Knex, caller: OrganizationCaller, id: string): Promise<EventOut> {
  const row = await findReadable(db, caller.organizationId, id);
  if (!row) throw new ResourceNotFound("Event not found.");
  return (await toEvents(db, caller.organizationId, [row]))[0];
}

function parseFilterParam(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw invalid(["query", "filter"], "Invalid JSON", "json_invalid", raw);
  }
}

export async function listEvents(db: Knex, caller: OrganizationCaller, query: EventListQuery): Promise<Page<EventOut>> {
  const org = caller.organizationId;
  const q = readable(db, org).select("events.*");
  const orgs = asList(query.organization_id);
  if (orgs.length) q.whereIn("events.organization_id", orgs.filter(isUuid));
  if (query.filter) {
    const f = filterSql(checkFilter(parseFilterParam(query.filter), ["query", "filter"]));
    q.whereRaw(f.sql, f.bindings);
  }
  if (query.meter_id) {
    const meter = await findMeter(db, caller, query.meter_id);
    if (!meter) throw invalid(["query", "meter_id"], "Meter not found.", "value_error", query.meter_id);
    const f = filterSql(meter.filter);
    q.whereRaw(f.sql, f.bindings);
  }
  if (query.start_timestamp) q.where("events.timestamp", ">=", new Date(query.start_timestamp));
  if (query.end_timestamp) q.where("events.timestamp", "<", new Date(query.end_timestamp));
  const customerIds = asList(query.customer_id);
  if (customerIds.length) whereCustomers(q, db, org, customerIds);
  const externalIds = asList(query.external_customer_id);
  if (externalIds.length) whereExternalCustomers(q, db, org, externalIds);
  const names = asList(query.name);
  if (names.length) q.whereIn("events.name", names);
  const sources = asList(query.source);
  if (sources.length) q.whereIn("events.source", sources);
  if (query.query) {
    // As Polar's: a search needs the organization named.
    if (!orgs.length)
      throw invalid(["query", "query"], "Query is only supported when organization_id is provided.", "value_error", query.query);
    whereSearch(q, db, org, `%${query.query.replace(/[\\%_]/g, "\\$&")}%`);
  }
  // Events are ingested without a parent: every event is a root (so any depth keeps them all),
  // and no event descends from parent_id.
  if (query.parent_id) q.whereRaw("false");
  applyMetadataFilter(q, "events.metadata", query.metadata);
  applySorting(q, query.sorting, { timestamp: "events.timestamp" }, ["-timestamp"], "events.id");
  return listPage(q, query, (rows: EventRow[]) => toEvents(db, org, rows));
}

/**
 * The event names' statistics, filtered: from the statistics kept at every write, or, for some
 * customers only, counted from their events.
 */
export function nameStatistics(
  db: Knex,
  caller: OrganizationCaller,
  query: Pick<EventNamesQuery, "customer_id" | "external_customer_id" | "organization_id"> & {
    source?: EventNamesQuery["source"] | "user" | "system";
  },
): Knex.QueryBuilder {
  const org = caller.organizationId;
  const customerIds = asList(query.customer_id);
  const externalIds = asList(query.external_customer_id);
  let source: Knex.QueryBuilder;
  if (customerIds.length || externalIds.length) {
    const events = readable(db, org);
    if (customerIds.length) whereCustomers(events, db, org, customerIds);
    if (externalIds.length) whereExternalCustomers(events, db, org, externalIds);
    source = countNames(db, events);
  } else {
    source = eventNames(db, org);
  }
  const q = namesOf(db, source);
  const orgs = asList(query.organization_id);
  if (orgs.length) q.whereIn("names.organization_id", orgs.filter(isUuid));
  const sources = asList(query.source);
  if (sources.length) q.whereIn("names.source", sources);
  return q;
}

/** A case-insensitive substring pattern for ilike (% and _ are literal). */
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, "\\$&")}%`;

/** Event names with how often and when they occurred. */
export async function listEventNames(db: Knex, caller: OrganizationCaller, query: EventNamesQuery): Promise<Page<EventNameOut>> {
  const q = withTypes(nameStatistics(db, caller, query));
  if (query.query) q.whereRaw("names.name ilike ?", [likePattern(query.query)]);
  applySorting(
    q,
    query.sorting,
    { name: "names.name", occurrences: "names.occurrences", first_seen: "names.first_seen", last_seen: "names.last_seen" },
    ["-last_seen"],
    "names.name",
  );
  q.orderBy("names.source");
  return listPage(q, query, (rows: TypedNameRow[]) => rows.map(toEventName));
}
