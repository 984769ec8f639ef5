// Checkout link queries, scoped to the caller's organization and to live (not deleted) links,
// and the batch loading of each link's products.
import type { Knex } from "knex";
import type { LinkSource } from "../checkouts/service.js";
import type { OrganizationCaller } from "../kit/auth.js";
import { isUuid } from "../kit/ids.js";

/** A link row: what a checkout opened from it takes (LinkSource), and the link's own fields. */
export interface CheckoutLinkRow extends LinkSource {
  created_at: Date;
  modified_at: Date | null;
  client_secret: string;
  payment_processor: "stripe";
  label: string | null;
  deleted_at: Date | null;
}

export function readable(db: Knex, caller: OrganizationCaller): Knex.QueryBuilder {
  return db("checkout_links").where("checkout_links.organization_id", caller.organizationId).whereNull("checkout_links.deleted_at");
}

export async function findReadable(
  db: Knex,
  caller: OrganizationCaller,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<CheckoutLinkRow | undefined> {
  if (!isUuid(id)) return undefined;
  const q = readable(db, caller).where("checkout_links.id", id).first("checkout_links.*");
  return (opts.forUpdate ? q.forUpdate() : q) as Promise<CheckoutLinkRow | undefined>;
}

export function findBySecret(db: Knex, clientSecret: string): Promise<CheckoutLinkRow | undefined> {
  return db("checkout_links").where({ client_secret: clientSecret }).whereNull("deleted_at").first();
}

export async function replaceProducts(db: Knex, linkId: string, productIds: string[]): Promise<void> {
  await db("checkout_link_products").where({ checkout_link_id: linkId }).delete();
  if (productIds.length) {
    await db("checkout_link_products").insert(productIds.map((product_id, order) => ({ checkout_link_id: linkId, product_id, order })));
  }
}

/** The product ids of each link, in order, in one query. */
export async function loadProductIds(db: Knex, linkIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(linkIds.map((id) => [id, []]));
  if (linkIds.length === 0) return out;
  const rows: { checkout_link_id: string; product_id: string }[] = await db("checkout_link_products")
    .whereIn("checkout_link_id", linkIds)
    .orderBy("order");
  for (const r of rows) out.get(r.checkout_link_id)!.push(r.product_id);
  return out;
}

export async function insert(db: Knex, values: Record<string, unknown>): Promise<CheckoutLinkRow> {
  const [row] = await db<CheckoutLinkRow>("checkout_links").insert(values).returning("*");
  return row as CheckoutLinkRow;
}

export async function update(db: Knex, id: string, patch: Record<string, unknown>): Promise<CheckoutLinkRow> {
  const [row] = await db<CheckoutLinkRow>("checkout_links").where({ id }).update(patch).returning("*");
  return row as CheckoutLinkRow;
}

export async function softDelete(db: Knex, id: string): Promise<void> {
  const now = new Date();
  await db("checkout_links").where({ id }).update({ deleted_at: now, modified_at: now });
}

/** Narrows a link query to links offering one of the products (every id a uuid). */
export function whereHasProduct(db: Knex, q: Knex.QueryBuilder, productIds: string[]): void {
  q.whereExists(
    db("checkout_link_products")
      .whereRaw("checkout_link_products.checkout_link_id = checkout_links.id")
      .whereIn("checkout_link_products.product_id", productIds),
  );
}

/** The client secret of the organization's link with this label (the demo's, made once). */
export function findSecretByLabel(db: Knex, organizationId: string, label: string): Promise<{ client_secret: string } | undefined> {
  return db("checkout_links").where({ organization_id: organizationId, label }).first("client_secret");
}
