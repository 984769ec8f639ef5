// Checkout link rules: made from exactly one of product_id / product_price_id / products (live,
// unarchived products of the organization), an optional discount of the organization, defaults
// allow_discount_codes true and require_billing_address false; soft delete. Opening a link's
// url creates a fresh checkout session from it.
import type { OpBody } from "../../generated/handlers.js";
import type { Knex } from "knex";
import type { OrganizationCaller } from "../kit/auth.js";
import { invalid, ResourceNotFound } from "../kit/errors.js";
import { asList, isUuid } from "../kit/ids.js";
import { checkMetadata } from "../kit/metadata.js";
import { checkOneCurrency } from "../kit/money.js";
import { applySorting, listPage, type Page } from "../kit/pagination.js";
import * as products from "../products/repository.js";
import type { ProductRow } from "../products/repository.js";
import { givenTrial } from "../products/trials.js";
import * as discounts from "../discounts/repository.js";
import type { DiscountRow } from "../discounts/repository.js";
import { toCheckoutLink, type CheckoutLinkOut } from "./models.js";
import * as links from "./repository.js";
import type { CheckoutLinkRow } from "./repository.js";
import { randomToken } from "../kit/auth.js";
import { checkHttpUrl } from "../kit/urls.js";
import { jsonb } from "../kit/db.js";

export type CheckoutLinkCreateInput = OpBody<"checkout-links:create">;

export type CheckoutLinkUpdateInput = OpBody<"checkout-links:update">;

export interface CheckoutLinkListQuery {
  organization_id?: string | string[] | null;
  product_id?: string | string[] | null;
  page?: number;
  limit?: number;
  sorting?: string[] | null;
}

/** Products of the organization that can be bought (not archived, not drafts), in the given order. */
export async function checkProducts(db: Knex, organizationId: string, ids: string[], loc: (string | number)[]): Promise<string[]> {
  if (ids.length === 0) throw invalid(loc, "List should have at least 1 item after validation, not 0", "too_short");
  const unique = [...new Set(ids)];
  const found: string[] = unique.every(isUuid) ? await products.purchasableIds(db, organizationId, unique) : [];
  const missing = ids.findIndex((id) => !found.includes(id));
  if (missing >= 0) throw invalid([...loc, missing], "Product does not exist, is archived or is a draft.", "value_error", ids[missing]);
  if (unique.length > 1) {
    checkOneCurrency(await products.priceCurrencies(db, unique), loc);
  }
  return unique;
}

export async function checkDiscountId(
  db: Knex,
  organizationId: string,
  id: string | null | undefined,
  loc: (string | number)[],
): Promise<DiscountRow | null> {
  if (id === undefined || id === null) return null;
  const row = isUuid(id) ? await discounts.findLive(db, organizationId, id) : undefined;
  if (!row) throw invalid(loc, "Discount does not exist.", "value_error", id);
  return row;
}

async function readLinks(db: Knex, rows: CheckoutLinkRow[]): Promise<CheckoutLinkOut[]> {
  const productIds = await links.loadProductIds(
    db,
    rows.map((r) => r.id),
  );
  const allIds = [...new Set([...productIds.values()].flat())];
  const [productRows, rels, discountRows] = await Promise.all([
    allIds.length ? products.byIds(db, allIds) : Promise.resolve([] as ProductRow[]),
    products.loadRelations(db, allIds),
    (async () => {
      const ids = [...new Set(rows.map((r) => r.discount_id).filter((d): d is string => d !== null))];
      return ids.length ? discounts.byIds(db, ids) : [];
    })(),
  ]);
  const byId = new Map(productRows.map((p) => [p.id, p]));
  return rows.map((r) =>
    toCheckoutLink(
      r,
      productIds
        .get(r.id)!
        .filter((id) => byId.has(id))
        .map((id) => ({ row: byId.get(id)!, rel: rels.get(id)! })),
      discountRows.find((d) => d.id === r.discount_id && d.deleted_at === null) ?? null,
    ),
  );
}

export async function createCheckoutLink(db: Knex, caller: OrganizationCaller, input: CheckoutLinkCreateInput): Promise<CheckoutLinkOut> {
  const given = Object.entries(input).filter(
    ([k, v]) => (k === "product_id" || k === "product_price_id" || k === "products") && v !== undefined,
  );
  if (given.length !== 1) throw invalid(["body"], "Give exactly one of product_id, product_price_id or products.", "value_error");
  const metadata = checkMetadata(input.metadata);
  const successUrl = checkHttpUrl(input.success_url, ["body", "success_url"]);
  const returnUrl = checkHttpUrl(input.return_url, ["body", "return_url"]);
  const trial = givenTrial(input) ?? { trial_interval: null, trial_interval_count: null };
  return db.transaction(async (trx) => {
    let productIds: string[];
    let priceId: string | null = null;
    if ("product_price_id" in input) {
      const price = isUuid(input.product_price_id)
        ? await products.findPurchasablePrice(trx, caller.organizationId, input.product_price_id)
        : undefined;
      if (!price) throw invalid(["body", "product_price_id"], "Price does not exist.", "value_error", input.product_price_id);
      productIds = [price.product_id];
      priceId = price.id;
    } else if ("product_id" in input) {
      productIds = await checkProducts(trx, caller.organizationId, [input.product_id], ["body", "product_id"]);
    } else {
      productIds = await checkProducts(trx, caller.organizationId, input.products, ["body", "products"]);
    }
    const discount = await checkDiscountId(trx, caller.organizationId, input.discount_id, ["body", "discount_id"]);
    const row = await links.insert(trx, {
      organization_id: caller.organizationId,
      client_secret: randomToken("polar_cl_"),
      label: input.label ?? null,
      success_url: successUrl,
      return_url: returnUrl,
      trial_interval: trial.trial_interval,
      trial_interval_count: trial.trial_interval_count,
      allow_discount_codes: input.allow_discount_codes ?? true,
      require_billing_address: input.require_billing_address ?? false,
      discount_id: discount?.id ?? null,
      product_price_id: priceId,
      metadata: jsonb(trx, metadata),
    });
    await links.replaceProducts(trx, row.id, productIds);
    return (await readLinks(trx, [row]))[0];
  });
}

export async function getCheckoutLink(db: Knex, caller: OrganizationCaller, id: string): Promise<CheckoutLinkOut> {
  const row = await links.findReadable(db, caller, id);
  if (!row) throw new ResourceNotFound("Checkout link not found.");
  return (await readLinks(db, [row]))[0];
}

export async function listCheckoutLinks(
  db: Knex,
  caller: OrganizationCaller,
  query: CheckoutLinkListQuery,
): Promise<Page<CheckoutLinkOut>> {
  const q = links.readable(db, caller).select("checkout_links.*");
  const orgs = asList(query.organization_id);
  if (orgs.length) q.whereIn("checkout_links.organization_id", orgs.filter(isUuid));
  const productIds = asList(query.product_id);
  if (productIds.length) links.whereHasProduct(db, q, productIds.filter(isUuid));
  applySorting(
    q,
    query.sorting,
    {
      created_at: "checkout_links.created_at",
      label: "checkout_links.label",
      success_url: "checkout_links.success_url",
      allow_discount_codes: "checkout_links.allow_discount_codes",
    },
    ["created_at"],
    "checkout_links.id",
  );
  return listPage(q, query, (rows: CheckoutLinkRow[]) => readLinks(db, rows));
}

export async function updateCheckoutLink(
  db: Knex,
  caller: OrganizationCaller,
  id: string,
  input: CheckoutLinkUpdateInput,
): Promise<CheckoutLinkOut> {
  return db.transaction(async (trx) => {
    const row = await links.findReadable(trx, caller, id, { forUpdate: true });
    if (!row) throw new ResourceNotFound("Checkout link not found.");
    const patch: Record<string, unknown> = {};
    if (input.products !== undefined && input.products !== null) {
      const ids = await checkProducts(trx, caller.organizationId, input.products, ["body", "products"]);
      await links.replaceProducts(trx, row.id, ids);
      // A price pinned by a product_price_id link no longer applies once the product list changes.
      if (row.product_price_id) patch.product_price_id = null;
    }
    if (input.label !== undefined) patch.label = input.label;
    if (input.success_url !== undefined) patch.success_url = checkHttpUrl(input.success_url, ["body", "success_url"]);
    if (input.return_url !== undefined) patch.return_url = checkHttpUrl(input.return_url, ["body", "return_url"]);
    Object.assign(patch, givenTrial(input));
    if (input.allow_discount_codes !== undefined && input.allow_discount_codes !== null)
      patch.allow_discount_codes = input.allow_discount_codes;
    if (input.require_billing_address !== undefined && input.require_billing_address !== null) {
      patch.require_billing_address = input.require_billing_address;
    }
    if (input.discount_id !== undefined) {
      patch.discount_id = (await checkDiscountId(trx, caller.organizationId, input.discount_id, ["body", "discount_id"]))?.id ?? null;
    }
    if (input.metadata !== undefined) patch.metadata = JSON.stringify(checkMetadata(input.metadata));
    patch.modified_at = new Date();
    const updated = await links.update(trx, row.id, patch);
    return (await readLinks(trx, [updated]))[0];
  });
}

export async function deleteCheckoutLink(db: Knex, caller: OrganizationCaller, id: string): Promise<void> {
  await db.transaction(async (trx) => {
    const row = await links.findReadable(trx, caller, id, { forUpdate: true });
    if (!row) throw new ResourceNotFound("Checkout link not found.");
    await links.softDelete(trx, row.id);
  });
}
