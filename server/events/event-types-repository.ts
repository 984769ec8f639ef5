// Every statement on event_types: the label of each user event name an organization's events
// have used. A trigger on event_names makes a name's row when ingestion first counts it (0176).
import type { Knex } from "knex";
import type { OrganizationCaller } from "../kit/auth.js";
import { isUuid } from "../kit/ids.js";
import { updateReturning } from "../kit/rows.js";

export interface EventTypeRow {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  organization_id: string;
  name: string;
  label: string;
  label_property_selector: string | null;
}

/** A name's statistics (meters' namesOf) with its type, when it has one (user names only). */
export interface TypedNameRow {
  organization_id: string;
  name: string;
  source: "user" | "system";
  occurrences: number;
  first_seen: Date;
  last_seen: Date;
  id: string | null;
  created_at: Date | null;
  modified_at: Date | null;
  label: string | null;
  label_property_selector: string | null;
}

/** `names` (meters' namesOf over event_names or counted events) with each user name's type. */
export function withTypes(names: Knex.QueryBuilder): Knex.QueryBuilder {
  return names
    .leftJoin("event_types", (j) => {
      j.on("event_types.organization_id", "=", "names.organization_id")
        .andOn("event_types.name", "=", "names.name")
        .andOnVal("names.source", "=", "user");
    })
    .select(
      "names.organization_id",
      "event_types.id",
      "event_types.created_at",
      "event_types.modified_at",
      "event_types.label",
      "event_types.label_property_selector",
    );
}

/** The label a row of withTypes shows: a system name's from `systemLabels`, a user name's type's, else the name. */
export function typedLabel(db: Knex, systemLabels: Record<string, string>): Knex.Raw {
  const pairs = Object.entries(systemLabels);
  const cases = pairs.map(() => "when ? then ?").join(" ");
  return db.raw(
    `(case when names.source = 'system' then coalesce(case names.name ${cases} end, names.name) else coalesce(event_types.label, names.name) end)`,
    pairs.flat(),
  );
}

/** The organization's types of these names. */
export function typesOfNames(db: Knex, organizationId: string, names: string[]): Promise<EventTypeRow[]> {
  return db("event_types").where("organization_id", organizationId).whereIn("name", names);
}

export async function findEventType(
  db: Knex,
  caller: OrganizationCaller,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<EventTypeRow | undefined> {
  if (!isUuid(id)) return undefined;
  const q = db("event_types").where({ organization_id: caller.organizationId, id }).first();
  return (opts.forUpdate ? q.forUpdate() : q) as Promise<EventTypeRow | undefined>;
}

export function updateEventType(db: Knex, id: string, patch: Partial<EventTypeRow>): Promise<EventTypeRow> {
  return updateReturning<EventTypeRow>(db, "event_types", id, patch);
}
