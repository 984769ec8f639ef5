// A product's benefits are set by their own call (POST /v1/products/{id}/benefits), not by the
// product's create or update body: the product form's `benefit_ids` go there after the product
// is saved, and only when they changed.
import type { DataProvider } from "react-admin";
import type { Product } from "../api";
import { call } from "./request";

function benefitIds(data: unknown): string[] | undefined {
  const ids = (data as { benefit_ids?: unknown } | undefined)?.benefit_ids;
  return Array.isArray(ids) ? ids.map(String) : undefined;
}

const setBenefits = (id: string, benefits: string[]) =>
  call<Product>("POST", "/v1/products/{id}/benefits", { path: { id }, body: { benefits } });

export function withProductBenefits(crud: DataProvider): DataProvider {
  return Object.assign({}, crud, {
    async create(resource, params) {
      const created = await crud.create(resource, params);
      const ids = benefitIds(params.data);
      if (resource !== "products" || !ids?.length) return created;
      return { data: await setBenefits(String(created.data.id), ids) };
    },
    async update(resource, params) {
      const updated = await crud.update(resource, params);
      const ids = benefitIds(params.data);
      const before = ((params.previousData as Partial<Product> | undefined)?.benefits ?? []).map((b) => b.id);
      if (resource !== "products" || !ids || (ids.length === before.length && ids.every((id) => before.includes(id)))) return updated;
      return { data: await setBenefits(String(params.id), ids) };
    },
  } satisfies Pick<DataProvider, "create" | "update">);
}
