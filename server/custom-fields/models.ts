// The CustomField wire shape (five types share it; `properties` is per type).
import type { components } from "../../generated/types.js";
import type { Metadata } from "../kit/metadata.js";
import { iso, isoRequired } from "../kit/time.js";

export type CustomFieldOut = components["schemas"]["CustomField"];
export type CustomFieldType = CustomFieldOut["type"];
/** A custom field's properties by its type, as the service checked them before writing them. */
export type CustomFieldProperties<T extends CustomFieldType = CustomFieldType> = Extract<CustomFieldOut, { type: T }>["properties"];

interface CustomFieldColumns {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  organization_id: string;
  slug: string;
  name: string;
  metadata: Metadata;
  deleted_at: Date | null;
}

/** A custom_fields row: its type says the shape of its properties. */
export type CustomFieldRow = {
  [T in CustomFieldType]: CustomFieldColumns & { type: T; properties: CustomFieldProperties<T> };
}[CustomFieldType];

/** One variant's wire shape; `toCustomField` calls it with the row narrowed to its type. */
function toVariant<T extends CustomFieldType>(row: CustomFieldColumns & { type: T; properties: CustomFieldProperties<T> }) {
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
  };
}

export function toCustomField(row: CustomFieldRow): CustomFieldOut {
  switch (row.type) {
    case "text":
      return toVariant(row);
    case "number":
      return toVariant(row);
    case "date":
      return toVariant(row);
    case "checkbox":
      return toVariant(row);
    case "select":
      return toVariant(row);
  }
}
