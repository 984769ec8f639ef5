// Product rules: the price set (one static price, any number of metered prices on recurring
// products, one currency; a free price is a fixed price of 0), custom price bounds, the billing
// period's interval count and the trial (recurring products only), visibility, media and
// custom-field references that must belong to the organization, archiving, benefits, and
// product.created / product.updated events.
import type { Knex } from "knex";
import type { components, operations } from "../../generated/types.js";
import type { OrganizationCaller } from "../kit/auth.js";
import { invalid, NotPermitted, ResourceNotFound } from "../kit/errors.js";
import { asList, isUuid } from "../kit/ids.js";
import { checkMetadata } from "../kit/metadata.js";
import { checkAmount, checkCurrency, MAXIMUM_PRICE_AMOUNT, MINIMUM_PRICE_AMOUNT } from "../kit/money.js";
import { emit } from "../kit/outbox.js";
import { applyMetadataFilter, applySorting, listCountedPage, type Page } from "../kit/pagination.js";
import { toProduct, type ProductOut } from "./models.js";
import * as products from "./repository.js";
import type { Interval, PriceRow, ProductRow } from "./repository.js";
import { givenTrial, type TrialInput } from "./trials.js";
import * as benefitsRepo from "../benefits/repository.js";
import * as customFields from "../custom-fields/repository.js";
import * as files from "../files/repository.js";
import * as meters from "../meters/repository.js";
import { findById } from "../organizations/repository.js";
import { checkSeatTiers } from "./seat-tiers.js";
import { jsonb, type RowPatch } from "../kit/db.js";

type Schemas = components["schemas"];
export type PriceCreate =
  | Schemas["ProductPriceFixedCreate"]
  | Schemas["ProductPriceCustomCreate"]
  | Schemas["ProductPriceFreeCreate"]
  | Schemas["ProductPriceMeteredUnitCreate"]
  | Schemas["ProductPriceSeatBasedCreate"];
export type PriceInput = PriceCreate | Schemas["ExistingProductPrice"];
export type ProductCreateInput = Schemas["ProductCreate"];
export type ProductUpdateInput = Schemas["ProductUpdate"];

export type ProductListQuery = NonNullable<operations["products:list"]["parameters"]["query"]>;

const UNIT_AMOUNT = /^\d{1,17}(\.\d{1,12})?$/;

function checkName(name: string, loc: (string | number)[]) {
  if (name.trim().length < 3) throw invalid(loc, "String should have at least 3 characters", "string_too_short");
}

/** The billing and trial fields of a product, as a create or update body gives them. */
interface TermsInput extends TrialInput {
  recurring_interval_count?: number | null;
  meter_interval?: Interval | null;
  meter_interval_count?: number | null;
}

/** A separate meter cycle is not offered: metered usage bills on the billing interval. */
function refuseMeterCycle(input: TermsInput) {
  for (const key of ["meter_interval", "meter_interval_count"] as const) {
    if (input[key] !== undefined && input[key] !== null) {
      throw invalid(
        ["body", key],
        "A meter cycle apart from the billing interval is not offered: metered usage is billed every billing period.",
        "value_error",
        input[key],
      );
    }
  }
}

/**
 * The interval count and trial a product ends up with: `current` as stored (a new product has
 * none), changed by what `input` gives. Both belong to recurring products only (a one-time
 * product stores a count of 1, shown as null); a trial is an interval and a count, given together.
 */
function checkTerms(
  input: TermsInput,
  recurring: Interval | null,
  current: Pick<ProductRow, "recurring_interval_count" | "trial_interval" | "trial_interval_count"> | null,
): Pick<ProductRow, "recurring_interval_count" | "trial_interval" | "trial_interval_count"> {
  refuseMeterCycle(input);
  const count = input.recurring_interval_count ?? current?.recurring_interval_count ?? 1;
  if (recurring === null && input.recurring_interval_count !== undefined && input.recurring_interval_count !== null) {
    throw invalid(
      ["body", "recurring_interval_count"],
      "A one-time product has no billing interval to count.",
      "value_error",
      input.recurring_interval_count,
    );
  }
  const trial = givenTrial(input) ?? {
    trial_interval: current?.trial_interval ?? null,
    trial_interval_count: current?.trial_interval_count ?? null,
  };
  if (recurring === null && trial.trial_interval !== null) {
    throw invalid(["body", "trial_interval"], "A trial is for recurring products only.", "value_error", trial.trial_interval);
  }
  return Object.assign({ recurring_interval_count: recurring === null ? 1 : count }, trial);
}

/** Validates new prices and returns the rows to insert (without product id / position). */
async function preparePrices(
  trx: Knex,
  caller: OrganizationCaller,
  prices: PriceInput[],
  recurring: Interval | null,
  existing: PriceRow[],
): Promise<{ create: Partial<PriceRow>[]; keep: Set<string> }> {
  const keep = new Set<string>();
  const create: Partial<PriceRow>[] = [];
  const seatPricing = prices.some((p) => "amount_type" in p && p.amount_type === "seat_based")
    ? (await findById(trx, caller.organizationId))?.feature_settings?.seat_based_pricing_enabled === true
    : false;
  let staticCount = 0;
  const currencies = new Set<string>();
  // A free price (given as `free`, or a fixed price of 0) takes the currency of the others.
  const free: Partial<PriceRow>[] = [];
  for (const [i, price] of prices.entries()) {
    const loc = ["body", "prices", i];
    if ("id" in price && !("amount_type" in price)) {
      const found = existing.find((p) => p.id === price.id && !p.is_archived);
      if (!found) throw invalid([...loc, "id"], "Price does not exist on this product.", "value_error");
      keep.add(found.id);
      if (found.amount_type !== "metered_unit") staticCount++;
      if (found.price_currency) currencies.add(found.price_currency);
      continue;
    }
    const p = price as PriceCreate;
    const tax_behavior = "tax_behavior" in p ? (p.tax_behavior ?? null) : null;
    switch (p.amount_type) {
      case "fixed": {
        staticCount++;
        const amount = p.price_amount === 0 ? 0 : checkAmount(p.price_amount, [...loc, "price_amount"]);
        if (amount === 0 && p.price_currency === undefined) {
          free.push({ amount_type: "fixed", price_amount: 0, tax_behavior });
          create.push(free[free.length - 1]);
          break;
        }
        const currency = checkCurrency(p.price_currency, [...loc, "price_currency"]);
        currencies.add(currency);
        create.push({ amount_type: "fixed", price_currency: currency, price_amount: amount, tax_behavior });
        break;
      }
      case "custom": {
        const currency = checkCurrency(p.price_currency, [...loc, "price_currency"]);
        currencies.add(currency);
        staticCount++;
        const min = p.minimum_amount ?? null,
          max = p.maximum_amount ?? null,
          preset = p.preset_amount ?? null;
        if (min !== null) checkAmount(min, [...loc, "minimum_amount"]);
        if (max !== null) checkAmount(max, [...loc, "maximum_amount"]);
        if (preset !== null) checkAmount(preset, [...loc, "preset_amount"]);
        if (min !== null && max !== null && max < min)
          throw invalid([...loc, "maximum_amount"], "Maximum amount must be greater than or equal to the minimum amount.");
        if (preset !== null && min !== null && preset < min)
          throw invalid([...loc, "preset_amount"], "Preset amount must be greater than or equal to the minimum amount.");
        if (preset !== null && max !== null && preset > max)
          throw invalid([...loc, "preset_amount"], "Preset amount must be less than or equal to the maximum amount.");
        create.push({
          amount_type: "custom",
          price_currency: currency,
          minimum_amount: min ?? MINIMUM_PRICE_AMOUNT,
          maximum_amount: max,
          preset_amount: preset,
          tax_behavior,
        });
        break;
      }
      case "free":
        staticCount++;
        free.push({ amount_type: "fixed", price_amount: 0, tax_behavior: null });
        create.push(free[free.length - 1]);
        break;
      case "seat_based": {
        if (!seatPricing) throw invalid(loc, "Seat-based pricing is not enabled for this organization.");
        const currency = checkCurrency(p.price_currency, [...loc, "price_currency"]);
        currencies.add(currency);
        staticCount++;
        const seat_tiers = checkSeatTiers(p.seat_tiers, [...loc, "seat_tiers"]);
        create.push({ amount_type: "seat_based", price_currency: currency, seat_tiers, tax_behavior });
        break;
      }
      case "metered_unit": {
        if (recurring === null) throw invalid([...loc, "amount_type"], "Metered prices are not supported on one-time purchase products.");
        const currency = checkCurrency(p.price_currency, [...loc, "price_currency"]);
        currencies.add(currency);
        const unit = typeof p.unit_amount === "number" ? p.unit_amount.toFixed(12) : String(p.unit_amount);
        if (!UNIT_AMOUNT.test(unit) || Number(unit) <= 0) {
          throw invalid([...loc, "unit_amount"], "Unit amount must be a positive number with at most 12 decimal places.");
        }
        if (p.cap_amount !== undefined && p.cap_amount !== null)
          checkAmount(p.cap_amount, [...loc, "cap_amount"], { min: 0, max: MAXIMUM_PRICE_AMOUNT });
        const meter = isUuid(p.meter_id) ? await meters.findLiveId(trx, caller, p.meter_id) : undefined;
        if (!meter) throw invalid([...loc, "meter_id"], "Meter does not exist.");
        create.push({
          amount_type: "metered_unit",
          price_currency: currency,
          unit_amount: unit,
          cap_amount: p.cap_amount ?? null,
          meter_id: p.meter_id,
          tax_behavior,
        });
        break;
      }
    }
  }
  if (prices.length === 0) throw invalid(["body", "prices"], "List should have at least 1 item after validation, not 0", "too_short");
  if (staticCount > 1) throw invalid(["body", "prices"], "Only one static price (fixed, custom, free or seat-based) is allowed.");
  if (staticCount === 0) throw invalid(["body", "prices"], "A product needs one static price (fixed, custom, free or seat-based).");
  if (currencies.size > 1) throw invalid(["body", "prices"], "All prices must use the same currency.");
  const currency = [...currencies][0] ?? existing.find((p) => keep.has(p.id) && p.price_currency)?.price_currency ?? "usd";
  for (const p of free) p.price_currency = currency;
  return { create, keep };
}

async function checkMedias(trx: Knex, caller: OrganizationCaller, medias: string[]): Promise<string[]> {
  const ids = [...new Set(medias)];
  if (ids.some((id) => !isUuid(id))) throw invalid(["body", "medias"], "Media must be ids of uploaded product media files.");
  const found = await files.uploadedProductMediaIds(trx, caller, ids);
  if (found.length !== ids.length)
    throw invalid(["body", "medias"], "Media must be ids of uploaded product media files of this organization.");
  return ids;
}

async function checkCustomFields(trx: Knex, caller: OrganizationCaller, fields: { custom_field_id: string; required: boolean }[]) {
  const ids = fields.map((f) => f.custom_field_id);
  if (new Set(ids).size !== ids.length) throw invalid(["body", "attached_custom_fields"], "A custom field can be attached once.");
  if (ids.some((id) => !isUuid(id))) throw invalid(["body", "attached_custom_fields"], "Custom field does not exist.");
  const found = ids.length ? await customFields.liveIds(trx, caller, ids) : [];
  if (found.length !== ids.length) throw invalid(["body", "attached_custom_fields"], "Custom field does not exist.");
}

async function writeAttachments(
  trx: Knex,
  productId: string,
  medias: string[] | null | undefined,
  fields: { custom_field_id: string; required: boolean }[] | null | undefined,
) {
  if (medias !== undefined && medias !== null) await products.replaceMedias(trx, productId, medias);
  if (fields !== undefined && fields !== null) await products.replaceCustomFields(trx, productId, fields);
}

async function readProduct(db: Knex, row: ProductRow): Promise<ProductOut> {
  const rel = await products.loadRelations(db, [row.id]);
  return toProduct(row, rel.get(row.id)!);
}

export async function createProduct(db: Knex, caller: OrganizationCaller, input: ProductCreateInput): Promise<ProductOut> {
  if (input.organization_id && input.organization_id !== caller.organizationId) {
    throw invalid(["body", "organization_id"], "Organization not found or not accessible with this token.");
  }
  checkName(input.name, ["body", "name"]);
  const metadata = checkMetadata(input.metadata);
  return db.transaction(async (trx) => {
    const recurring = input.recurring_interval ?? null;
    const terms = checkTerms(input, recurring, null);
    const { create } = await preparePrices(trx, caller, input.prices, recurring, []);
    const medias = input.medias ? await checkMedias(trx, caller, input.medias) : [];
    await checkCustomFields(trx, caller, input.attached_custom_fields ?? []);
    const row = await products.insert(trx, {
      organization_id: caller.organizationId,
      name: input.name.trim(),
      description: input.description ?? null,
      recurring_interval: recurring,
      recurring_interval_count: terms.recurring_interval_count,
      trial_interval: terms.trial_interval,
      trial_interval_count: terms.trial_interval_count,
      visibility: input.visibility ?? "public",
      tax_category: input.tax_category ?? "digital_service",
      metadata: jsonb(trx, metadata),
    });
    await products.insertPrices(
      trx,
      create.map((p, position) => Object.assign({}, p, { product_id: row.id, position })),
    );
    await writeAttachments(trx, row.id, medias, input.attached_custom_fields ?? []);
    const out = await readProduct(trx, row);
    await emit(trx, caller.organizationId, "product.created", out);
    return out;
  });
}

export async function getProduct(db: Knex, caller: OrganizationCaller, id: string): Promise<ProductOut> {
  const found = await products.findReadableWithRelations(db, caller, id);
  if (!found) throw new ResourceNotFound("Product not found.");
  return toProduct(found.row, found.relations);
}

export async function listProducts(db: Knex, caller: OrganizationCaller, query: ProductListQuery): Promise<Page<ProductOut>> {
  const q = products.readable(db, caller);
  const ids = asList(query.id);
  if (ids.length) q.whereIn("products.id", ids.filter(isUuid));
  const orgs = asList(query.organization_id);
  if (orgs.length) q.whereIn("products.organization_id", orgs.filter(isUuid));
  if (query.query) q.whereRaw("products.name ilike ?", [`%${query.query.replace(/[\\%_]/g, "\\$&")}%`]);
  if (query.is_archived !== undefined && query.is_archived !== null) q.where("products.is_archived", query.is_archived);
  if (query.is_recurring === true) q.whereNotNull("products.recurring_interval");
  if (query.is_recurring === false) q.whereNull("products.recurring_interval");
  const visibility = asList(query.visibility);
  if (visibility.length) q.whereIn("products.visibility", visibility);
  const benefits = asList(query.benefit_id);
  if (benefits.length) products.whereHasBenefit(db, q, benefits.filter(isUuid));
  applyMetadataFilter(q, "products.metadata", query.metadata);
  applySorting(q, query.sorting, products.listSorts(db), ["-created_at"], "products.id");
  // Page, total and relations in one statement; prepared when no list of ids shapes its text.
  const prepare =
    !ids.length && !orgs.length && !benefits.length && !visibility.length && !query.metadata && asList(query.sorting).length <= 1;
  return listCountedPage(
    products.selectListColumns(db, q),
    query,
    (paged) => products.readListPage(db, paged, prepare),
    (rows) =>
      rows.map((found) => {
        const { row, relations } = products.fromListRow(found);
        return toProduct(row, relations);
      }),
  );
}

export async function updateProduct(db: Knex, caller: OrganizationCaller, id: string, input: ProductUpdateInput): Promise<ProductOut> {
  return db.transaction(async (trx) => {
    const row = await products.findReadable(trx, caller, id, { forUpdate: true });
    if (!row) throw new ResourceNotFound("Product not found.");
    const patch: RowPatch<ProductRow> & Record<string, unknown> = {};
    if (input.name !== undefined && input.name !== null) {
      checkName(input.name, ["body", "name"]);
      patch.name = input.name.trim();
    }
    if (input.description !== undefined) patch.description = input.description;
    if (input.metadata !== undefined) patch.metadata = jsonb(trx, checkMetadata(input.metadata));
    if (input.is_archived !== undefined && input.is_archived !== null) patch.is_archived = input.is_archived;
    let interval = row.recurring_interval;
    if (input.recurring_interval !== undefined && input.recurring_interval !== row.recurring_interval) {
      if ((input.recurring_interval === null) !== (row.recurring_interval === null)) {
        throw invalid(["body", "recurring_interval"], "A one-time product can't become recurring, nor the reverse.");
      }
      interval = input.recurring_interval;
      patch.recurring_interval = interval;
    }
    Object.assign(patch, checkTerms(input, interval, row));
    if (input.visibility !== undefined && input.visibility !== null) patch.visibility = input.visibility;
    if (input.tax_category !== undefined && input.tax_category !== null) patch.tax_category = input.tax_category;
    if (input.prices !== undefined && input.prices !== null) {
      const existing = await products.pricesForUpdate(trx, row.id);
      const { create, keep } = await preparePrices(trx, caller, input.prices, interval, existing);
      const archive = existing.filter((p) => !p.is_archived && !keep.has(p.id)).map((p) => p.id);
      if (archive.length) await products.archivePrices(trx, archive);
      const base = existing.reduce((m, p) => Math.max(m, p.position + 1), 0);
      if (create.length)
        await products.insertPrices(
          trx,
          create.map((p, i) => Object.assign({}, p, { product_id: row.id, position: base + i })),
        );
    }
    const medias = input.medias !== undefined && input.medias !== null ? await checkMedias(trx, caller, input.medias) : input.medias;
    if (input.attached_custom_fields) await checkCustomFields(trx, caller, input.attached_custom_fields);
    await writeAttachments(trx, row.id, medias, input.attached_custom_fields);
    patch.modified_at = new Date();
    const updated = await products.update(trx, row.id, patch);
    const out = await readProduct(trx, updated);
    await emit(trx, caller.organizationId, "product.updated", out);
    return out;
  });
}

export async function updateProductBenefits(db: Knex, caller: OrganizationCaller, id: string, benefitIds: string[]): Promise<ProductOut> {
  return db.transaction(async (trx) => {
    const row = await products.findReadable(trx, caller, id, { forUpdate: true });
    if (!row) throw new ResourceNotFound("Product not found.");
    const ids = [...new Set(benefitIds)];
    if (ids.some((b) => !isUuid(b))) throw invalid(["body", "benefits"], "Benefit does not exist.");
    const found: { id: string; selectable: boolean }[] = ids.length ? await benefitsRepo.liveSelectable(trx, caller, ids) : [];
    if (found.length !== ids.length) throw invalid(["body", "benefits"], "Benefit does not exist.");
    const current = await products.benefitIds(trx, row.id);
    const added = found.filter((b) => !current.includes(b.id));
    if (added.some((b) => !b.selectable)) throw new NotPermitted("This benefit can't be attached to products.");
    await products.replaceBenefits(trx, row.id, ids);
    const updated = await products.update(trx, row.id, { modified_at: new Date() });
    const out = await readProduct(trx, updated);
    await emit(trx, caller.organizationId, "product.updated", out);
    return out;
  });
}
