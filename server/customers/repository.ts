// Customer queries, always scoped to the caller's organization and to live (not deleted)
// customers: a deleted customer is gone for every read and write of the API.
import type { Knex } from "knex";
import { isUuid } from "../kit/ids.js";
import type { Address } from "./address.js";
import type { TaxId } from "./tax-id.js";
import type { components } from "../../generated/types.js";

export interface CustomerRow {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  organization_id: string;
  email: string;
  email_verified: boolean;
  name: string | null;
  billing_name: string | null;
  external_id: string | null;
  billing_address: Address | null;
  tax_id: TaxId | null;
  metadata: Record<string, string | number | boolean>;
  deleted_at: Date | null;
  /** The billing test clock the customer lives on (sandbox only). */
  test_clock_id?: string | null;
}

/** Who reads: an organization token or a customer session, both bound to one organization. */
export interface OrganizationScope {
  organizationId: string;
}

/** How the API names a customer: by id or by the merchant's external id. */
export type CustomerKey = { id: string } | { externalId: string };

export function readable(db: Knex, scope: OrganizationScope): Knex.QueryBuilder {
  return db("customers").where("customers.organization_id", scope.organizationId).whereNull("customers.deleted_at");
}

export async function findReadable(
  db: Knex,
  scope: OrganizationScope,
  key: CustomerKey,
  opts: { forUpdate?: boolean } = {},
): Promise<CustomerRow | undefined> {
  const q = readable(db, scope).first("customers.*");
  if ("id" in key) {
    if (!isUuid(key.id)) return undefined;
    q.where("customers.id", key.id);
  } else {
    q.where("customers.external_id", key.externalId);
  }
  return (opts.forUpdate ? q.forUpdate() : q) as Promise<CustomerRow | undefined>;
}

export async function emailTaken(db: Knex, scope: OrganizationScope, email: string, exceptId?: string): Promise<boolean> {
  const q = readable(db, scope).whereRaw("lower(customers.email) = lower(?)", [email]);
  if (exceptId) q.whereNot("customers.id", exceptId);
  return Boolean(await q.first("customers.id"));
}

export async function externalIdTaken(db: Knex, scope: OrganizationScope, externalId: string, exceptId?: string): Promise<boolean> {
  const q = readable(db, scope).where("customers.external_id", externalId);
  if (exceptId) q.whereNot("customers.id", exceptId);
  return Boolean(await q.first("customers.id"));
}

export interface GrantedBenefitRow {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  granted_at: Date;
  benefit_id: string;
  benefit_type: components["schemas"]["BenefitType"];
  benefit_metadata: Record<string, string | number | boolean>;
  properties: Record<string, unknown>;
}

/** The customer's grants that are granted and not revoked, on benefits that still exist. */
export function grantedBenefits(db: Knex, customerId: string): Promise<GrantedBenefitRow[]> {
  return db("benefit_grants")
    .join("benefits", "benefits.id", "benefit_grants.benefit_id")
    .where("benefit_grants.customer_id", customerId)
    .whereNotNull("benefit_grants.granted_at")
    .whereNull("benefit_grants.revoked_at")
    .whereNull("benefits.deleted_at")
    .orderBy([{ column: "benefit_grants.granted_at" }, { column: "benefit_grants.id" }])
    .select(
      "benefit_grants.id",
      "benefit_grants.created_at",
      "benefit_grants.modified_at",
      "benefit_grants.granted_at",
      "benefit_grants.benefit_id",
      "benefit_grants.properties",
      "benefits.type as benefit_type",
      "benefits.metadata as benefit_metadata",
    );
}
