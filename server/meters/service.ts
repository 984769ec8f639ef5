// Meter rules: name, filter tree and aggregation validated; archiving refused while live prices
// or benefits use the meter; rollups rebuilt when what a meter counts changes (quantities.ts reads them).
import type { Knex } from "knex";
import type { components } from "../../generated/types.js";
import type { OrganizationCaller } from "../kit/auth.js";
import { invalid, ResourceNotFound } from "../kit/errors.js";
import { asList, isUuid } from "../kit/ids.js";
import { checkMetadata } from "../kit/metadata.js";
import { applyMetadataFilter, applySorting, listPage, type Page } from "../kit/pagination.js";
import { liveCreditsOnMeter } from "../benefits/repository.js";
import { livePricesOnMeter } from "../products/repository.js";
import { checkAggregation, checkFilter } from "./filter.js";
import { toMeter, type MeterOut, type MeterRow } from "./models.js";
import { rebuildMeter } from "./rollups.js";
import { findReadable, insert, readable, update } from "./repository.js";

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

function checkName(name: string): string {
  if (name.trim().length < 3) throw invalid(["body", "name"], "String should have at least 3 characters", "string_too_short");
  return name.trim();
}

type Unit = Pick<MeterRow, "unit" | "custom_label" | "custom_multiplier">;

/**
 * The unit a create or update leaves the meter with: a custom unit needs its label (its multiplier
 * is 1 unless given); the other units take neither. Leaving `custom` clears both.
 */
function checkUnit(
  current: Unit,
  input: { unit?: Unit["unit"] | null; custom_label?: string | null; custom_multiplier?: number | null },
): Unit {
  const unit = input.unit ?? current.unit;
  if (unit !== "custom") {
    for (const key of ["custom_label", "custom_multiplier"] as const) {
      if (input[key] !== undefined && input[key] !== null)
        throw invalid(["body", key], "Only a custom unit has a label and a multiplier.", "value_error", input[key]);
    }
    return { unit, custom_label: null, custom_multiplier: null };
  }
  const label = (input.custom_label === undefined ? current.custom_label : input.custom_label)?.trim() || null;
  if (label === null)
    throw invalid(["body", "custom_label"], "A custom unit needs its label, e.g. request.", "missing", input.custom_label ?? null);
  const multiplier = input.custom_multiplier === undefined ? current.custom_multiplier : input.custom_multiplier;
  return { unit, custom_label: label, custom_multiplier: multiplier ?? 1 };
}

const SCALAR: Unit = { unit: "scalar", custom_label: null, custom_multiplier: null };

export async function createMeter(db: Knex, caller: OrganizationCaller, input: MeterCreateInput): Promise<MeterOut> {
  if (input.organization_id && input.organization_id !== caller.organizationId) {
    throw invalid(["body", "organization_id"], "Organization not found or not accessible with this token.");
  }
  const name = checkName(input.name);
  const filter = checkFilter(input.filter, ["body", "filter"]);
  const aggregation = checkAggregation(input.aggregation, ["body", "aggregation"]);
  const metadata = checkMetadata(input.metadata);
  const unit = checkUnit(SCALAR, input);
  return db.transaction(async (trx) => {
    const row = await insert(trx, {
      organization_id: caller.organizationId,
      name,
      unit: unit.unit,
      custom_label: unit.custom_label,
      custom_multiplier: unit.custom_multiplier,
      filter: JSON.stringify(filter),
      aggregation: JSON.stringify(aggregation),
      metadata: JSON.stringify(metadata),
    });
    // A new meter counts the events stored before it too.
    await rebuildMeter(trx, row);
    return toMeter(row);
  });
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
    if ([input.unit, input.custom_label, input.custom_multiplier].some((v) => v !== undefined)) Object.assign(patch, checkUnit(row, input));
    if (input.is_archived === true && row.archived_at === null) {
      if ((await livePricesOnMeter(trx, row.id)) > 0) {
        throw invalid(["body", "is_archived"], "Cannot archive meter that is still attached to active products", "value_error", true);
      }
      if ((await liveCreditsOnMeter(trx, row.id)) > 0) {
        throw invalid(["body", "is_archived"], "Cannot archive meter that is still referenced by active benefits", "value_error", true);
      }
      patch.archived_at = new Date();
    }
    if (input.is_archived === false) patch.archived_at = null;
    patch.modified_at = new Date();
    const updated = await update(trx, row.id, patch);
    // What the meter counts changed: its rollups are counted again from the events.
    if (patch.filter !== undefined || patch.aggregation !== undefined) await rebuildMeter(trx, updated);
    return toMeter(updated);
  });
}
