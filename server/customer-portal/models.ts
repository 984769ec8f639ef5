// Portal wire shapes: the storefront (CustomerOrganization) with its public products. Public
// products carry no metadata, and their benefits only the public fields.
import type { components } from "../../generated/types.js";
import type { BenefitRow } from "../benefits/models.js";
import { toProductMedia } from "../files/models.js";
import { iso, isoRequired } from "../kit/time.js";
import { toOrganization } from "../organizations/models.js";
import type { OrganizationRow } from "../organizations/repository.js";
import { toPrice, toProductBase } from "../products/models.js";
import type { ProductRelations, ProductRow } from "../products/repository.js";

export type CustomerOrganizationOut = components["schemas"]["CustomerOrganization"];
type CustomerProductOut = components["schemas"]["CustomerProduct"];

function toBenefitPublic(row: BenefitRow) {
  return {
    id: row.id,
    created_at: isoRequired(row.created_at),
    modified_at: iso(row.modified_at),
    type: row.type,
    description: row.description,
    selectable: row.selectable,
    deletable: row.deletable,
    organization_id: row.organization_id,
  };
}

export function toCustomerProduct(row: ProductRow, rel: ProductRelations): CustomerProductOut {
  return Object.assign(toProductBase(row), {
    prices: rel.prices.map((p) => toPrice(p, row)),
    benefits: rel.benefits.map(toBenefitPublic),
    medias: rel.medias.map(toProductMedia),
  });
}

export function toCustomerOrganization(
  org: OrganizationRow,
  products: { row: ProductRow; rel: ProductRelations }[],
): CustomerOrganizationOut {
  return {
    organization: toOrganization(org),
    products: products.map((p) => toCustomerProduct(p.row, p.rel)),
  };
}
