// The Benefit wire shape (all six types share it; `properties` is per type).
import type { components } from "../../generated/types.js";
import { iso, isoRequired } from "../kit/time.js";

export interface BenefitRow {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  organization_id: string;
  type: string;
  description: string;
  selectable: boolean;
  deletable: boolean;
  metadata: Record<string, unknown>;
  properties: Record<string, unknown>;
  deleted_at: Date | null;
}

export type BenefitOut = components["schemas"]["Benefit"];

export function toBenefit(row: BenefitRow): BenefitOut {
  return {
    id: row.id,
    created_at: isoRequired(row.created_at),
    modified_at: iso(row.modified_at),
    type: row.type,
    description: row.description,
    selectable: row.selectable,
    deletable: row.deletable,
    organization_id: row.organization_id,
    metadata: row.metadata,
    properties: row.properties,
  } as BenefitOut;
}
