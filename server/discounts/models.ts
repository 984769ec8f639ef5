// The Discount wire shapes: fixed or percentage, each applied once / forever or repeating for
// duration_in_months (only the repeating shapes carry that field).
import type { components } from "../../generated/types.js";
import { iso, isoRequired } from "../kit/time.js";
import { toProductBase } from "../products/models.js";
import type { ProductRow } from "../products/repository.js";
import type { DiscountRow } from "./repository.js";

export type DiscountOut = components["schemas"]["Discount"];
/** A discount as orders, subscriptions and checkout links embed it: the Discount without its products. */
export type DiscountBaseOut =
  | components["schemas"]["DiscountFixedRepeatDurationBase"]
  | components["schemas"]["DiscountFixedOnceForeverDurationBase"]
  | components["schemas"]["DiscountPercentageRepeatDurationBase"]
  | components["schemas"]["DiscountPercentageOnceForeverDurationBase"];

function toDiscountProduct(row: ProductRow) {
  return { metadata: row.metadata, ...toProductBase(row) };
}

export function toDiscount(row: DiscountRow, products: ProductRow[]): DiscountOut {
  // Object.assign onto fresh objects, not `{ ...x, more }`: V8 11 (Node 20) builds a new hidden class
  // for every object spread followed by more properties, microseconds each (bench/object-shapes.ts).
  const months = row.duration === "repeating" ? { duration_in_months: row.duration_in_months! } : {};
  const amount =
    row.type === "fixed"
      ? { amount: Number(row.amount), currency: row.currency!, amounts: { [row.currency!]: Number(row.amount) } }
      : { basis_points: row.basis_points! };
  return Object.assign(
    { duration: row.duration },
    months,
    Object.assign({ type: row.type }, amount, {
      created_at: isoRequired(row.created_at),
      modified_at: iso(row.modified_at),
      id: row.id,
      metadata: row.metadata,
      name: row.name,
      code: row.code,
      starts_at: iso(row.starts_at),
      ends_at: iso(row.ends_at),
      max_redemptions: row.max_redemptions,
      max_redemptions_per_customer: row.max_redemptions_per_customer,
      redemptions_count: row.redemptions_count,
      organization_id: row.organization_id,
      products: products.map(toDiscountProduct),
    }),
  );
}

/** A discount without its products: the shape orders and subscriptions embed. */
export function toDiscountBase(row: DiscountRow): DiscountBaseOut {
  const { products: _products, ...rest } = toDiscount(row, []);
  return rest;
}
