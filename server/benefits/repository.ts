// Benefit and benefit grant queries, always scoped to the caller's organization; deleted
// benefits are gone.
import type { Knex } from "knex";
import type { OrganizationCaller } from "../kit/auth.js";
import { insertReturning, softDeleteRow, updateReturning } from "../kit/rows.js";
import { isUuid } from "../kit/ids.js";
import type { BenefitRow } from "./models.js";

export function readable(db: Knex, caller: OrganizationCaller): Knex.QueryBuilder {
  return db("benefits").where("benefits.organization_id", caller.organizationId).whereNull("benefits.deleted_at");
}

export async function findReadable(
  db: Knex,
  caller: OrganizationCaller,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<BenefitRow | undefined> {
  if (!isUuid(id)) return undefined;
  const q = readable(db, caller).where("benefits.id", id).first("benefits.*");
  return (opts.forUpdate ? q.forUpdate() : q) as Promise<BenefitRow | undefined>;
}

/** The organization's live benefits among `ids` (every id a uuid), with whether a product may carry them. */
export async function liveSelectable(db: Knex, caller: OrganizationCaller, ids: string[]): Promise<{ id: string; selectable: boolean }[]> {
  return db("benefits")
    .whereIn("id", ids)
    .where({ organization_id: caller.organizationId })
    .whereNull("deleted_at")
    .select("id", "selectable");
}

export function insert(db: Knex, values: Record<string, unknown>): Promise<BenefitRow> {
  return insertReturning<BenefitRow>(db, "benefits", values);
}

export function update(db: Knex, id: string, patch: Record<string, unknown>): Promise<BenefitRow> {
  return updateReturning<BenefitRow>(db, "benefits", id, patch);
}

export function softDelete(db: Knex, id: string): Promise<void> {
  return softDeleteRow(db, "benefits", id);
}

/** Benefits by id, deleted ones included, whatever their organization (callers scope the ids first). */
export function byIds(db: Knex, ids: string[]): Promise<BenefitRow[]> {
  return db<BenefitRow>("benefits").whereIn("id", ids) as Promise<BenefitRow[]>;
}

export function findBenefit(db: Knex, id: string): Promise<BenefitRow | undefined> {
  return db("benefits").where({ id }).first() as Promise<BenefitRow | undefined>;
}

/** Live meter_credit benefits crediting a meter: while there are any, the meter cannot be archived. */
export async function liveCreditsOnMeter(db: Knex, meterId: string): Promise<number> {
  const row = await db("benefits")
    .where({ type: "meter_credit" })
    .whereNull("deleted_at")
    .whereRaw("properties ->> 'meter_id' = ?", [meterId])
    .count({ n: "*" })
    .first();
  return Number(row?.n ?? 0);
}
