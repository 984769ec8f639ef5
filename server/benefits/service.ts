// Benefit rules: a description of 3 to 42 characters, each type's properties (see
// properties.ts), a type that never changes, soft deletion (403 when not deletable) that
// detaches the benefit from products, and benefit.created / benefit.updated. Products and grants
// follow a change through the BenefitDependents it is handed (the grants list is benefit-grants').
import { isDeepStrictEqual } from "node:util";
import type { Knex } from "knex";
import type { components } from "../../generated/types.js";
import type { OrganizationCaller } from "../kit/auth.js";
import { invalid, NotPermitted, ResourceNotFound } from "../kit/errors.js";
import { asList, isUuid } from "../kit/ids.js";
import { checkMetadata } from "../kit/metadata.js";
import { emit } from "../kit/outbox.js";
import { applyMetadataFilter, applySorting, listPage, type Page } from "../kit/pagination.js";
import { toBenefit, VISIBILITY_CONFIGURABLE, type BenefitOut, type BenefitRow, type BenefitVisibility } from "./models.js";
import { BENEFIT_TYPES, checkProperties, type BenefitType } from "./properties.js";
import * as benefits from "./repository.js";
import { findReadable, readable } from "./repository.js";

type Schemas = components["schemas"];
export type BenefitCreateInput = Schemas["BenefitCreate"];
export type BenefitUpdateInput =
  | Schemas["BenefitCustomUpdate"]
  | Schemas["BenefitDiscordUpdate"]
  | Schemas["BenefitGitHubRepositoryUpdate"]
  | Schemas["BenefitDownloadablesUpdate"]
  | Schemas["BenefitLicenseKeysUpdate"]
  | Schemas["BenefitMeterCreditUpdate"];

export interface BenefitListQuery {
  organization_id?: string[] | string | null;
  type?: BenefitType[] | BenefitType | null;
  id?: string[] | string | null;
  exclude_id?: string[] | string | null;
  query?: string | null;
  page?: number;
  limit?: number;
  sorting?: string[] | null;
  metadata?: Record<string, unknown> | null;
}

/**
 * How what stands on a benefit follows its change, inside the change's transaction: its grants
 * (benefit-grants/schedule.ts) and the products it is attached to (products/repository.ts). Both
 * domains import benefits, so benefits/handlers.ts hands them in.
 */
export interface BenefitDependents {
  scheduleBenefitUpdates(
    trx: Knex.Transaction,
    input: { benefitId: string; previousProperties: Record<string, unknown> },
  ): Promise<unknown>;
  scheduleBenefitDeletion(trx: Knex.Transaction, input: { benefitId: string }): Promise<unknown>;
  detachBenefit(trx: Knex.Transaction, benefitId: string): Promise<void>;
}

const DESCRIPTION_MIN = 3;
const DESCRIPTION_MAX = 42;

/** A visibility other than public, for a type that allows it. */
function checkVisibility(type: BenefitType, visibility: BenefitVisibility | null | undefined): BenefitVisibility | undefined {
  if (visibility === undefined || visibility === null) return undefined;
  if (visibility !== "public" && !VISIBILITY_CONFIGURABLE.has(type)) {
    throw invalid(
      ["body", "visibility"],
      "Visibility is not configurable for this benefit type and must be public.",
      "value_error",
      visibility,
    );
  }
  return visibility;
}

function checkDescription(description: string): string {
  const d = description.trim();
  if (d.length < DESCRIPTION_MIN)
    throw invalid(["body", "description"], `String should have at least ${DESCRIPTION_MIN} characters`, "string_too_short");
  if (d.length > DESCRIPTION_MAX)
    throw invalid(["body", "description"], `String should have at most ${DESCRIPTION_MAX} characters`, "string_too_long");
  return d;
}

export async function createBenefit(db: Knex, caller: OrganizationCaller, input: BenefitCreateInput): Promise<BenefitOut> {
  if (input.organization_id && input.organization_id !== caller.organizationId) {
    throw invalid(["body", "organization_id"], "Organization not found or not accessible with this token.");
  }
  if (!BENEFIT_TYPES.includes(input.type)) throw invalid(["body", "type"], "Input should be a valid benefit type", "literal_error");
  const description = checkDescription(input.description);
  const metadata = checkMetadata(input.metadata);
  const visibility = checkVisibility(input.type, input.visibility) ?? "public";
  return db.transaction(async (trx) => {
    const properties = await checkProperties(trx, caller, input.type, input.properties);
    const row = await benefits.insert(trx, {
      organization_id: caller.organizationId,
      type: input.type,
      description,
      visibility,
      metadata: JSON.stringify(metadata),
      properties: JSON.stringify(properties),
    });
    const out = toBenefit(row);
    await emit(trx, caller.organizationId, "benefit.created", out);
    return out;
  });
}

export async function getBenefit(db: Knex, caller: OrganizationCaller, id: string): Promise<BenefitOut> {
  const row = await findReadable(db, caller, id);
  if (!row) throw new ResourceNotFound("Benefit not found.");
  return toBenefit(row);
}

export async function listBenefits(db: Knex, caller: OrganizationCaller, query: BenefitListQuery): Promise<Page<BenefitOut>> {
  const q = readable(db, caller).select("benefits.*");
  const orgs = asList(query.organization_id);
  if (orgs.length) q.whereIn("benefits.organization_id", orgs.filter(isUuid));
  const types = asList(query.type);
  if (types.length) q.whereIn("benefits.type", types);
  const ids = asList(query.id);
  if (ids.length) q.whereIn("benefits.id", ids.filter(isUuid));
  const excluded = asList(query.exclude_id).filter(isUuid);
  if (excluded.length) q.whereNotIn("benefits.id", excluded);
  if (query.query) q.whereRaw("benefits.description ilike ?", [`%${query.query.replace(/[\\%_]/g, "\\$&")}%`]);
  applyMetadataFilter(q, "benefits.metadata", query.metadata);
  applySorting(
    q,
    query.sorting,
    { created_at: "benefits.created_at", description: "benefits.description", type: "benefits.type" },
    ["-created_at"],
    "benefits.id",
  );
  return listPage(q, query, (rows: BenefitRow[]) => rows.map(toBenefit));
}

export async function updateBenefit(
  db: Knex,
  caller: OrganizationCaller,
  id: string,
  input: BenefitUpdateInput,
  dependents: BenefitDependents,
): Promise<BenefitOut> {
  return db.transaction(async (trx) => {
    const row = await findReadable(trx, caller, id, { forUpdate: true });
    if (!row) throw new ResourceNotFound("Benefit not found.");
    if (input.type !== row.type) throw invalid(["body", "type"], "Benefit type cannot be changed.", "value_error", input.type);
    const patch: Record<string, unknown> = {};
    if (input.description !== undefined && input.description !== null) patch.description = checkDescription(input.description);
    if (input.metadata !== undefined) patch.metadata = JSON.stringify(checkMetadata(input.metadata));
    const visibility = checkVisibility(row.type, input.visibility);
    if (visibility !== undefined) patch.visibility = visibility;
    if (input.properties !== undefined && input.properties !== null) {
      patch.properties = JSON.stringify(await checkProperties(trx, caller, row.type as BenefitType, input.properties));
    }
    patch.modified_at = new Date();
    const updated = await benefits.update(trx, row.id, patch);
    const out = toBenefit(updated);
    // Existing grants follow the new properties (one update job per granted grant).
    if (!isDeepStrictEqual(updated.properties, row.properties)) {
      await dependents.scheduleBenefitUpdates(trx, { benefitId: row.id, previousProperties: row.properties });
    }
    await emit(trx, caller.organizationId, "benefit.updated", out);
    return out;
  });
}

export async function deleteBenefit(db: Knex, caller: OrganizationCaller, id: string, dependents: BenefitDependents): Promise<void> {
  await db.transaction(async (trx) => {
    const row = await findReadable(trx, caller, id, { forUpdate: true });
    if (!row) throw new ResourceNotFound("Benefit not found.");
    if (!row.deletable) throw new NotPermitted("This benefit can't be deleted.");
    const now = new Date();
    const deleted = await benefits.update(trx, row.id, { deleted_at: now, modified_at: now });
    await dependents.detachBenefit(trx, row.id);
    await dependents.scheduleBenefitDeletion(trx, { benefitId: row.id });
    // Polar announces the deletion as an update.
    await emit(trx, caller.organizationId, "benefit.updated", toBenefit(deleted));
  });
}
