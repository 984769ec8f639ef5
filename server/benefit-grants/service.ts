// Benefit grants: what other domains call inside their own transaction to grant, revoke, cycle
// or update grants (schedule.ts), the merchant's lists of grants (a benefit's, and all of the
// organization's), and the customer portal's grants and downloadables.
import type { OpBody } from "../../generated/handlers.js";
import type { Knex } from "knex";
import { byIds as benefitsByIds, findBenefit, findReadable as findReadableBenefit } from "../benefits/repository.js";
import { toBenefit, type BenefitRow } from "../benefits/models.js";
import { byIds as customersByIds, customerWithExternalId, organizationCustomersByIds } from "../customers/repository.js";
import { toCustomer } from "../customers/models.js";
import type { FileRow } from "../files/models.js";
import { getStorage, PRESIGN_TTL_SECONDS } from "../files/storage.js";
import { customerScope, type CustomerCaller, type OrganizationCaller } from "../kit/auth.js";
import { invalid, NotPermitted, ResourceNotFound } from "../kit/errors.js";
import { asList, isUuid } from "../kit/ids.js";
import { applySorting, listPage, type Page } from "../kit/pagination.js";
import { findByIds as organizationsByIds } from "../organizations/repository.js";
import {
  toBenefitGrant,
  toCustomerBenefitGrant,
  toDownloadable,
  type BenefitGrantOut,
  type CustomerBenefitGrantOut,
  type DownloadableOut,
} from "./models.js";
import {
  customerGrantSorts,
  customerGrants,
  findCustomerGrant,
  grantsOfBenefit,
  organizationGrants,
  updateGrant,
  whereOfCheckouts,
  whereOfMembers,
  type BenefitGrantRow,
  type CheckoutIdsOf,
  type OfGrant,
  type GrantRow,
} from "./repository.js";
import { enqueueJobs } from "./schedule.js";
import { benefitPositionInProduct } from "../products/repository.js";

export {
  scheduleBenefitCycles,
  scheduleBenefitDeletion,
  scheduleBenefitGrants,
  scheduleBenefitRevocations,
  scheduleBenefitUpdates,
  type GrantScheduleInput,
  type RevocationScheduleInput,
} from "./schedule.js";

/** Repeated id filters (`id=a&id=b`): a value that is not a UUID matches nothing. */
function filterByIds(q: Knex.QueryBuilder, filters: [column: string, value: Ids][]): void {
  for (const [column, value] of filters) {
    const ids = asList(value);
    if (ids.length) q.whereIn(column, ids.filter(isUuid));
  }
}

const scopeOf = (caller: CustomerCaller) => customerScope(caller, "grants");

type Ids = string | string[] | null | undefined;

export interface PortalGrantListQuery {
  type?: string | string[] | null;
  benefit_id?: Ids;
  organization_id?: Ids;
  checkout_id?: Ids;
  order_id?: Ids;
  subscription_id?: Ids;
  member_id?: Ids;
  query?: string | null;
  page?: number;
  limit?: number;
  sorting?: string[] | string | null;
}

async function readPortalGrants(db: Knex, rows: GrantRow[]): Promise<CustomerBenefitGrantOut[]> {
  if (rows.length === 0) return [];
  const [benefits, customers] = await Promise.all([
    benefitsByIds(db, [...new Set(rows.map((r) => r.benefit_id))]),
    customersByIds(db, [...new Set(rows.map((r) => r.customer_id))]),
  ]);
  const orgs = await organizationsByIds(db, [...new Set(benefits.map((b) => b.organization_id))]);
  const benefitById = new Map(benefits.map((b) => [b.id, b]));
  const customerById = new Map(customers.map((c) => [c.id, c]));
  const orgById = new Map(orgs.map((o) => [o.id, o]));
  return rows.map((r) => {
    const benefit = benefitById.get(r.benefit_id)!;
    return toCustomerBenefitGrant(r, customerById.get(r.customer_id)!, benefit, orgById.get(benefit.organization_id)!);
  });
}

/**
 * What the portal's grant list reads of orders and subscriptions (their repositories), handed in by
 * benefit-grants/handlers.ts: both domains import benefit grants.
 */
export interface PortalGrantDependents extends CheckoutIdsOf {
  /** The product_id of the order whose id is in `orderIdColumn`, as a subquery. */
  productOfOrder(db: Knex, orderIdColumn: string): Knex.QueryBuilder;
  /** The product_id of the subscription whose id is in `subscriptionIdColumn`, as a subquery. */
  productOfSubscription(db: Knex, subscriptionIdColumn: string): Knex.QueryBuilder;
}

/** A grant's benefit's place in the product of the order or subscription that granted it. */
const benefitPositionOfGrant =
  (of: PortalGrantDependents): OfGrant =>
  (db) =>
    benefitPositionInProduct(db, "benefit_grants.benefit_id", [
      of.productOfOrder(db, "benefit_grants.order_id"),
      of.productOfSubscription(db, "benefit_grants.subscription_id"),
    ]);

export async function listPortalGrants(
  db: Knex,
  caller: CustomerCaller,
  query: PortalGrantListQuery,
  dependents: PortalGrantDependents,
): Promise<Page<CustomerBenefitGrantOut>> {
  const q = customerGrants(db, scopeOf(caller)).select("benefit_grants.*");
  filterByIds(q, [
    ["benefit_grants.benefit_id", query.benefit_id],
    ["benefits.organization_id", query.organization_id],
    ["benefit_grants.order_id", query.order_id],
    ["benefit_grants.subscription_id", query.subscription_id],
  ]);
  const checkouts = asList(query.checkout_id);
  if (checkouts.length) {
    whereOfCheckouts(db, q, checkouts.filter(isUuid), dependents);
  }
  const types = asList(query.type);
  if (types.length) q.whereIn("benefits.type", types);
  whereOfMembers(q, asList(query.member_id));
  if (query.query) q.whereRaw("benefits.description ilike ?", [`%${query.query.replace(/[\\%_]/g, "\\$&")}%`]);
  applySorting(q, query.sorting, customerGrantSorts(db, benefitPositionOfGrant(dependents)), ["-granted_at"], "benefit_grants.id");
  return listPage(q, query, (rows: GrantRow[]) => readPortalGrants(db, rows));
}

export async function getPortalGrant(db: Knex, caller: CustomerCaller, id: string): Promise<CustomerBenefitGrantOut> {
  const row = await findCustomerGrant(db, scopeOf(caller), id);
  if (!row) throw new ResourceNotFound("Benefit grant not found.");
  return (await readPortalGrants(db, [row]))[0];
}

export type PortalGrantUpdateInput = OpBody<"customer_portal:benefit-grants:update">;

const LINKED_ACCOUNT_TYPES = new Set(["discord", "github_repository"]);

/**
 * The customer links their account to a discord or github_repository grant: the account is
 * stored and a grant job is scheduled (it gives access, moving it from a previously linked
 * account). The other types have nothing the customer can change.
 */
export async function updatePortalGrant(
  db: Knex,
  caller: CustomerCaller,
  id: string,
  input: PortalGrantUpdateInput,
): Promise<CustomerBenefitGrantOut> {
  const row = await db.transaction(async (trx) => {
    const grant = await findCustomerGrant(trx, scopeOf(caller), id, { forUpdate: true });
    if (!grant) throw new ResourceNotFound("Benefit grant not found.");
    const benefit = (await findBenefit(trx, grant.benefit_id)) as BenefitRow;
    if (input.benefit_type !== benefit.type) {
      throw invalid(["body", "benefit_type"], `This grant is of a ${benefit.type} benefit.`, "value_error", input.benefit_type);
    }
    if (!LINKED_ACCOUNT_TYPES.has(benefit.type)) return grant;
    if (grant.revoked_at !== null) throw new NotPermitted("This benefit grant is revoked.");
    const account = ("properties" in input ? input.properties?.account_id : null) ?? null;
    const current = (grant.properties.account_id as string | null | undefined) ?? null;
    if (account === current) return grant;
    if (account === null || account.trim() === "") {
      if (grant.granted_at !== null)
        throw invalid(
          ["body", "properties", "account_id"],
          "A granted benefit keeps its account until it is revoked.",
          "value_error",
          account,
        );
      throw invalid(["body", "properties", "account_id"], "An account id is required.", "missing", account);
    }
    const updated = await updateGrant(trx, grant.id, {
      properties: JSON.stringify(Object.assign({}, grant.properties, { account_id: account.trim() })),
      modified_at: new Date(),
    });
    await enqueueJobs(trx, [grant.id], "grant");
    return updated;
  });
  return (await readPortalGrants(db, [row]))[0];
}

export interface DownloadableListQuery {
  organization_id?: Ids;
  benefit_id?: Ids;
  page?: number;
  limit?: number;
}

/**
 * The files of the customer's granted downloadables benefits, each with a signed download URL.
 * A file appears once per grant that holds it; archived or deleted files are left out.
 */
export async function listDownloadables(db: Knex, caller: CustomerCaller, query: DownloadableListQuery): Promise<Page<DownloadableOut>> {
  const q = customerGrants(db, scopeOf(caller))
    .where("benefits.type", "downloadables")
    .whereNotNull("benefit_grants.granted_at")
    .whereNull("benefit_grants.revoked_at")
    .joinRaw("cross join lateral jsonb_array_elements_text(benefit_grants.properties -> 'files') with ordinality as f(file_id, position)")
    .joinRaw("join files on files.id::text = f.file_id and files.organization_id = benefits.organization_id")
    .whereNull("files.deleted_at")
    .where("files.is_uploaded", true)
    .select("benefit_grants.id as grant_id", "benefit_grants.benefit_id as grant_benefit_id", "files.*")
    .orderBy([{ column: "benefit_grants.granted_at" }, { column: "benefit_grants.id" }, { column: "f.position" }]);
  filterByIds(q, [
    ["benefit_grants.benefit_id", query.benefit_id],
    ["benefits.organization_id", query.organization_id],
  ]);
  return listPage(q, query, (rows: (FileRow & { grant_id: string; grant_benefit_id: string })[]) =>
    Promise.all(
      rows.map(async (r) => {
        const expiresAt = new Date(Date.now() + PRESIGN_TTL_SECONDS * 1000);
        const url = await getStorage().presignDownload(r.path, { filename: r.name, mimeType: r.mime_type, expiresAt });
        return toDownloadable(r.grant_id, r.grant_benefit_id, r, { url, headers: {}, expires_at: expiresAt });
      }),
    ),
  );
}

export interface GrantListQuery {
  customer_id?: string[] | string | null;
  member_id?: string[] | string | null;
  is_granted?: boolean | null;
  page?: number;
  limit?: number;
}

/** The merchant's list of a benefit's grants (GET /v1/benefits/{id}/grants), each with its customer. */
export async function listBenefitGrants(
  db: Knex,
  caller: OrganizationCaller,
  id: string,
  query: GrantListQuery,
): Promise<Page<BenefitGrantOut>> {
  const benefit = await findReadableBenefit(db, caller, id);
  if (!benefit) throw new ResourceNotFound("Benefit not found.");
  const q = grantsOfBenefit(db, benefit.id, { customerIds: asList(query.customer_id), isGranted: query.is_granted });
  whereOfMembers(q, asList(query.member_id));
  const shown = toBenefit(benefit);
  return listPage(q, query, async (rows: BenefitGrantRow[]) => {
    const byId = await organizationCustomersByIds(
      db,
      caller,
      rows.map((r) => r.customer_id),
    );
    return rows.flatMap((r) => {
      const customer = byId.get(r.customer_id);
      return customer ? [toBenefitGrant(r, toCustomer(customer), shown)] : [];
    });
  });
}

export interface OrganizationGrantListQuery {
  organization_id?: string[] | string | null;
  customer_id?: string[] | string | null;
  external_customer_id?: string[] | string | null;
  is_granted?: boolean | null;
  page?: number;
  limit?: number;
  sorting?: string[] | null;
}

/** The merchant's list of all its grants (GET /v1/benefit-grants/), each with its customer and benefit. */
export async function listOrganizationGrants(
  db: Knex,
  caller: OrganizationCaller,
  query: OrganizationGrantListQuery,
): Promise<Page<BenefitGrantOut>> {
  const q = organizationGrants(db, caller.organizationId, { customerIds: asList(query.customer_id), isGranted: query.is_granted });
  const organizations = asList(query.organization_id);
  if (organizations.length && !organizations.includes(caller.organizationId)) q.whereRaw("false");
  const externalIds = asList(query.external_customer_id);
  if (externalIds.length) q.whereExists(customerWithExternalId(db, "benefit_grants.customer_id", externalIds));
  applySorting(
    q,
    query.sorting,
    { created_at: "benefit_grants.created_at", granted_at: "benefit_grants.granted_at", revoked_at: "benefit_grants.revoked_at" },
    ["-created_at"],
    "benefit_grants.id",
  );
  return listPage(q, query, async (rows: BenefitGrantRow[]) => {
    const [customers, benefits] = await Promise.all([
      organizationCustomersByIds(
        db,
        caller,
        rows.map((r) => r.customer_id),
      ),
      benefitsByIds(db, [...new Set(rows.map((r) => r.benefit_id))]),
    ]);
    const benefitOf = new Map(benefits.map((b) => [b.id, toBenefit(b)]));
    return rows.flatMap((r) => {
      const customer = customers.get(r.customer_id);
      const benefit = benefitOf.get(r.benefit_id);
      return customer && benefit ? [toBenefitGrant(r, toCustomer(customer), benefit)] : [];
    });
  });
}
