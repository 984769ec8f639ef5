// `make bench-shapes`: what an object spread followed by more properties costs on this Node. Maps
// one product to its wire shape 200,000 times with Object.assign onto a fresh base (toProduct) and
// with `{ ...base, more }`; V8 11 gives each such spread object a new hidden class, so the second
// is many times slower, and a lint rule in eslint.config.js keeps server/ and workflows/ on the
// first. Prints ns/op for each and the ratio. No database.
import { isDeepStrictEqual } from "node:util";
import { toBenefit } from "../server/benefits/models.js";
import { toCustomField } from "../server/custom-fields/models.js";
import { toProductMedia } from "../server/files/models.js";
import { iso, isoRequired } from "../server/kit/time.js";
import { toProduct, toProductBase, type ProductPriceOut } from "../server/products/models.js";
import type { PriceRow, ProductRelations, ProductRow } from "../server/products/repository.js";

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 50_000);
const now = new Date("2026-01-01T00:00:00Z");

const row: ProductRow = {
  id: "0b6f3d2e-0000-4000-8000-000000000001",
  created_at: now,
  modified_at: now,
  organization_id: "0b6f3d2e-0000-4000-8000-0000000000aa",
  name: "Pro plan",
  description: "Everything, monthly.",
  recurring_interval: "month",
  recurring_interval_count: 1,
  trial_interval: null,
  trial_interval_count: null,
  visibility: "public",
  is_archived: false,
  metadata: { tier: "pro" },
  tax_category: "digital_service",
};

function price(n: number, amount_type: PriceRow["amount_type"], fields: Partial<PriceRow>): PriceRow {
  return Object.assign(
    {
      id: `0b6f3d2e-0000-4000-8000-00000000010${n}`,
      created_at: now,
      modified_at: null,
      product_id: row.id,
      amount_type,
      price_currency: "usd",
      tax_behavior: null,
      price_amount: null,
      minimum_amount: null,
      maximum_amount: null,
      preset_amount: null,
      unit_amount: null,
      cap_amount: null,
      meter_id: null,
      seat_tiers: null,
      meter_name: null,
      is_archived: false,
      position: n,
    },
    fields,
  );
}

const rel: ProductRelations = {
  prices: [
    price(1, "fixed", { price_amount: 2_000 }),
    price(2, "custom", { minimum_amount: 500, maximum_amount: 10_000, preset_amount: 1_000 }),
    price(3, "fixed", { price_amount: 0 }),
  ],
  benefits: [],
  medias: [],
  customFields: [],
  deletable: true,
};

/** toPrice's shape for the variants above, built the old way: spread, then the variant's keys. */
function spreadPrice(p: PriceRow): ProductPriceOut {
  const base = {
    created_at: isoRequired(p.created_at),
    modified_at: iso(p.modified_at),
    id: p.id,
    source: "catalog" as const,
    tax_behavior: p.tax_behavior,
    is_archived: p.is_archived,
    product_id: p.product_id,
    type: row.recurring_interval ? ("recurring" as const) : ("one_time" as const),
    recurring_interval: row.recurring_interval,
  };
  switch (p.amount_type) {
    case "fixed":
      return { ...base, amount_type: p.amount_type, price_currency: p.price_currency!, price_amount: p.price_amount! };
    case "custom":
      return {
        ...base,
        amount_type: p.amount_type,
        price_currency: p.price_currency!,
        minimum_amount: p.minimum_amount ?? 50,
        maximum_amount: p.maximum_amount,
        preset_amount: p.preset_amount,
      };
    case "metered_unit":
    case "seat_based":
      throw new Error("not in this fixture");
  }
}

function spreadProduct(r: ProductRow, x: ProductRelations) {
  return {
    ...toProductBase(r),
    metadata: r.metadata,
    tax_category: r.tax_category,
    prices: x.prices.map(spreadPrice),
    benefits: x.benefits.map(toBenefit),
    medias: x.medias.map(toProductMedia),
    attached_custom_fields: x.customFields.map((f) => ({
      custom_field_id: f.id,
      custom_field: toCustomField(f),
      order: f.order,
      required: f.required,
    })),
  };
}

// Both must build the same answer, key order included, or the comparison means nothing.
const current = toProduct(row, rel);
const spread = spreadProduct(row, rel);
if (!isDeepStrictEqual(current, spread) || JSON.stringify(current) !== JSON.stringify(spread)) {
  throw new Error("object-shapes: the spread variant no longer builds toProduct's answer; update it to match");
}

function nsPerOp(build: () => object): number {
  let sink = 0;
  for (let i = 0; i < ITERATIONS / 10; i++) sink += Object.keys(build()).length; // warm up
  const started = process.hrtime.bigint();
  for (let i = 0; i < ITERATIONS; i++) sink += Object.keys(build()).length;
  const ns = Number(process.hrtime.bigint() - started) / ITERATIONS;
  if (sink === 0) throw new Error("nothing built");
  return ns;
}

const assigned = nsPerOp(() => toProduct(row, rel));
const spreaded = nsPerOp(() => spreadProduct(row, rel));
console.log(`| toProduct, one product with 3 prices (${process.version}) | ns/op |`);
console.log("|---|---:|");
console.log(`| Object.assign onto a fresh base (current) | ${assigned.toFixed(0)} |`);
console.log(`| spread, then properties | ${spreaded.toFixed(0)} |`);
console.log(`| ratio spread / current | ${(spreaded / assigned).toFixed(1)}x |`);
