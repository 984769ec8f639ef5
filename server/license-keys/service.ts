// License key rules. Keys are created, re-enabled, revoked and re-limited by the license_keys
// benefit's grants (the functions taking a transaction, called by the grant strategy); holders
// validate, activate and deactivate them by the key string within one organization; merchants
// read and update them. Validation and activation lock the key row so counters and the
// activation limit hold under concurrent calls.
import { jsonb } from "../kit/db.js";
import { randomUUID } from "node:crypto";
import type { Knex } from "knex";
import type { components } from "../../generated/types.js";
import { organizationCustomersByIds, type CustomerRow } from "../customers/repository.js";
import { customerScope, type CustomerCaller, type OrganizationCaller } from "../kit/auth.js";
import { invalid, NotPermitted, ResourceNotFound } from "../kit/errors.js";
import { asList, isUuid } from "../kit/ids.js";
import { checkMetadata } from "../kit/metadata.js";
import { listPage, type Page } from "../kit/pagination.js";
import {
  toActivation,
  toActivationCreated,
  toActivationBase,
  toLicenseKey,
  type ActivationCreatedOut,
  type ActivationOut,
  type LicenseKeyOut,
  type LicenseKeyWithActivationsOut,
  type ValidatedLicenseKeyOut,
} from "./models.js";
import {
  countActivations,
  findActivation,
  findByKey,
  findReadable,
  listActivations,
  readable,
  type ActivationRow,
  type LicenseKeyRow,
  type LicenseKeyScope,
} from "./repository.js";
import * as keys from "./repository.js";

const INT32_MAX = 2_147_483_647;
/** Polar's ceiling on a key's activations. */
const MAX_ACTIVATIONS = 50;

/** The properties of a license_keys benefit, as the benefits domain stores them. */
export interface LicenseKeyBenefitProperties {
  prefix?: string | null;
  expires?: { ttl: number; timeframe: "year" | "month" | "day" | string } | null;
  activations?: { limit: number; enable_customer_admin: boolean } | null;
  limit_usage?: number | null;
}

// ---------------------------------------------------------------------------------------------
// Called by the benefit grants' license_keys strategy, inside its transaction.

/** `now` plus ttl years / months / days, in UTC; a month step keeps to the last day of a short month. */
export function expiryFrom(now: Date, expires: LicenseKeyBenefitProperties["expires"]): Date | null {
  if (!expires) return null;
  const d = new Date(now.getTime());
  if (expires.timeframe === "day") {
    d.setUTCDate(d.getUTCDate() + expires.ttl);
    return d;
  }
  const months = expires.timeframe === "year" ? expires.ttl * 12 : expires.ttl;
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, lastDay));
  return d;
}

/** Polar's key format: an uppercase UUID, after the benefit's prefix when it has one. */
export function generateKey(prefix: string | null | undefined): string {
  const key = randomUUID().toUpperCase();
  return prefix ? `${prefix}-${key}` : key;
}

export function displayKey(key: string): string {
  return `****-${key.slice(-6)}`;
}

function limitsFrom(properties: LicenseKeyBenefitProperties): Pick<LicenseKeyRow, "limit_activations" | "limit_usage"> {
  return { limit_activations: properties.activations?.limit ?? null, limit_usage: properties.limit_usage ?? null };
}

export async function createLicenseKeyForGrant(
  trx: Knex.Transaction,
  input: {
    organizationId: string;
    customerId: string;
    benefitId: string;
    properties: LicenseKeyBenefitProperties;
    now: Date;
    existingLicenseKeyId?: string | null;
  },
): Promise<{ license_key_id: string; display_key: string }> {
  const scope = { organizationId: input.organizationId };
  const existing = input.existingLicenseKeyId ? await findReadable(trx, scope, input.existingLicenseKeyId, { forUpdate: true }) : undefined;
  if (existing) {
    // A grant given again keeps its key: re-enabled, with the benefit's current limits and a fresh lifetime.
    await keys.update(
      trx,
      existing.id,
      Object.assign({ status: "granted" as const }, limitsFrom(input.properties), {
        expires_at: expiryFrom(input.now, input.properties.expires),
        modified_at: input.now,
      }),
    );
    return { license_key_id: existing.id, display_key: existing.display_key };
  }
  const key = generateKey(input.properties.prefix);
  const row = await keys.insert(
    trx,
    Object.assign(
      {
        organization_id: input.organizationId,
        customer_id: input.customerId,
        benefit_id: input.benefitId,
        key,
        display_key: displayKey(key),
        status: "granted" as const,
      },
      limitsFrom(input.properties),
      { expires_at: expiryFrom(input.now, input.properties.expires), created_at: input.now },
    ),
  );
  return { license_key_id: row.id, display_key: row.display_key };
}

export async function revokeLicenseKey(trx: Knex.Transaction, licenseKeyId: string): Promise<void> {
  await keys.lockById(trx, licenseKeyId);
  await keys.update(trx, licenseKeyId, { status: "revoked", modified_at: new Date() });
}

/** The benefit's limits changed: its keys follow (their expiry and activations stay). */
export async function updateLicenseKeyFromBenefit(
  trx: Knex.Transaction,
  licenseKeyId: string,
  properties: LicenseKeyBenefitProperties,
): Promise<void> {
  await keys.lockById(trx, licenseKeyId);
  await keys.update(trx, licenseKeyId, Object.assign(limitsFrom(properties), { modified_at: new Date() }));
}

// ---------------------------------------------------------------------------------------------
// Reads.

async function withCustomers(db: Knex, organizationId: string, rows: LicenseKeyRow[]): Promise<LicenseKeyOut[]> {
  // Deleted customers too: a key keeps naming its customer.
  const customers = await organizationCustomersByIds(
    db,
    { organizationId },
    rows.map((r) => r.customer_id),
  );
  return rows.map((r) => toLicenseKey(r, customers.get(r.customer_id) as CustomerRow));
}

async function readOne(db: Knex, row: LicenseKeyRow): Promise<LicenseKeyOut> {
  return (await withCustomers(db, row.organization_id, [row]))[0]!;
}

async function readWithActivations(db: Knex, row: LicenseKeyRow): Promise<LicenseKeyWithActivationsOut> {
  const [out, activations] = await Promise.all([readOne(db, row), listActivations(db, row.id)]);
  return Object.assign(out, { activations: activations.map(toActivationBase) });
}

type LicenseKeyStatus = components["schemas"]["LicenseKeyStatus"];

/** The merchant's and the portal's list filters (the portal's benefit_id is a single value). */
export interface LicenseKeyListQuery {
  organization_id?: string | string[] | null;
  benefit_id?: string | string[] | null;
  /** The merchant's list only. */
  status?: LicenseKeyStatus | LicenseKeyStatus[] | null;
  page?: number;
  limit?: number;
}

async function listKeys(db: Knex, scope: LicenseKeyScope, query: LicenseKeyListQuery): Promise<Page<LicenseKeyOut>> {
  const q = readable(db, scope).select("license_keys.*");
  for (const key of ["organization_id", "benefit_id"] as const) {
    const ids = asList(query[key]);
    if (ids.length) q.whereIn(`license_keys.${key}`, ids.filter(isUuid));
  }
  const statuses = asList(query.status);
  if (statuses.length) q.whereIn("license_keys.status", statuses);
  q.orderBy([{ column: "license_keys.created_at", order: "desc" }, { column: "license_keys.id" }]);
  return listPage(q, query, (rows: LicenseKeyRow[]) => withCustomers(db, scope.organizationId, rows));
}

async function getRow(db: Knex, scope: LicenseKeyScope, id: string, opts: { forUpdate?: boolean } = {}): Promise<LicenseKeyRow> {
  const row = await findReadable(db, scope, id, opts);
  if (!row) throw new ResourceNotFound("License key not found.");
  return row;
}

export const listLicenseKeys = (db: Knex, caller: OrganizationCaller, query: LicenseKeyListQuery) =>
  listKeys(db, { organizationId: caller.organizationId }, query);

export const listCustomerLicenseKeys = (db: Knex, caller: CustomerCaller, query: LicenseKeyListQuery) =>
  listKeys(db, customerScope(caller, "licenseKeys"), query);

export async function getLicenseKey(db: Knex, caller: OrganizationCaller, id: string): Promise<LicenseKeyWithActivationsOut> {
  return readWithActivations(db, await getRow(db, { organizationId: caller.organizationId }, id));
}

export async function getCustomerLicenseKey(db: Knex, caller: CustomerCaller, id: string): Promise<LicenseKeyWithActivationsOut> {
  return readWithActivations(db, await getRow(db, customerScope(caller, "licenseKeys"), id));
}

export async function getActivation(db: Knex, caller: OrganizationCaller, id: string, activationId: string): Promise<ActivationOut> {
  const row = await getRow(db, { organizationId: caller.organizationId }, id);
  const activation = await findActivation(db, row.id, activationId);
  if (!activation) throw new ResourceNotFound("License key activation not found.");
  return toActivation(activation, await readOne(db, row));
}

// ---------------------------------------------------------------------------------------------
// Merchant update.

/** The contract's update body; `usage` is optional on the wire (only a given value changes it). */
type LicenseKeyUpdateInput = Omit<components["schemas"]["LicenseKeyUpdate"], "usage"> & { usage?: number };

function checkCount(value: unknown, loc: string[], min: number, max = INT32_MAX): number {
  if (typeof value !== "number" || !Number.isInteger(value)) throw invalid(loc, "Input should be a valid integer", "int_type", value);
  if (value < min) throw invalid(loc, `Input should be greater than or equal to ${min}`, "greater_than_equal", value);
  if (value > max) throw invalid(loc, `Input should be less than or equal to ${max}`, "less_than_equal", value);
  return value;
}

export async function updateLicenseKey(
  db: Knex,
  caller: OrganizationCaller,
  id: string,
  input: LicenseKeyUpdateInput,
): Promise<LicenseKeyOut> {
  const changes: Partial<LicenseKeyRow> = {};
  if (input.status !== undefined && input.status !== null) changes.status = input.status;
  if (input.usage !== undefined) changes.usage = checkCount(input.usage, ["body", "usage"], 0);
  if (input.limit_activations !== undefined) {
    changes.limit_activations =
      input.limit_activations === null ? null : checkCount(input.limit_activations, ["body", "limit_activations"], 1, MAX_ACTIVATIONS);
  }
  if (input.limit_usage !== undefined) {
    changes.limit_usage = input.limit_usage === null ? null : checkCount(input.limit_usage, ["body", "limit_usage"], 1);
  }
  if (input.expires_at !== undefined) {
    const at = input.expires_at === null ? null : new Date(input.expires_at);
    // Years outside 1..9999 have no ISO 8601 form the client reads back.
    if (at && (Number.isNaN(at.getTime()) || at.getUTCFullYear() < 1 || at.getUTCFullYear() > 9999)) {
      throw invalid(
        ["body", "expires_at"],
        "Input should be a valid datetime between years 1 and 9999",
        "datetime_parsing",
        input.expires_at,
      );
    }
    changes.expires_at = at;
  }
  return db.transaction(async (trx) => {
    const row = await getRow(trx, { organizationId: caller.organizationId }, id, { forUpdate: true });
    const usage = changes.usage ?? row.usage;
    const limitUsage = changes.limit_usage !== undefined ? changes.limit_usage : row.limit_usage;
    if (limitUsage !== null && usage > limitUsage) {
      throw invalid(
        ["body", changes.usage !== undefined ? "usage" : "limit_usage"],
        `Usage (${usage}) can't exceed the usage limit (${limitUsage}).`,
      );
    }
    if (Object.keys(changes).length === 0) return readOne(trx, row);
    const updated = await keys.saveKey(trx, row.id, Object.assign({}, changes, { modified_at: new Date() }));
    return readOne(trx, updated);
  });
}

// ---------------------------------------------------------------------------------------------
// Validate / activate / deactivate, by the key's holder (portal, no auth) or by the merchant.

type LicenseKeyValidateInput = components["schemas"]["LicenseKeyValidate"];
type LicenseKeyActivateInput = components["schemas"]["LicenseKeyActivate"];
type LicenseKeyDeactivateInput = components["schemas"]["LicenseKeyDeactivate"];

function checkUuid(value: unknown, loc: string[]): string {
  if (!isUuid(value)) throw invalid(loc, "Input should be a valid UUID", "uuid_parsing", value);
  return value;
}

/**
 * The key named by a holder's body. A merchant (`caller`) can only reach its own organization's
 * keys: another organization's key is not found, exactly like an unknown one.
 */
async function keyOfHolder(
  trx: Knex.Transaction,
  caller: OrganizationCaller | null,
  body: { key: string; organization_id: string },
): Promise<LicenseKeyRow> {
  const organizationId = checkUuid(body.organization_id, ["body", "organization_id"]);
  const row =
    caller && caller.organizationId !== organizationId
      ? undefined
      : await findByKey(trx, { organizationId }, body.key, { forUpdate: true });
  if (!row) throw new ResourceNotFound("License key not found.");
  return row;
}

const isExpired = (row: LicenseKeyRow, now: Date) => row.expires_at !== null && now.getTime() >= new Date(row.expires_at).getTime();

function sameConditions(required: Record<string, unknown>, given: Record<string, unknown>): boolean {
  const a = Object.keys(required);
  return a.length === Object.keys(given).length && a.every((k) => Object.hasOwn(given, k) && given[k] === required[k]);
}

export async function validateLicenseKey(
  db: Knex,
  caller: OrganizationCaller | null,
  input: LicenseKeyValidateInput,
): Promise<ValidatedLicenseKeyOut> {
  const conditions = checkMetadata(input.conditions, ["body", "conditions"]);
  const activationId = input.activation_id == null ? null : checkUuid(input.activation_id, ["body", "activation_id"]);
  const benefitId = input.benefit_id == null ? null : checkUuid(input.benefit_id, ["body", "benefit_id"]);
  const customerId = input.customer_id == null ? null : checkUuid(input.customer_id, ["body", "customer_id"]);
  const increment = input.increment_usage == null ? 0 : checkCount(input.increment_usage, ["body", "increment_usage"], 0);
  return db.transaction(async (trx) => {
    const now = new Date();
    const row = await keyOfHolder(trx, caller, input);
    if (row.status !== "granted") throw new ResourceNotFound("License key is no longer active.");
    if (isExpired(row, now)) throw new ResourceNotFound("License key has expired.");
    let activation: ActivationRow | undefined;
    if (activationId) {
      activation = await findActivation(trx, row.id, activationId);
      if (!activation) throw new ResourceNotFound("License key activation not found.");
      if (Object.keys(activation.conditions).length > 0 && !sameConditions(activation.conditions, conditions)) {
        throw new ResourceNotFound("License key does not match the activation's required conditions.");
      }
    }
    if (benefitId && benefitId !== row.benefit_id) throw new ResourceNotFound("License key does not match the given benefit.");
    if (customerId && customerId !== row.customer_id) throw new ResourceNotFound("License key does not match the given customer.");
    if (increment > 0 && row.limit_usage !== null) {
      const remaining = Math.max(row.limit_usage - row.usage, 0);
      if (increment > remaining) throw new ResourceNotFound(`License key only has ${remaining} more usages.`);
    }
    if (row.usage + increment > INT32_MAX)
      throw invalid(["body", "increment_usage"], "The usage would exceed its maximum.", "value_error", increment);
    const updated = await keys.saveKey(trx, row.id, {
      validations: row.validations + 1,
      last_validated_at: now,
      usage: row.usage + increment,
      modified_at: now,
    });
    const out = await readOne(trx, updated);
    // Granted: a key that is not was answered 404 above.
    return Object.assign(out, { status: row.status, activation: activation ? toActivationBase(activation) : null });
  });
}

export async function activateLicenseKey(
  db: Knex,
  caller: OrganizationCaller | null,
  input: LicenseKeyActivateInput,
): Promise<ActivationCreatedOut> {
  const conditions = checkMetadata(input.conditions, ["body", "conditions"]);
  const meta = checkMetadata(input.meta, ["body", "meta"]);
  const label = input.label;
  if (typeof label !== "string" || label.trim().length < 1)
    throw invalid(["body", "label"], "String should have at least 1 character", "string_too_short", label);
  if (label.length > 255) throw invalid(["body", "label"], "String should have at most 255 characters", "string_too_long", label);
  return db.transaction(async (trx) => {
    const row = await keyOfHolder(trx, caller, input);
    if (row.status !== "granted") throw new NotPermitted("License key is no longer active.");
    if (isExpired(row, new Date())) throw new NotPermitted("License key has expired.");
    if (row.limit_activations === null) throw new NotPermitted("This license key does not support activations.");
    if ((await countActivations(trx, row.id)) >= row.limit_activations) {
      throw new NotPermitted(`License key only allows ${row.limit_activations} activations.`);
    }
    const activation = await keys.insertActivation(trx, {
      license_key_id: row.id,
      label,
      conditions: jsonb(trx, conditions),
      meta: jsonb(trx, meta),
    });
    const key = await readOne(trx, row);
    // Granted: a key that is not was refused above.
    return toActivationCreated(activation, Object.assign(key, { status: row.status }));
  });
}

export async function deactivateLicenseKey(db: Knex, caller: OrganizationCaller | null, input: LicenseKeyDeactivateInput): Promise<void> {
  const activationId = checkUuid(input.activation_id, ["body", "activation_id"]);
  await db.transaction(async (trx) => {
    const row = await keyOfHolder(trx, caller, input);
    const activation = await findActivation(trx, row.id, activationId, { forUpdate: true });
    if (!activation) throw new ResourceNotFound("License key activation not found.");
    await keys.softDeleteActivation(trx, activation.id);
  });
}
