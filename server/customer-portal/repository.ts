// Portal queries: the storefront is public, looked up by organization slug.
import type { Knex } from "knex";
import type { OrganizationRow } from "../organizations/repository.js";
import type { ProductRow } from "../products/repository.js";

export function findOrganizationBySlug(db: Knex, slug: string): Promise<OrganizationRow | undefined> {
  return db<OrganizationRow>("organizations").whereRaw("lower(slug) = lower(?)", [slug]).first() as Promise<OrganizationRow | undefined>;
}

/** The products a storefront shows: the organization's products that are not archived. */
export function storefrontProducts(db: Knex, organizationId: string): Promise<ProductRow[]> {
  return db("products")
    .where({ organization_id: organizationId, is_archived: false })
    .orderBy([{ column: "created_at" }, { column: "id" }])
    .select("*");
}
