// Portal queries: the storefront is public, looked up by organization slug.
import type { Knex } from "knex";
import type { OrganizationRow } from "../organizations/repository.js";
import type { ProductRow } from "../products/repository.js";

export function findOrganizationBySlug(db: Knex, slug: string): Promise<OrganizationRow | undefined> {
  return db<OrganizationRow>("organizations").whereRaw("lower(slug) = lower(?)", [slug]).first() as Promise<OrganizationRow | undefined>;
}

/** The products a storefront shows: the organization's products that are not archived. */
/**
 * The most a storefront lists: the lookup is anonymous, and one answer must stay small (245
 * products once made it 2.1 MB). The first ones by creation; the SDK's shape has no paging.
 */
export const STOREFRONT_PRODUCTS_MAX = 100;

export function storefrontProducts(db: Knex, organizationId: string): Promise<ProductRow[]> {
  return db("products")
    .where({ organization_id: organizationId, is_archived: false })
    .orderBy([{ column: "created_at" }, { column: "id" }])
    .limit(STOREFRONT_PRODUCTS_MAX)
    .select("*");
}
