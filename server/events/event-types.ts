// Event types (event-types:list, event-types:update): the event names ingestion has seen with
// their statistics and labels, and a user name's label set by the merchant. System names keep
// their fixed labels and have no type to update. Every event is stored as a root event, so
// `root_events` narrows nothing and a `parent_id` matches nothing, as in the events list.
import type { Knex } from "knex";
import type { OpBody, OpQuery } from "../../generated/handlers.js";
import type { OrganizationCaller } from "../kit/auth.js";
import { invalid, ResourceNotFound } from "../kit/errors.js";
import { applySorting, listPage, type Page } from "../kit/pagination.js";
import { findEventType, typedLabel, updateEventType as updateRow, withTypes, type TypedNameRow } from "./event-types-repository.js";
import { SYSTEM_LABELS, toEventType, toEventTypeWithStats, type EventTypeOut, type EventTypeWithStatsOut } from "./models.js";
import { likePattern, nameStatistics } from "./service.js";

export async function listEventTypes(
  db: Knex,
  caller: OrganizationCaller,
  query: OpQuery<"event-types:list">,
): Promise<Page<EventTypeWithStatsOut>> {
  const q = withTypes(nameStatistics(db, caller, query));
  const label = typedLabel(db, SYSTEM_LABELS);
  if (query.query) {
    const like = likePattern(query.query);
    q.whereRaw(`(names.name ilike ? or ${label.toQuery()} ilike ?)`, [like, like]);
  }
  if (query.parent_id) q.whereRaw("false");
  applySorting(
    q,
    query.sorting,
    { name: "names.name", label, occurrences: "names.occurrences", first_seen: "names.first_seen", last_seen: "names.last_seen" },
    ["-last_seen"],
    "names.name",
  );
  q.orderBy("names.source");
  return listPage(q, query, (rows: TypedNameRow[]) => rows.map(toEventTypeWithStats));
}

export async function updateEventType(
  db: Knex,
  caller: OrganizationCaller,
  id: string,
  input: OpBody<"event-types:update">,
): Promise<EventTypeOut> {
  const label = input.label.trim();
  if (!label) throw invalid(["body", "label"], "Label cannot be empty or only whitespace", "value_error", input.label);
  // As Polar: the selector is replaced by the body's, a blank one (or none) clearing it.
  const selector = input.label_property_selector?.trim() || null;
  return db.transaction(async (trx) => {
    const row = await findEventType(trx, caller, id, { forUpdate: true });
    if (!row) throw new ResourceNotFound("Event type not found.");
    return toEventType(await updateRow(trx, row.id, { label, label_property_selector: selector, modified_at: new Date() }));
  });
}
