// Custom field rules: the five types and their properties, slugs (lower-case letters, digits,
// `-` and `_`) unique per organization, a type that never changes, and soft deletion that
// detaches the field from every product.
import type { Knex } from "knex";
import type { components } from "../../generated/types.js";
import type { OrganizationCaller } from "../kit/auth.js";
import { invalid, ResourceNotFound } from "../kit/errors.js";
import { asList, isUuid } from "../kit/ids.js";
import { checkMetadata } from "../kit/metadata.js";
import { applyMetadataFilter, applySorting, listPage, type Page } from "../kit/pagination.js";
import { toCustomField, type CustomFieldOut, type CustomFieldRow } from "./models.js";
import * as fields from "./repository.js";
import { findReadable, readable, slugTaken } from "./repository.js";

type Schemas = components["schemas"];
export type CustomFieldType = Schemas["CustomFieldType"];
export type CustomFieldCreateInput = Schemas["CustomFieldCreate"];
export type CustomFieldUpdateInput = Schemas["CustomFieldUpdate"];

export interface CustomFieldListQuery {
  organization_id?: string[] | string | null;
  query?: string | null;
  type?: CustomFieldType[] | CustomFieldType | null;
  page?: number;
  limit?: number;
  sorting?: string[] | null;
  metadata?: Record<string, unknown> | null;
}

const SLUG = /^[a-z0-9_-]+$/;
const TYPES: readonly CustomFieldType[] = ["text", "number", "date", "checkbox", "select"];

function checkSlug(slug: string): string {
  const lower = slug.toLowerCase();
  if (lower.length < 1 || !SLUG.test(lower)) {
    throw invalid(
      ["body", "slug"],
      "Slug can only contain ASCII letters, numbers, hyphens and underscores.",
      "string_pattern_mismatch",
      slug,
    );
  }
  return lower;
}

function checkName(name: string): string {
  if (name.trim().length < 1) throw invalid(["body", "name"], "String should have at least 1 character", "string_too_short");
  return name.trim();
}

const isInt = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v);

/** Validates a type's properties and keeps only the keys that type knows. */
export function checkProperties(type: CustomFieldType, input: unknown): Record<string, unknown> {
  const loc = ["body", "properties"];
  if (typeof input !== "object" || input === null || Array.isArray(input))
    throw invalid(loc, "Input should be a valid dictionary", "dict_type");
  const p = input as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of ["form_label", "form_help_text", "form_placeholder"]) {
    if (p[key] === undefined || p[key] === null) continue;
    if (typeof p[key] !== "string" || (p[key] as string).length < 1) {
      throw invalid([...loc, key], "String should have at least 1 character", "string_too_short");
    }
    out[key] = p[key];
  }
  switch (type) {
    case "text": {
      if (p.textarea !== undefined && p.textarea !== null) {
        if (typeof p.textarea !== "boolean") throw invalid([...loc, "textarea"], "Input should be a valid boolean", "bool_type");
        out.textarea = p.textarea;
      }
      for (const key of ["min_length", "max_length"]) {
        if (p[key] === undefined || p[key] === null) continue;
        if (!isInt(p[key]) || (p[key] as number) < 0)
          throw invalid([...loc, key], "Input should be greater than or equal to 0", "greater_than_equal");
        out[key] = p[key];
      }
      if (isInt(out.min_length) && isInt(out.max_length) && out.min_length > out.max_length) {
        throw invalid([...loc, "max_length"], "max_length must be greater than or equal to min_length.");
      }
      break;
    }
    case "number":
    case "date": {
      for (const key of ["ge", "le"]) {
        if (p[key] === undefined || p[key] === null) continue;
        if (!isInt(p[key])) throw invalid([...loc, key], "Input should be a valid integer", "int_type");
        out[key] = p[key];
      }
      if (isInt(out.ge) && isInt(out.le) && out.ge > out.le) throw invalid([...loc, "le"], "le must be greater than or equal to ge.");
      break;
    }
    case "checkbox":
      break;
    case "select": {
      if (!Array.isArray(p.options)) throw invalid([...loc, "options"], "Field required", "missing");
      const seen = new Set<string>();
      out.options = p.options.map((o: unknown, i: number) => {
        const option = (o ?? {}) as Record<string, unknown>;
        for (const key of ["value", "label"]) {
          if (typeof option[key] !== "string" || (option[key] as string).length < 1) {
            throw invalid([...loc, "options", i, key], "String should have at least 1 character", "string_too_short");
          }
        }
        if (seen.has(option.value as string)) throw invalid([...loc, "options", i, "value"], "Option values must be unique.");
        seen.add(option.value as string);
        return { value: option.value, label: option.label };
      });
      break;
    }
  }
  return out;
}

/** The unique index is the last word on slugs (two concurrent creates): its violation is a 422. */
function isSlugConflict(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string };
  return e?.code === "23505" && e.constraint === "custom_fields_org_slug";
}
const slugExists = (slug: string) => invalid(["body", "slug"], "Custom field with this slug already exists.", "value_error", slug);

export async function createCustomField(db: Knex, caller: OrganizationCaller, input: CustomFieldCreateInput): Promise<CustomFieldOut> {
  if (input.organization_id && input.organization_id !== caller.organizationId) {
    throw invalid(["body", "organization_id"], "Organization not found or not accessible with this token.");
  }
  if (!TYPES.includes(input.type)) throw invalid(["body", "type"], "Input should be a valid custom field type", "literal_error");
  const slug = checkSlug(input.slug);
  const name = checkName(input.name);
  const properties = checkProperties(input.type, input.properties);
  const metadata = checkMetadata(input.metadata);
  return db.transaction(async (trx) => {
    if (await slugTaken(trx, caller, slug)) throw slugExists(slug);
    try {
      const row = await fields.insert(trx, {
        organization_id: caller.organizationId,
        type: input.type,
        slug,
        name,
        metadata: JSON.stringify(metadata),
        properties: JSON.stringify(properties),
      });
      return toCustomField(row);
    } catch (err) {
      if (isSlugConflict(err)) throw slugExists(slug);
      throw err;
    }
  });
}

export async function getCustomField(db: Knex, caller: OrganizationCaller, id: string): Promise<CustomFieldOut> {
  const row = await findReadable(db, caller, id);
  if (!row) throw new ResourceNotFound("Custom field not found.");
  return toCustomField(row);
}

export async function listCustomFields(db: Knex, caller: OrganizationCaller, query: CustomFieldListQuery): Promise<Page<CustomFieldOut>> {
  const q = readable(db, caller).select("custom_fields.*");
  const orgs = asList(query.organization_id);
  if (orgs.length) q.whereIn("custom_fields.organization_id", orgs.filter(isUuid));
  if (query.query) {
    const like = `%${query.query.replace(/[\\%_]/g, "\\$&")}%`;
    q.where((w) => w.whereRaw("custom_fields.name ilike ?", [like]).orWhereRaw("custom_fields.slug ilike ?", [like]));
  }
  const types = asList(query.type);
  if (types.length) q.whereIn("custom_fields.type", types);
  applyMetadataFilter(q, "custom_fields.metadata", query.metadata);
  applySorting(
    q,
    query.sorting,
    { created_at: "custom_fields.created_at", slug: "custom_fields.slug", name: "custom_fields.name", type: "custom_fields.type" },
    ["slug"],
    "custom_fields.id",
  );
  return listPage(q, query, (rows: CustomFieldRow[]) => rows.map(toCustomField));
}

export async function updateCustomField(
  db: Knex,
  caller: OrganizationCaller,
  id: string,
  input: CustomFieldUpdateInput,
): Promise<CustomFieldOut> {
  return db.transaction(async (trx) => {
    const row = await findReadable(trx, caller, id, { forUpdate: true });
    if (!row) throw new ResourceNotFound("Custom field not found.");
    if (input.type !== row.type) throw invalid(["body", "type"], "The type of a custom field can't be changed.", "value_error", input.type);
    const patch: Record<string, unknown> = {};
    if (input.name !== undefined && input.name !== null) patch.name = checkName(input.name);
    if (input.slug !== undefined && input.slug !== null) {
      const slug = checkSlug(input.slug);
      if (slug !== row.slug && (await slugTaken(trx, caller, slug, row.id))) throw slugExists(slug);
      patch.slug = slug;
    }
    if (input.properties !== undefined && input.properties !== null)
      patch.properties = JSON.stringify(checkProperties(row.type, input.properties));
    if (input.metadata !== undefined) patch.metadata = JSON.stringify(checkMetadata(input.metadata));
    patch.modified_at = new Date();
    try {
      const updated = await fields.update(trx, row.id, patch);
      return toCustomField(updated);
    } catch (err) {
      if (isSlugConflict(err)) throw slugExists(String(patch.slug));
      throw err;
    }
  });
}

/**
 * What stands on a custom field: the products that ask for it (products/repository.ts), handed in
 * by custom-fields/handlers.ts because products import custom fields and never the reverse.
 */
export interface CustomFieldDependents {
  detachCustomField(trx: Knex.Transaction, customFieldId: string): Promise<void>;
}

export async function deleteCustomField(
  db: Knex,
  caller: OrganizationCaller,
  id: string,
  dependents: CustomFieldDependents,
): Promise<void> {
  await db.transaction(async (trx) => {
    const row = await findReadable(trx, caller, id, { forUpdate: true });
    if (!row) throw new ResourceNotFound("Custom field not found.");
    await fields.softDelete(trx, row.id);
    // Products stop asking for it (Polar removes the field from every attachment table).
    await dependents.detachCustomField(trx, row.id);
  });
}
