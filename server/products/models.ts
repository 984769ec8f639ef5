// The Product and ProductPrice wire shapes.
import type { components } from "../../generated/types.js";
import { toBenefit, toPublicBenefits } from "../benefits/models.js";
import { toCustomField } from "../custom-fields/models.js";
import { toProductMedia } from "../files/models.js";
import { MINIMUM_PRICE_AMOUNT } from "../kit/money.js";
import { iso, isoRequired } from "../kit/time.js";
import type { PriceRow, ProductRelations, ProductRow } from "./repository.js";
import { seatBounds } from "./seat-tiers.js";

export type ProductOut = components["schemas"]["Product"];
export type ProductPriceOut = components["schemas"]["ProductPrice"];
type CustomerProductOut = components["schemas"]["CustomerProduct"];

/** A metered unit amount leaves as a decimal string without trailing zeros ("0.5", "12"). */
export function formatUnitAmount(value: string): string {
  if (!value.includes(".")) return value;
  const trimmed = value.replace(/0+$/, "").replace(/\.$/, "");
  return trimmed === "" || trimmed === "-" ? "0" : trimmed;
}

/**
 * Whether a new purchase of the product can start: archived products and drafts cannot be
 * bought (a private one can, through a checkout or a checkout link; only public ones are listed).
 */
export function isPurchasable(row: Pick<ProductRow, "is_archived" | "visibility">): boolean {
  return !row.is_archived && row.visibility !== "draft";
}

/** A free price: a fixed price of 0 (the only kind of free price there is). */
export function isFreePrice(price: Pick<PriceRow, "amount_type" | "price_amount">): boolean {
  return price.amount_type === "fixed" && Number(price.price_amount) === 0;
}

export function toPrice(row: PriceRow, product: Pick<ProductRow, "recurring_interval">): ProductPriceOut {
  // Object.assign onto the shared fields, not `{ ...base, … }`: V8 11 (Node 20) builds a new hidden
  // class for every object spread followed by more properties, microseconds each (docs/BENCHMARKS.md).
  const base = {
    created_at: isoRequired(row.created_at),
    modified_at: iso(row.modified_at),
    id: row.id,
    // Every price is the product's own; prices made for one checkout (`ad_hoc`) are not offered.
    source: "catalog" as const,
    tax_behavior: row.tax_behavior,
    is_archived: row.is_archived,
    product_id: row.product_id,
    type: product.recurring_interval ? ("recurring" as const) : ("one_time" as const),
    recurring_interval: product.recurring_interval,
  };
  switch (row.amount_type) {
    case "fixed":
      return Object.assign(base, { amount_type: row.amount_type, price_currency: row.price_currency!, price_amount: row.price_amount! });
    case "custom":
      return Object.assign(base, {
        amount_type: row.amount_type,
        price_currency: row.price_currency!,
        minimum_amount: row.minimum_amount ?? MINIMUM_PRICE_AMOUNT,
        maximum_amount: row.maximum_amount,
        preset_amount: row.preset_amount,
      });
    case "metered_unit":
      return Object.assign(base, {
        amount_type: row.amount_type,
        price_currency: row.price_currency!,
        unit_amount: formatUnitAmount(String(row.unit_amount)),
        cap_amount: row.cap_amount,
        meter_id: row.meter_id!,
        meter: {
          id: row.meter_id!,
          name: row.meter_name ?? "",
          unit: row.meter_unit ?? "scalar",
          custom_label: row.meter_custom_label ?? null,
          custom_multiplier: row.meter_custom_multiplier ?? null,
        },
      });
    case "seat_based": {
      const tiers = row.seat_tiers ?? { seat_tier_type: "volume" as const, tiers: [] };
      const bounds = seatBounds(tiers);
      return Object.assign(base, {
        amount_type: row.amount_type,
        price_currency: row.price_currency!,
        seat_tiers: {
          seat_tier_type: tiers.seat_tier_type,
          tiers: tiers.tiers,
          minimum_seats: bounds.minimum,
          maximum_seats: bounds.maximum,
        },
      });
    }
  }
}

/** The fields every product shape shares (the full Product, and the short ones inside discounts, orders and the portal). */
export function toProductBase(row: ProductRow) {
  return {
    created_at: isoRequired(row.created_at),
    modified_at: iso(row.modified_at),
    id: row.id,
    name: row.name,
    description: row.description,
    recurring_interval: row.recurring_interval,
    trial_interval: row.trial_interval,
    trial_interval_count: row.trial_interval_count,
    visibility: row.visibility,
    recurring_interval_count: row.recurring_interval === null ? null : row.recurring_interval_count,
    // No meter cycle apart from the billing interval is offered: metered usage bills with it.
    meter_interval: null,
    meter_interval_count: null,
    is_recurring: row.recurring_interval !== null,
    is_archived: row.is_archived,
    organization_id: row.organization_id,
  };
}

export function toProduct(row: ProductRow, rel: ProductRelations): ProductOut {
  return Object.assign(toProductBase(row), {
    metadata: row.metadata,
    is_deletable: rel.deletable,
    tax_category: row.tax_category,
    prices: rel.prices.map((p) => toPrice(p, row)),
    benefits: rel.benefits.map(toBenefit),
    medias: rel.medias.map(toProductMedia),
    attached_custom_fields: rel.customFields.map((f) => ({
      custom_field_id: f.id,
      custom_field: toCustomField(f),
      order: f.order,
      required: f.required,
    })),
  });
}

/**
 * The public product a customer sees (the portal, checkouts, checkout links, and the product inside
 * a customer's order or subscription): no metadata, and its benefits only the public fields.
 */
export function toCustomerProduct(row: ProductRow, rel: ProductRelations): CustomerProductOut {
  return Object.assign(toProductBase(row), {
    prices: rel.prices.map((p) => toPrice(p, row)),
    benefits: toPublicBenefits(rel.benefits),
    medias: rel.medias.map(toProductMedia),
  });
}
