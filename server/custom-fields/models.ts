// The CustomField wire shape (five types share it; `properties` is per type).
import type { components } from "../../generated/types.js";
import type { Metadata } from "../kit/metadata.js";
import { iso, isoRequired } from "../kit/time.js";

export interface CustomFieldRow {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  organization_id: string;
  type: "text" | "number" | "date" | "checkbox" | "select";
  slug: string;
  name: string;
  metadata: Metadata;
  properties: Record<string, unknown>;
  deleted_at: Date | null;
}

export type CustomFieldOut = components["schemas"]["CustomField"];

export function toCustomField(row: CustomFieldRow): CustomFieldOut {
  return {
    created_at: isoRequired(row.created_at),
    modified_at: iso(row.modified_at),
    id: row.id,
    metadata: row.metadata,
    type: row.type,
    slug: row.slug,
    name: row.name,
    organization_id: row.organization_id,
    properties: row.properties,
    // eslint-disable-next-line no-restricted-syntax -- per-type properties are untyped jsonb, paired with the type here (see issue 21)
  } as CustomFieldOut;
}
