// Product queries, always scoped to the caller's organization, and the batch loading of the
// relations a Product carries (prices, benefits, medias, attached custom fields).
import type { Knex } from "knex";
import type { OrganizationCaller } from "../kit/auth.js";
import { isUuid } from "../kit/ids.js";
import type { BenefitRow } from "../benefits/models.js";
import type { CustomFieldRow } from "../custom-fields/models.js";
import type { FileRow } from "../files/models.js";

export interface ProductRow {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  organization_id: string;
  name: string;
  description: string | null;
  recurring_interval: "day" | "week" | "month" | "year" | null;
  is_archived: boolean;
  metadata: Record<string, string | number | boolean>;
}

export interface PriceRow {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  product_id: string;
  amount_type: "fixed" | "custom" | "free" | "metered_unit";
  price_currency: string | null;
  price_amount: number | null;
  minimum_amount: number | null;
  maximum_amount: number | null;
  preset_amount: number | null;
  unit_amount: string | null;
  cap_amount: number | null;
  meter_id: string | null;
  meter_name?: string | null;
  is_archived: boolean;
  position: number;
}

export interface ProductRelations {
  prices: PriceRow[];
  benefits: BenefitRow[];
  medias: FileRow[];
  customFields: (CustomFieldRow & { order: number; required: boolean })[];
}

export function readable(db: Knex, caller: OrganizationCaller): Knex.QueryBuilder {
  return db("products").where("products.organization_id", caller.organizationId);
}

export async function findReadable(
  db: Knex,
  caller: OrganizationCaller,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<ProductRow | undefined> {
  if (!isUuid(id)) return undefined;
  const q = readable(db, caller).where("products.id", id).first("products.*");
  return (opts.forUpdate ? q.forUpdate() : q) as Promise<ProductRow | undefined>;
}

function groupBy<T>(rows: T[], key: (r: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = out.get(k);
    if (list) list.push(r);
    else out.set(k, [r]);
  }
  return out;
}

/** Loads every relation of the given products in four queries, whatever their number. */
export async function loadRelations(db: Knex, productIds: string[]): Promise<Map<string, ProductRelations>> {
  const out = new Map<string, ProductRelations>();
  if (productIds.length === 0) return out;
  const [prices, benefits, medias, fields] = await Promise.all([
    db("product_prices")
      .leftJoin("meters", "meters.id", "product_prices.meter_id")
      .whereIn("product_prices.product_id", productIds)
      .where("product_prices.is_archived", false)
      .orderBy([{ column: "product_prices.position" }, { column: "product_prices.created_at" }])
      .select("product_prices.*", "meters.name as meter_name"),
    db("product_benefits")
      .join("benefits", "benefits.id", "product_benefits.benefit_id")
      .whereIn("product_benefits.product_id", productIds)
      .whereNull("benefits.deleted_at")
      .orderBy("product_benefits.order")
      .select("benefits.*", "product_benefits.product_id"),
    db("product_medias")
      .join("files", "files.id", "product_medias.file_id")
      .whereIn("product_medias.product_id", productIds)
      .whereNull("files.deleted_at")
      .orderBy("product_medias.order")
      .select("files.*", "product_medias.product_id"),
    db("product_custom_fields")
      .join("custom_fields", "custom_fields.id", "product_custom_fields.custom_field_id")
      .whereIn("product_custom_fields.product_id", productIds)
      .whereNull("custom_fields.deleted_at")
      .orderBy("product_custom_fields.order")
      .select("custom_fields.*", "product_custom_fields.product_id", "product_custom_fields.order", "product_custom_fields.required"),
  ]);
  const byProduct = <T extends { product_id: string }>(rows: T[]) => groupBy(rows, (r) => r.product_id);
  const p = byProduct(prices), b = byProduct(benefits), m = byProduct(medias), f = byProduct(fields);
  for (const id of productIds) {
    out.set(id, { prices: p.get(id) ?? [], benefits: b.get(id) ?? [], medias: m.get(id) ?? [], customFields: f.get(id) ?? [] });
  }
  return out;
}
