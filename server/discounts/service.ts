// Discount rules: fixed or percentage; once, forever or repeating 1..999 months; a code of 3..256
// letters and digits, unique per organization case-insensitively among live discounts; starts_at
// before ends_at; redemption limits >= 1; products of the organization only. Once redeemed, what
// a customer was promised cannot change. Delete is soft and frees the code.
import type { OpBody } from "../../generated/handlers.js";
import { jsonb, type RowPatch } from "../kit/db.js";
import type { Knex } from "knex";
import type { OrganizationCaller } from "../kit/auth.js";
import { invalid, ResourceNotFound } from "../kit/errors.js";
import { asList, isUuid } from "../kit/ids.js";
import { checkMetadata } from "../kit/metadata.js";
import { checkCurrency } from "../kit/money.js";
import { applySorting, listPage, type Page } from "../kit/pagination.js";
import { toDiscount, type DiscountOut } from "./models.js";
import {
  codeTaken,
  findReadable,
  insert,
  loadProducts,
  ownProductIds,
  readable,
  replaceProducts,
  softDelete,
  update,
  type DiscountDuration,
  type DiscountRow,
  type DiscountType,
} from "./repository.js";

export type DiscountCreateInput = OpBody<"discounts:create">;

export type DiscountUpdateInput = OpBody<"discounts:update">;

export interface DiscountListQuery {
  organization_id?: string | string[] | null;
  query?: string | null;
  page?: number;
  limit?: number;
  sorting?: string[] | null;
}

const MAX_AMOUNT = 999_999_999_999;
const CODE_TAKEN = "Discount with this code already exists.";

function int(value: unknown, loc: string, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isInteger(value))
    throw invalid(["body", loc], "Input should be a valid integer", "int_type", value);
  if (value < min) throw invalid(["body", loc], `Input should be greater than or equal to ${min}`, "greater_than_equal", value);
  if (value > max) throw invalid(["body", loc], `Input should be less than or equal to ${max}`, "less_than_equal", value);
  return value;
}

function checkName(name: unknown): string {
  if (typeof name !== "string" || name.trim().length < 1)
    throw invalid(["body", "name"], "String should have at least 1 character", "string_too_short");
  return name.trim();
}

/** Empty means no code: the discount then applies only through the API. */
function checkCode(code: string | null | undefined): string | null {
  if (code === null || code === undefined || code === "") return null;
  if (!/^[\p{L}\p{N}]+$/u.test(code))
    throw invalid(["body", "code"], "Code must contain only alphanumeric characters.", "value_error", code);
  if (code.length < 3 || code.length > 256)
    throw invalid(["body", "code"], "Code must be between 3 and 256 characters long.", "value_error", code);
  return code;
}

function checkDate(value: string | null | undefined, loc: string): Date | null {
  if (value === null || value === undefined) return null;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) throw invalid(["body", loc], "Input should be a valid datetime", "datetime_parsing", value);
  return d;
}

function checkWindow(startsAt: Date | null, endsAt: Date | null) {
  if (startsAt && endsAt && startsAt.getTime() >= endsAt.getTime()) {
    throw invalid(["body", "ends_at"], "starts_at must be before ends_at", "value_error");
  }
}

async function checkProducts(trx: Knex, caller: OrganizationCaller, products: string[]): Promise<string[]> {
  const ids = [...new Set(products)];
  const own = new Set(await ownProductIds(trx, caller, ids));
  const missing = products.findIndex((id) => !own.has(id));
  if (missing >= 0) throw invalid(["body", "products", missing], "Product not found.", "value_error", products[missing]);
  return ids;
}

/**
 * A fixed discount's amount and currency, given as such (0.34.17) or as `amounts` (0.49.0): one
 * currency per discount, and both ways saying the same when both are given.
 */
function amountOf(v: { amount?: number | null; currency?: string | null; amounts?: Record<string, number> | null }) {
  if (v.amounts === undefined || v.amounts === null) return { amount: v.amount, currency: v.currency };
  const entries = Object.entries(v.amounts);
  if (entries.length !== 1)
    throw invalid(["body", "amounts"], "A discount has one currency: give exactly one amount.", "value_error", v.amounts);
  const [[currency, amount]] = entries;
  const same = (a: unknown, b: unknown) => a === undefined || a === null || a === b;
  if (!same(v.amount, amount) || !same(v.currency?.toLowerCase(), currency.toLowerCase())) {
    throw invalid(["body", "amounts"], "amounts and amount/currency disagree.", "value_error", v.amounts);
  }
  return { amount, currency };
}

/** The amount fields of a type and duration: only the ones the shape carries are kept. */
function shape(
  type: DiscountType,
  duration: DiscountDuration,
  v: {
    amount?: number | null;
    currency?: string | null;
    amounts?: Record<string, number> | null;
    basis_points?: number | null;
    duration_in_months?: number | null;
  },
) {
  const out: Pick<DiscountRow, "type" | "duration" | "amount" | "currency" | "basis_points" | "duration_in_months"> = {
    type,
    duration,
    amount: null,
    currency: null,
    basis_points: null,
    duration_in_months: null,
  };
  if (type === "fixed") {
    const given = amountOf(v);
    if (given.amount === undefined || given.amount === null) throw invalid(["body", "amount"], "Field required", "missing");
    out.amount = int(given.amount, "amount", 0, MAX_AMOUNT);
    out.currency = checkCurrency(given.currency, ["body", "currency"]);
  } else {
    if (v.basis_points === undefined || v.basis_points === null) throw invalid(["body", "basis_points"], "Field required", "missing");
    out.basis_points = int(v.basis_points, "basis_points", 1, 10_000);
  }
  if (duration === "repeating") {
    if (v.duration_in_months === undefined || v.duration_in_months === null) {
      throw invalid(["body", "duration_in_months"], "Field required", "missing");
    }
    out.duration_in_months = int(v.duration_in_months, "duration_in_months", 1, 999);
  }
  return out;
}

function uniqueViolation(err: unknown, code: string | null | undefined): never {
  const e = err as { code?: string; constraint?: string };
  if (e?.code === "23505" && e.constraint === "discounts_org_code") throw invalid(["body", "code"], CODE_TAKEN, "value_error", code);
  throw err;
}

/** A redemption limit: none (null) or at least 1. */
function limit(value: number | null | undefined, field: string): number | null {
  return value === undefined || value === null ? null : int(value, field, 1, 2_147_483_647);
}

async function readDiscount(db: Knex, row: DiscountRow): Promise<DiscountOut> {
  const products = await loadProducts(db, [row.id]);
  return toDiscount(row, products.get(row.id)!);
}

export async function createDiscount(db: Knex, caller: OrganizationCaller, input: DiscountCreateInput): Promise<DiscountOut> {
  if (input.organization_id && input.organization_id !== caller.organizationId) {
    throw invalid(["body", "organization_id"], "Organization not found or not accessible with this token.");
  }
  const name = checkName(input.name);
  const amounts = shape(input.type, input.duration, input);
  const code = checkCode(input.code);
  const startsAt = checkDate(input.starts_at, "starts_at");
  const endsAt = checkDate(input.ends_at, "ends_at");
  checkWindow(startsAt, endsAt);
  const maxRedemptions = limit(input.max_redemptions, "max_redemptions");
  const maxPerCustomer = limit(input.max_redemptions_per_customer, "max_redemptions_per_customer");
  const metadata = checkMetadata(input.metadata);
  return db
    .transaction(async (trx) => {
      if (code !== null && (await codeTaken(trx, caller, code))) throw invalid(["body", "code"], CODE_TAKEN, "value_error", code);
      const products = input.products ? await checkProducts(trx, caller, input.products) : [];
      const row = await insert(
        trx,
        Object.assign({ organization_id: caller.organizationId, name, code }, amounts, {
          starts_at: startsAt,
          ends_at: endsAt,
          max_redemptions: maxRedemptions,
          max_redemptions_per_customer: maxPerCustomer,
          metadata: jsonb(trx, metadata),
        }),
      );
      await replaceProducts(trx, row.id, products);
      return readDiscount(trx, row);
    })
    .catch((err) => uniqueViolation(err, code));
}

export async function getDiscount(db: Knex, caller: OrganizationCaller, id: string): Promise<DiscountOut> {
  const row = await findReadable(db, caller, id);
  if (!row) throw new ResourceNotFound("Discount not found.");
  return readDiscount(db, row);
}

export async function listDiscounts(db: Knex, caller: OrganizationCaller, query: DiscountListQuery): Promise<Page<DiscountOut>> {
  const q = readable(db, caller).select("discounts.*");
  const orgs = asList(query.organization_id);
  if (orgs.length) q.whereIn("discounts.organization_id", orgs.filter(isUuid));
  if (query.query) {
    const like = `%${query.query.replace(/[\\%_]/g, "\\$&")}%`;
    q.where((w) => w.whereRaw("discounts.name ilike ?", [like]).orWhereRaw("discounts.code ilike ?", [like]));
  }
  applySorting(
    q,
    query.sorting,
    {
      created_at: "discounts.created_at",
      name: "discounts.name",
      code: "discounts.code",
      redemptions_count: "discounts.redemptions_count",
    },
    ["-created_at"],
    "discounts.id",
  );
  return listPage(q, query, async (rows: DiscountRow[]) => {
    const products = await loadProducts(
      db,
      rows.map((r) => r.id),
    );
    return rows.map((r) => toDiscount(r, products.get(r.id)!));
  });
}

const LOCKED_WHEN_REDEEMED = ["type", "duration", "duration_in_months", "amount", "currency", "basis_points"] as const;

export async function updateDiscount(db: Knex, caller: OrganizationCaller, id: string, input: DiscountUpdateInput): Promise<DiscountOut> {
  return db
    .transaction(async (trx) => {
      const row = await findReadable(trx, caller, id, { forUpdate: true });
      if (!row) throw new ResourceNotFound("Discount not found.");
      const patch: RowPatch<DiscountRow> & Record<string, unknown> = {};
      if (input.name !== undefined && input.name !== null) patch.name = checkName(input.name);
      if (input.code !== undefined) {
        const code = checkCode(input.code);
        if (code !== null && (await codeTaken(trx, caller, code, row.id))) throw invalid(["body", "code"], CODE_TAKEN, "value_error", code);
        patch.code = code;
      }

      // Type, duration and amounts: the merged values must form a valid shape.
      const type = input.type ?? row.type;
      const duration = input.duration ?? row.duration;
      const given = amountOf(input);
      const amounts = shape(type, duration, {
        amount: given.amount ?? (row.type === "fixed" ? row.amount : null),
        currency: given.currency ?? row.currency,
        basis_points: input.basis_points ?? row.basis_points,
        duration_in_months: input.duration_in_months ?? row.duration_in_months,
      });
      if (row.redemptions_count > 0) {
        for (const field of LOCKED_WHEN_REDEEMED) {
          if ((amounts[field] === null ? null : String(amounts[field])) !== (row[field] === null ? null : String(row[field]))) {
            throw invalid(["body", field], "This field cannot be changed because the discount has already been redeemed.", "value_error");
          }
        }
      }
      Object.assign(patch, amounts);

      const startsAt = input.starts_at === undefined ? row.starts_at : checkDate(input.starts_at, "starts_at");
      const endsAt = input.ends_at === undefined ? row.ends_at : checkDate(input.ends_at, "ends_at");
      checkWindow(startsAt, endsAt);
      patch.starts_at = startsAt;
      patch.ends_at = endsAt;
      if (input.max_redemptions !== undefined) patch.max_redemptions = limit(input.max_redemptions, "max_redemptions");
      if (input.max_redemptions_per_customer !== undefined) {
        patch.max_redemptions_per_customer = limit(input.max_redemptions_per_customer, "max_redemptions_per_customer");
      }
      if (input.metadata !== undefined) patch.metadata = jsonb(trx, checkMetadata(input.metadata));
      if (input.products !== undefined && input.products !== null) {
        await replaceProducts(trx, row.id, await checkProducts(trx, caller, input.products));
      }
      patch.modified_at = new Date();
      const updated = await update(trx, row.id, patch);
      return readDiscount(trx, updated);
    })
    .catch((err) => uniqueViolation(err, input.code));
}

export async function deleteDiscount(db: Knex, caller: OrganizationCaller, id: string): Promise<void> {
  await db.transaction(async (trx) => {
    const row = await findReadable(trx, caller, id, { forUpdate: true });
    if (!row) throw new ResourceNotFound("Discount not found.");
    await softDelete(trx, row.id);
  });
}
