// Product queries, always scoped to the caller's organization, and the batch loading of the
// relations a Product carries (prices, benefits, medias, attached custom fields).
import { createHash } from "node:crypto";
import type { Knex } from "knex";
import type { components } from "../../generated/types.js";
import type { OrganizationCaller } from "../kit/auth.js";
import { preparedRows } from "../kit/db.js";
import { isUuid } from "../kit/ids.js";
import type { SortMap } from "../kit/pagination.js";
import type { BenefitRow } from "../benefits/models.js";
import type { CustomFieldRow } from "../custom-fields/models.js";
import type { TaxCategory } from "../tax/models.js";
import type { FileRow } from "../files/models.js";
import type { SeatTiers } from "./seat-tiers.js";

export interface ProductRow {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  organization_id: string;
  name: string;
  description: string | null;
  recurring_interval: Interval | null;
  /** How many intervals a billing period spans (recurring products; 1 and unused for one-time ones). */
  recurring_interval_count: number;
  trial_interval: Interval | null;
  trial_interval_count: number | null;
  visibility: ProductVisibility;
  is_archived: boolean;
  metadata: Record<string, string | number | boolean>;
  tax_category: TaxCategory;
}

export type Interval = "day" | "week" | "month" | "year";
export type ProductVisibility = "draft" | "private" | "public";
export type TaxBehaviorOption = "location" | "inclusive" | "exclusive";

export interface PriceRow {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  product_id: string;
  amount_type: "fixed" | "custom" | "metered_unit" | "seat_based";
  price_currency: string | null;
  tax_behavior: TaxBehaviorOption | null;
  price_amount: number | null;
  minimum_amount: number | null;
  maximum_amount: number | null;
  preset_amount: number | null;
  unit_amount: string | null;
  cap_amount: number | null;
  meter_id: string | null;
  /** A seat-based price's tiers, sorted and contiguous. */
  seat_tiers: SeatTiers | null;
  meter_name?: string | null;
  meter_unit?: components["schemas"]["MeterUnit"] | null;
  meter_custom_label?: string | null;
  meter_custom_multiplier?: number | null;
  is_archived: boolean;
  position: number;
}

export interface ProductRelations {
  prices: PriceRow[];
  benefits: BenefitRow[];
  medias: FileRow[];
  customFields: (CustomFieldRow & { order: number; required: boolean })[];
  /** Nothing refers to the product: no order, subscription (a trial is one) or discount. */
  deletable: boolean;
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

/**
 * The relations of the product whose id is `idExpr`, as four JSON array columns (timestamps as
 * ISO strings, the metered unit amount as text so its 12 decimals survive), and whether anything
 * refers to it.
 */
export function relationColumns(idExpr: string): string {
  return `coalesce((select json_agg(x order by x.position, x.created_at) from (
         select pp.id, pp.created_at, pp.modified_at, pp.product_id, pp.amount_type, pp.price_currency, pp.tax_behavior, pp.price_amount,
                pp.minimum_amount, pp.maximum_amount, pp.preset_amount, pp.unit_amount::text as unit_amount, pp.cap_amount, pp.seat_tiers,
                pp.meter_id, m.name as meter_name, m.unit as meter_unit, m.custom_label as meter_custom_label,
                m.custom_multiplier as meter_custom_multiplier, pp.is_archived, pp.position
           from product_prices pp left join meters m on m.id = pp.meter_id
          where pp.product_id = ${idExpr} and not pp.is_archived) x), '[]') as rel_prices,
       coalesce((select json_agg(x order by x.sort) from (
         select b.*, pb."order" as sort from product_benefits pb join benefits b on b.id = pb.benefit_id
          where pb.product_id = ${idExpr} and b.deleted_at is null) x), '[]') as rel_benefits,
       coalesce((select json_agg(x order by x.sort) from (
         select f.*, pm."order" as sort from product_medias pm join files f on f.id = pm.file_id
          where pm.product_id = ${idExpr} and f.deleted_at is null) x), '[]') as rel_medias,
       coalesce((select json_agg(x order by x."order") from (
         select cf.*, pcf."order", pcf.required from product_custom_fields pcf join custom_fields cf on cf.id = pcf.custom_field_id
          where pcf.product_id = ${idExpr} and cf.deleted_at is null) x), '[]') as rel_custom_fields,
       not exists (select from orders o where o.product_id = ${idExpr})
         and not exists (select from subscriptions s where s.product_id = ${idExpr})
         and not exists (select from discount_products dp where dp.product_id = ${idExpr}) as rel_deletable`;
}

interface RelationColumns {
  rel_prices: PriceRow[];
  rel_benefits: BenefitRow[];
  rel_medias: FileRow[];
  rel_custom_fields: ProductRelations["customFields"];
  rel_deletable: boolean;
}

function relationsOf(r: RelationColumns): ProductRelations {
  return {
    prices: r.rel_prices,
    benefits: r.rel_benefits,
    medias: r.rel_medias,
    customFields: r.rel_custom_fields,
    deletable: r.rel_deletable,
  };
}

/**
 * The hot reads below run as named prepared statements: PostgreSQL parses and plans them once per
 * connection instead of on every request (planning cost more than executing them). Their texts
 * are fixed, and name their columns, so a later migration cannot change a cached plan's row type.
 */
export const PRODUCT_COLUMNS =
  "products.id, products.created_at, products.modified_at, products.organization_id, products.name, products.description, products.recurring_interval, products.recurring_interval_count, products.trial_interval, products.trial_interval_count, products.visibility, products.is_archived, products.metadata, products.tax_category";
const LOAD_RELATIONS_SQL = `select ids.id as product_id, ${relationColumns("ids.id")} from unnest($1::uuid[]) as ids(id)`;
export const READ_ONE_SQL = `select ${PRODUCT_COLUMNS}, ${relationColumns("products.id")} from products where products.organization_id = $1 and products.id = $2`;
const READ_MANY_SQL = `select ${PRODUCT_COLUMNS}, ${relationColumns("products.id")} from unnest($1::uuid[]) with ordinality as ids(id, n) join products on products.id = ids.id order by ids.n`;

/** Loads every relation of the given products in one round trip, whatever their number. */
export async function loadRelations(db: Knex, productIds: string[]): Promise<Map<string, ProductRelations>> {
  const out = new Map<string, ProductRelations>();
  if (productIds.length === 0) return out;
  const rows = await preparedRows<RelationColumns & { product_id: string }>(db, "products_load_relations", LOAD_RELATIONS_SQL, [
    productIds,
  ]);
  for (const r of rows) out.set(r.product_id, relationsOf(r));
  return out;
}

function splitRelations(found: ProductRow & RelationColumns): { row: ProductRow; relations: ProductRelations } {
  const { rel_prices, rel_benefits, rel_medias, rel_custom_fields, rel_deletable, ...row } = found;
  return { row, relations: relationsOf({ rel_prices, rel_benefits, rel_medias, rel_custom_fields, rel_deletable }) };
}

/** A readable product with all its relations, in one round trip (the single-product read path). */
export async function findReadableWithRelations(
  db: Knex,
  caller: OrganizationCaller,
  id: string,
): Promise<{ row: ProductRow; relations: ProductRelations } | undefined> {
  if (!isUuid(id)) return undefined;
  const rows = await preparedRows<ProductRow & RelationColumns>(db, "products_read_one", READ_ONE_SQL, [caller.organizationId, id]);
  return rows.length ? splitRelations(rows[0]) : undefined;
}

/**
 * The given products (any organization: callers scope the ids first) with their relations, in
 * the order of `productIds`, in one round trip; ids of no product are skipped.
 */
export async function findManyWithRelations(db: Knex, productIds: string[]): Promise<{ row: ProductRow; relations: ProductRelations }[]> {
  if (productIds.length === 0) return [];
  const rows = await preparedRows<ProductRow & RelationColumns>(db, "products_read_many", READ_MANY_SQL, [productIds]);
  return rows.map(splitRelations);
}

/** The columns of a list page: the product, its relations and the filtered total (`total_count`). */
export function selectListColumns(db: Knex, q: Knex.QueryBuilder): Knex.QueryBuilder {
  return q.select(db.raw(`${PRODUCT_COLUMNS}, ${relationColumns("products.id")}, count(*) over () as total_count`));
}

export type ListRow = ProductRow & RelationColumns & { total_count: string };

/**
 * Runs a page selected by `selectListColumns` in one round trip. `prepare` when the query's shape
 * is one of a bounded few (no lists of ids in it): it then runs as a prepared statement named by
 * its text, as the hot reads above do; other shapes go through knex (a prepared statement per
 * shape would pile up on every connection).
 */
export async function readListPage(db: Knex, paged: Knex.QueryBuilder, prepare: boolean): Promise<ListRow[]> {
  if (!prepare) return (await paged) as ListRow[];
  const { sql, bindings } = paged.toSQL().toNative();
  const name = "products_list_" + createHash("sha1").update(sql).digest("base64url");
  return preparedRows<ListRow>(db, name, sql, bindings as unknown[]);
}

/** A list row as the product and its relations. */
export function fromListRow(found: ListRow): { row: ProductRow; relations: ProductRelations } {
  const { total_count: _total, ...rest } = found;
  return splitRelations(rest);
}

export async function insert(db: Knex, values: Record<string, unknown>): Promise<ProductRow> {
  const [row] = await db<ProductRow>("products").insert(values).returning("*");
  return row as ProductRow;
}

export async function update(db: Knex, id: string, patch: Record<string, unknown>): Promise<ProductRow> {
  const [row] = await db<ProductRow>("products").where({ id }).update(patch).returning("*");
  return row as ProductRow;
}

// Sorting by price uses the product's static price: free (a fixed price of 0) < custom < fixed <
// metered for the type; free and custom sort before every fixed amount.
const STATIC_PRICE = `(select %s from product_prices pp where pp.product_id = products.id and not pp.is_archived and pp.amount_type <> 'metered_unit' order by pp.position limit 1)`;

/** The list's sort keys: its columns, and the static price's type and amount. */
export function listSorts(db: Knex): SortMap {
  return {
    created_at: "products.created_at",
    name: "products.name",
    price_amount_type: db.raw(
      STATIC_PRICE.replace(
        "%s",
        "case when pp.amount_type = 'fixed' and pp.price_amount = 0 then 1 when pp.amount_type = 'custom' then 2 when pp.amount_type = 'fixed' then 3 else 4 end",
      ),
    ),
    price_amount: db.raw(
      STATIC_PRICE.replace(
        "%s",
        "case when pp.amount_type = 'fixed' and pp.price_amount = 0 then -2 when pp.amount_type = 'custom' then -1 else pp.price_amount end",
      ),
    ),
  };
}

/** Narrows a product query to products carrying one of the benefits (every id a uuid). */
export function whereHasBenefit(db: Knex, q: Knex.QueryBuilder, benefitIds: string[]): void {
  q.whereExists(
    db("product_benefits").whereRaw("product_benefits.product_id = products.id").whereIn("product_benefits.benefit_id", benefitIds),
  );
}

/** Every price of the product, archived ones included, locked for the price-set change. */
export async function pricesForUpdate(db: Knex, productId: string): Promise<PriceRow[]> {
  return db("product_prices").where({ product_id: productId }).forUpdate();
}

export async function insertPrices(db: Knex, rows: Partial<PriceRow>[]): Promise<void> {
  await db("product_prices").insert(
    rows.map((r) => Object.assign({}, r, { seat_tiers: r.seat_tiers ? JSON.stringify(r.seat_tiers) : null })),
  );
}

export async function archivePrices(db: Knex, ids: string[]): Promise<void> {
  await db("product_prices").whereIn("id", ids).update({ is_archived: true, modified_at: new Date() });
}

/** Replaces the product's medias by `fileIds`, in this order. */
export async function replaceMedias(db: Knex, productId: string, fileIds: string[]): Promise<void> {
  await db("product_medias").where({ product_id: productId }).delete();
  if (fileIds.length) await db("product_medias").insert(fileIds.map((file_id, order) => ({ product_id: productId, file_id, order })));
}

/** Replaces the product's attached custom fields by `fields`, in this order. */
export async function replaceCustomFields(
  db: Knex,
  productId: string,
  fields: { custom_field_id: string; required: boolean }[],
): Promise<void> {
  await db("product_custom_fields").where({ product_id: productId }).delete();
  if (fields.length) {
    await db("product_custom_fields").insert(
      fields.map((f, order) => ({ product_id: productId, custom_field_id: f.custom_field_id, required: f.required, order })),
    );
  }
}

export async function benefitIds(db: Knex, productId: string): Promise<string[]> {
  return db("product_benefits").where({ product_id: productId }).pluck("benefit_id");
}

/** The ids of the product's live benefits, in the product's order, when the product is the organization's. */
export async function liveBenefitIdsOf(db: Knex, organizationId: string, productId: string): Promise<string[]> {
  const rows: { id: string }[] = await db("product_benefits")
    .join("benefits", "benefits.id", "product_benefits.benefit_id")
    .join("products", "products.id", "product_benefits.product_id")
    .where({ "product_benefits.product_id": productId, "products.organization_id": organizationId })
    .whereNull("benefits.deleted_at")
    .orderBy("product_benefits.order")
    .select("benefits.id");
  return rows.map((r) => r.id);
}

/** Replaces the product's benefits by `benefitIds`, in this order. */
export async function replaceBenefits(db: Knex, productId: string, benefitIds: string[]): Promise<void> {
  await db("product_benefits").where({ product_id: productId }).delete();
  if (benefitIds.length)
    await db("product_benefits").insert(benefitIds.map((benefit_id, order) => ({ product_id: productId, benefit_id, order })));
}

/** The organization's products among `ids` (every id a uuid) that can be bought: not archived, not drafts. */
export async function purchasableIds(db: Knex, organizationId: string, ids: string[]): Promise<string[]> {
  return db("products")
    .whereIn("id", ids)
    .where({ organization_id: organizationId, is_archived: false })
    .whereNot({ visibility: "draft" })
    .pluck("id");
}

/** The distinct currencies of the unarchived prices of these products. */
export async function priceCurrencies(db: Knex, productIds: string[]): Promise<(string | null)[]> {
  return db("product_prices").whereIn("product_id", productIds).where({ is_archived: false }).distinct().pluck("price_currency");
}

/** An unarchived price of a product of the organization that can be bought (not archived, not a draft). */
export async function findPurchasablePrice(
  db: Knex,
  organizationId: string,
  priceId: string,
): Promise<{ id: string; product_id: string } | undefined> {
  return db("product_prices")
    .join("products", "products.id", "product_prices.product_id")
    .where({ "product_prices.id": priceId, "products.organization_id": organizationId })
    .where({ "product_prices.is_archived": false, "products.is_archived": false })
    .whereNot("products.visibility", "draft")
    .first("product_prices.id", "product_prices.product_id");
}

/** A product's first unarchived price that is not metered: the one a subscription to it charges. */
export function defaultStaticPrice(db: Knex, productId: string): Promise<PriceRow | undefined> {
  return db("product_prices")
    .where({ product_id: productId, is_archived: false })
    .whereNot({ amount_type: "metered_unit" })
    .orderBy("position")
    .first();
}

/** Products by id, whatever their organization (callers scope the ids first). */
export async function byIds(db: Knex, ids: string[]): Promise<ProductRow[]> {
  return db("products").whereIn("id", ids);
}

/** A whereExists subquery: the product `productIdColumn` (e.g. "orders.product_id") names has a name matching `like` (case-insensitive). */
export function productNamedLike(db: Knex, productIdColumn: string, like: string): Knex.QueryBuilder {
  return db("products").whereRaw(`products.id = ${productIdColumn}`).whereRaw("products.name ilike ?", [like]);
}

/**
 * A scalar subquery: the position of the benefit `benefitIdColumn` names among its product's
 * benefits, the product being the first of `products` (scalar subqueries) that names one.
 */
export function benefitPositionInProduct(db: Knex, benefitIdColumn: string, products: Knex.QueryBuilder[]): Knex.QueryBuilder {
  return db("product_benefits")
    .whereRaw(`product_benefits.benefit_id = ${benefitIdColumn}`)
    .whereRaw(`product_benefits.product_id = coalesce(${products.map(() => "(?)").join(", ")})`, products)
    .select("product_benefits.order");
}

/** A whereExists subquery: the product `productIdColumn` names is recurring (or, `recurring` false, one-time). */
export function productOfBillingType(db: Knex, productIdColumn: string, recurring: boolean): Knex.QueryBuilder {
  return db("products")
    .whereRaw(`products.id = ${productIdColumn}`)
    .where((w) => (recurring ? w.whereNotNull("products.recurring_interval") : w.whereNull("products.recurring_interval")));
}

/** Prices by id, archived ones included, whatever their product (callers scope the ids first). */
export function pricesByIds(db: Knex, ids: string[]): Promise<PriceRow[]> {
  return db("product_prices").whereIn("id", ids) as Promise<PriceRow[]>;
}

/** The ids among `ids` (uuids) of the organization's products, archived ones included. */
export function productIdsInOrganization(db: Knex, organizationId: string, ids: string[]): Promise<string[]> {
  return db("products").whereIn("id", ids).where({ organization_id: organizationId }).pluck("id");
}

/**
 * The most a storefront lists: the lookup is anonymous, and one answer must stay small (245
 * products once made it 2.1 MB). The first ones by creation; the SDK's shape has no paging.
 */
export const STOREFRONT_PRODUCTS_MAX = 100;

/** The products a storefront shows: the organization's public products that are not archived. */
export function storefrontProducts(db: Knex, organizationId: string): Promise<ProductRow[]> {
  return db("products")
    .where({ organization_id: organizationId, is_archived: false, visibility: "public" })
    .orderBy([{ column: "created_at" }, { column: "id" }])
    .limit(STOREFRONT_PRODUCTS_MAX)
    .select("*");
}

/** Takes a deleted benefit off every product. */
export async function detachBenefit(db: Knex, benefitId: string): Promise<void> {
  await db("product_benefits").where({ benefit_id: benefitId }).delete();
}

/** Takes a deleted custom field off every product. */
export async function detachCustomField(db: Knex, customFieldId: string): Promise<void> {
  await db("product_custom_fields").where({ custom_field_id: customFieldId }).delete();
}

/** The organization's unarchived product with this name (the demo's seed finds its products by name). */
export function findUnarchivedByName(db: Knex, organizationId: string, name: string): Promise<{ id: string } | undefined> {
  return db("products").where({ organization_id: organizationId, name, is_archived: false }).first("id");
}

export function findProduct(db: Knex, id: string): Promise<ProductRow | undefined> {
  return db("products").where({ id }).first() as Promise<ProductRow | undefined>;
}

export function findProductOf(db: Knex, organizationId: string, id: string): Promise<ProductRow | undefined> {
  return db("products").where({ id, organization_id: organizationId }).first() as Promise<ProductRow | undefined>;
}

/** The product's unarchived prices, in order. */
export async function unarchivedPrices(db: Knex, productId: string): Promise<PriceRow[]> {
  return (await db("product_prices").where({ product_id: productId, is_archived: false }).orderBy("position")) as PriceRow[];
}

/** Ids of the product's unarchived prices, in order. */
export async function unarchivedPriceIds(db: Knex, productId: string): Promise<string[]> {
  const prices: { id: string }[] = await db("product_prices")
    .where({ product_id: productId, is_archived: false })
    .orderBy("position")
    .select("id");
  return prices.map((p) => p.id);
}

/** Which of these prices are metered (billed per use). */
export async function meteredPriceIds(db: Knex, priceIds: string[]): Promise<string[]> {
  return (await db("product_prices").whereIn("id", priceIds).where({ amount_type: "metered_unit" }).select("id")).map(
    (p: { id: string }) => p.id,
  );
}

/** The meters these prices bill. */
export function meterIdsOfPrices(db: Knex, priceIds: string[]): Promise<string[]> {
  return db("product_prices").whereIn("id", priceIds).whereNotNull("meter_id").pluck("meter_id");
}

/** Live metered prices (of live products) billing on a meter: while there are any, the meter cannot be archived. */
export async function livePricesOnMeter(db: Knex, meterId: string): Promise<number> {
  const row = await db("product_prices")
    .join("products", "products.id", "product_prices.product_id")
    .where({ "product_prices.meter_id": meterId, "product_prices.is_archived": false, "products.is_archived": false })
    .count({ n: "*" })
    .first();
  return Number(row?.n ?? 0);
}
