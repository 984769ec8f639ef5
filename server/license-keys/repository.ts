// License key queries, always scoped to the caller's organization (and, in the portal, to the
// session's customer). Deactivated activations are soft-deleted and never read.
import type { Knex } from "knex";
import { insertReturning, softDeleteRow, updateReturning } from "../kit/rows.js";
import { isUuid } from "../kit/ids.js";
import type { ReadScope } from "../kit/auth.js";

export type LicenseKeyStatus = "granted" | "revoked" | "disabled";
export type ConditionValue = string | number | boolean;

export interface LicenseKeyRow {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  organization_id: string;
  customer_id: string;
  benefit_id: string;
  key: string;
  display_key: string;
  status: LicenseKeyStatus;
  limit_activations: number | null;
  usage: number;
  limit_usage: number | null;
  validations: number;
  last_validated_at: Date | null;
  expires_at: Date | null;
}

export interface ActivationRow {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  license_key_id: string;
  label: string;
  conditions: Record<string, ConditionValue>;
  meta: Record<string, ConditionValue>;
  deleted_at: Date | null;
}

export type LicenseKeyScope = ReadScope;

export function readable(db: Knex, scope: LicenseKeyScope): Knex.QueryBuilder {
  const q = db("license_keys").where("license_keys.organization_id", scope.organizationId);
  if (scope.customerId) q.where("license_keys.customer_id", scope.customerId);
  if (scope.ids) q.whereIn("license_keys.id", scope.ids);
  return q;
}

export async function findReadable(
  db: Knex,
  scope: LicenseKeyScope,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<LicenseKeyRow | undefined> {
  if (!isUuid(id)) return undefined;
  const q = readable(db, scope).where("license_keys.id", id).first("license_keys.*");
  return (opts.forUpdate ? q.forUpdate() : q) as Promise<LicenseKeyRow | undefined>;
}

/** A key as its holder presents it: the key string within one organization. */
export async function findByKey(
  db: Knex,
  scope: LicenseKeyScope,
  key: string,
  opts: { forUpdate?: boolean } = {},
): Promise<LicenseKeyRow | undefined> {
  const q = readable(db, scope).where("license_keys.key", key).first("license_keys.*");
  return (opts.forUpdate ? q.forUpdate() : q) as Promise<LicenseKeyRow | undefined>;
}

function liveActivations(db: Knex, licenseKeyId: string): Knex.QueryBuilder {
  return db("license_key_activations")
    .where("license_key_activations.license_key_id", licenseKeyId)
    .whereNull("license_key_activations.deleted_at");
}

export async function listActivations(db: Knex, licenseKeyId: string): Promise<ActivationRow[]> {
  return liveActivations(db, licenseKeyId)
    .orderBy([{ column: "created_at" }, { column: "id" }])
    .select("*");
}

export async function countActivations(db: Knex, licenseKeyId: string): Promise<number> {
  const row = await liveActivations(db, licenseKeyId).count({ n: "*" }).first();
  return Number(row?.n ?? 0);
}

export async function findActivation(
  db: Knex,
  licenseKeyId: string,
  activationId: string,
  opts: { forUpdate?: boolean } = {},
): Promise<ActivationRow | undefined> {
  if (!isUuid(activationId)) return undefined;
  const q = liveActivations(db, licenseKeyId).where("license_key_activations.id", activationId).first("*");
  return (opts.forUpdate ? q.forUpdate() : q) as Promise<ActivationRow | undefined>;
}

/** Locks the key's row: serializes the changes a grant and a merchant make to one key. */
export async function lockById(db: Knex, id: string): Promise<void> {
  await db("license_keys").where({ id }).forUpdate().first("id");
}

export async function update(db: Knex, id: string, patch: Record<string, unknown>): Promise<void> {
  await db("license_keys").where({ id }).update(patch);
}

export async function insert(db: Knex, values: Record<string, unknown>): Promise<{ id: string; display_key: string }> {
  const [row] = await db<LicenseKeyRow>("license_keys").insert(values).returning(["id", "display_key"]);
  return row!;
}

/** Writes `patch` (with its own modified_at) and returns the key. */
export function saveKey(db: Knex, id: string, patch: Record<string, unknown>): Promise<LicenseKeyRow> {
  return updateReturning<LicenseKeyRow>(db, "license_keys", id, patch);
}

export function insertActivation(db: Knex, values: Record<string, unknown>): Promise<ActivationRow> {
  return insertReturning<ActivationRow>(db, "license_key_activations", values);
}

export function softDeleteActivation(db: Knex, id: string): Promise<void> {
  return softDeleteRow(db, "license_key_activations", id);
}

/** A license key by id, whatever its organization (the caller knows it from a grant). */
export function findLicenseKey(db: Knex, id: string): Promise<LicenseKeyRow | undefined> {
  return db<LicenseKeyRow>("license_keys").where({ id }).first();
}
