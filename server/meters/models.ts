// The Meter wire shape. Archiving shows as `archived_at` (the update body takes `is_archived`).
// The unit sets how the meter's prices and quantities are shown (in the console and the portal).
import type { components } from "../../generated/types.js";
import { iso, isoRequired } from "../kit/time.js";
import type { Aggregation, Filter } from "./filter.js";

export interface MeterRow {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  organization_id: string;
  name: string;
  unit: MeterOut["unit"];
  /** The custom unit's name and multiplier (custom units only). */
  custom_label: string | null;
  custom_multiplier: number | null;
  filter: Filter;
  aggregation: Aggregation;
  metadata: Record<string, string | number | boolean>;
  archived_at: Date | null;
}

export type MeterOut = components["schemas"]["Meter"];
export type MeterQuantitiesOut = components["schemas"]["MeterQuantities"];

export function toMeter(row: MeterRow): MeterOut {
  return {
    metadata: row.metadata,
    created_at: isoRequired(row.created_at),
    modified_at: iso(row.modified_at),
    id: row.id,
    name: row.name,
    unit: row.unit,
    custom_label: row.custom_label,
    custom_multiplier: row.custom_multiplier,
    filter: row.filter,
    aggregation: row.aggregation,
    organization_id: row.organization_id,
    archived_at: iso(row.archived_at),
  };
}
