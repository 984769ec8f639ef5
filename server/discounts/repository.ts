// Discount queries, scoped to the caller's organization and to live (not deleted) discounts, and
// the batch loading of the products each discount is restricted to.
import type { Knex } from "knex";
import type { OrganizationCaller } from "../kit/auth.js";
import { insertReturning, softDeleteRow, updateReturning } from "../kit/rows.js";
import { isUuid } from "../kit/ids.js";
import { productIdsInOrganization, type ProductRow } from "../products/repository.js";

export type DiscountType = "fixed" | "percentage";
export type DiscountDuration = "once" | "forever" | "repeating";

export interface DiscountRow {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  organization_id: string;
  name: string;
  code: string | null;
  type: DiscountType;
  amount: number | null;
  currency: string | null;
  basis_points: number | null;
  duration: DiscountDuration;
  duration_in_months: number | null;
  starts_at: Date | null;
  ends_at: Date | null;
  max_redemptions: number | null;
  /** How many times one buyer (a customer, or an email) may redeem it; held at checkout confirmation. */
  max_redemptions_per_customer: number | null;
  redemptions_count: number;
  metadata: Record<string, string | number | boolean>;
  deleted_at: Date | null;
}

export function readable(db: Knex, caller: OrganizationCaller): Knex.QueryBuilder {
  return db("discounts").where("discounts.organization_id", caller.organizationId).whereNull("discounts.deleted_at");
}

export async function findReadable(
  db: Knex,
  caller: OrganizationCaller,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<DiscountRow | undefined> {
  if (!isUuid(id)) return undefined;
  const q = readable(db, caller).where("discounts.id", id).first("discounts.*");
  return (opts.forUpdate ? q.forUpdate() : q) as Promise<DiscountRow | undefined>;
}

export async function codeTaken(db: Knex, caller: OrganizationCaller, code: string, exceptId?: string): Promise<boolean> {
  const q = readable(db, caller).whereRaw("lower(discounts.code) = lower(?)", [code]);
  if (exceptId) q.whereNot("discounts.id", exceptId);
  return Boolean(await q.first("discounts.id"));
}

/** The ids among `ids` that are products of the caller's organization. */
export function ownProductIds(db: Knex, caller: OrganizationCaller, ids: string[]): Promise<string[]> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return Promise.resolve([]);
  return productIdsInOrganization(db, caller.organizationId, valid);
}

export async function replaceProducts(db: Knex, discountId: string, productIds: string[]): Promise<void> {
  await db("discount_products").where({ discount_id: discountId }).delete();
  if (productIds.length) await db("discount_products").insert(productIds.map((product_id) => ({ discount_id: discountId, product_id })));
}

/** The (discount, product) restrictions of these discounts. */
export function productLinks(db: Knex, discountIds: string[]): Promise<{ discount_id: string; product_id: string }[]> {
  return db("discount_products").whereIn("discount_id", discountIds) as Promise<{ discount_id: string; product_id: string }[]>;
}

/** The products of each discount, in one query whatever their number. */
/** A discount of the organization that is not deleted. */
export async function findLiveDiscount(db: Knex, organizationId: string, id: string): Promise<DiscountRow | undefined> {
  return (await db("discounts").where({ id, organization_id: organizationId }).whereNull("deleted_at").first()) as DiscountRow | undefined;
}

/** The products a discount is restricted to (none: every product). */
export async function restrictedProductIds(db: Knex, discountId: string): Promise<string[]> {
  return (await db("discount_products").where({ discount_id: discountId }).select("product_id")).map(
    (r: { product_id: string }) => r.product_id,
  );
}

export async function loadProducts(db: Knex, discountIds: string[]): Promise<Map<string, ProductRow[]>> {
  const out = new Map<string, ProductRow[]>(discountIds.map((id) => [id, []]));
  if (discountIds.length === 0) return out;
  const rows: (ProductRow & { discount_id: string })[] = await db("discount_products")
    .join("products", "products.id", "discount_products.product_id")
    .whereIn("discount_products.discount_id", discountIds)
    .orderBy([{ column: "products.created_at" }, { column: "products.id" }])
    .select("products.*", "discount_products.discount_id");
  for (const r of rows) out.get(r.discount_id)!.push(r);
  return out;
}

/** A live discount of the organization (`id` a uuid). */
export async function findLive(db: Knex, organizationId: string, id: string): Promise<DiscountRow | undefined> {
  return db("discounts").where({ id, organization_id: organizationId }).whereNull("deleted_at").first();
}

/** Discounts by id, deleted ones included, whatever their organization (callers scope the ids first). */
export async function byIds(db: Knex, ids: string[]): Promise<DiscountRow[]> {
  return db("discounts").whereIn("id", ids);
}

/** Locks the discount row: the serialization point of its redemptions. */
export async function lockById(db: Knex, id: string): Promise<DiscountRow> {
  return (await db("discounts").where({ id }).forUpdate().first()) as DiscountRow;
}

/** Counts one more redemption of a discount locked by `lockById`. */
export async function reserveRedemption(db: Knex, discount: DiscountRow): Promise<void> {
  await db("discounts")
    .where({ id: discount.id })
    .update({ redemptions_count: discount.redemptions_count + 1, modified_at: new Date() });
}

/** Gives back a redemption reserved by a confirm that did not pay. */
export async function releaseRedemption(db: Knex, id: string): Promise<void> {
  await db("discounts").where({ id }).where("redemptions_count", ">", 0).decrement("redemptions_count", 1);
}

async function findLiveWithProducts(
  db: Knex,
  where: (q: Knex.QueryBuilder) => void,
): Promise<{ row: DiscountRow; productIds: string[] } | null> {
  const q = db("discounts").whereNull("deleted_at").first();
  where(q);
  const row = (await q) as DiscountRow | undefined;
  if (!row) return null;
  const productIds: string[] = await db("discount_products").where({ discount_id: row.id }).pluck("product_id");
  return { row, productIds };
}

/** A live discount of the organization by id (a uuid), with the ids of the products it is restricted to. */
export function findLiveByIdWithProducts(
  db: Knex,
  organizationId: string,
  id: string,
): Promise<{ row: DiscountRow; productIds: string[] } | null> {
  return findLiveWithProducts(db, (q) => q.where({ id, organization_id: organizationId }));
}

/** A live discount of the organization by code (case-insensitively), with the ids of the products it is restricted to. */
export function findLiveByCodeWithProducts(
  db: Knex,
  organizationId: string,
  code: string,
): Promise<{ row: DiscountRow; productIds: string[] } | null> {
  return findLiveWithProducts(db, (q) => q.where({ organization_id: organizationId }).whereRaw("lower(code) = lower(?)", [code]));
}

export function insert(db: Knex, values: Record<string, unknown>): Promise<DiscountRow> {
  return insertReturning<DiscountRow>(db, "discounts", values);
}

export function update(db: Knex, id: string, patch: Record<string, unknown>): Promise<DiscountRow> {
  return updateReturning<DiscountRow>(db, "discounts", id, patch);
}

export function softDelete(db: Knex, id: string): Promise<void> {
  return softDeleteRow(db, "discounts", id);
}
