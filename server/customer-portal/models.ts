// Portal wire shapes: the storefront (CustomerOrganization) with its public products
// (toCustomerProduct, products/models.ts).
import type { components } from "../../generated/types.js";
import { toPublicOrganization } from "../organizations/models.js";
import type { OrganizationRow } from "../organizations/repository.js";
import { toCustomerProduct } from "../products/models.js";
import type { ProductRelations, ProductRow } from "../products/repository.js";

export type CustomerOrganizationOut = components["schemas"]["CustomerOrganizationData"];

export function toCustomerOrganization(
  org: OrganizationRow,
  products: { row: ProductRow; rel: ProductRelations }[],
): CustomerOrganizationOut {
  return {
    organization: toPublicOrganization(org),
    products: products.map((p) => toCustomerProduct(p.row, p.rel)),
  };
}
