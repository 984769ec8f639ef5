// Benefit grant queries. Portal reads are scoped to the session's customer and organization (a
// grant is the organization's through its benefit); the job runner reads by id under the lock.
import type { Knex } from "knex";
import type { GrantedBenefitRow } from "../customers/repository.js";
import { storeEvents } from "../events/store.js";
import type { FileRow } from "../files/repository.js";
import type { CustomerScope } from "../kit/auth.js";
import { isUuid } from "../kit/ids.js";
import type { SortMap } from "../kit/pagination.js";
import { numberOf } from "../kit/rows.js";

export interface BenefitGrantRow {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  benefit_id: string;
  customer_id: string;
  subscription_id: string | null;
  order_id: string | null;
  granted_at: Date | null;
  revoked_at: Date | null;
  properties: Record<string, unknown>;
  error: { message: string; type: string; timestamp: string } | null;
}

/** A grant row with its job sequence (the job runner takes the next one under the grant's lock). */
export interface GrantRow extends BenefitGrantRow {
  job_seq: number;
}

export interface JobRow {
  id: number;
  grant_id: string;
  seq: number;
  action: "grant" | "revoke" | "cycle" | "update";
  payload: Record<string, unknown>;
  created_at: Date;
  done_at: Date | null;
  outcome: string | null;
}

/** The customer's grants of these orders and subscriptions, with the license key each made. */
export async function grantsOfPurchase(
  db: Knex,
  customerId: string,
  of: { orders: readonly string[]; subscriptions: readonly string[] },
): Promise<{ id: string; license_key_id: string | null }[]> {
  if (of.orders.length === 0 && of.subscriptions.length === 0) return [];
  return db("benefit_grants")
    .where("customer_id", customerId)
    .where((w) => {
      if (of.orders.length) w.orWhereIn("order_id", of.orders);
      if (of.subscriptions.length) w.orWhereIn("subscription_id", of.subscriptions);
    })
    .select("id", db.raw("properties ->> 'license_key_id' as license_key_id"));
}

/** The customer's grants, on public benefits of the session's organization that still exist. */
export function customerGrants(db: Knex, scope: CustomerScope): Knex.QueryBuilder {
  const q = db("benefit_grants")
    .join("benefits", "benefits.id", "benefit_grants.benefit_id")
    .where("benefit_grants.customer_id", scope.customerId)
    .where("benefits.organization_id", scope.organizationId)
    .where("benefits.visibility", "public")
    .whereNull("benefits.deleted_at");
  return scope.ids ? q.whereIn("benefit_grants.id", scope.ids) : q;
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

/** Ids of the rows a checkout made (its order, or the subscription it started): a subquery for whereIn. */
export type IdsOfCheckouts = (db: Knex, checkoutIds: string[]) => Knex.QueryBuilder;

/** The orders' and subscriptions' builders of a checkout's rows (orders/repository.ts, subscriptions/repository.ts). */
export interface CheckoutIdsOf {
  orderIdsOfCheckouts: IdsOfCheckouts;
  subscriptionIdsOfCheckouts: IdsOfCheckouts;
}

/** A scalar subquery over a row of benefit_grants (the grant's benefit's position in the product it came with), built above. */
export type OfGrant = (db: Knex) => Knex.QueryBuilder;

/**
 * Narrows customerGrants to a checkout's grants: those of its order, or of the subscription it
 * started (granted by the subscription, not the order). The orders' and subscriptions' subqueries
 * are those domains' builders, handed in: benefit grants sit below both.
 */
export function whereOfCheckouts(db: Knex, q: Knex.QueryBuilder, checkoutIds: string[], of: CheckoutIdsOf): void {
  q.where((w) =>
    w
      .whereIn("benefit_grants.order_id", of.orderIdsOfCheckouts(db, checkoutIds))
      .orWhereIn("benefit_grants.subscription_id", of.subscriptionIdsOfCheckouts(db, checkoutIds)),
  );
}

/** The portal list's sort keys; `product_benefit`, Polar's default, is the benefit's place in its product. */
export function customerGrantSorts(db: Knex, benefitPosition: OfGrant): SortMap {
  return {
    granted_at: "benefit_grants.granted_at",
    type: "benefits.type",
    organization: db.raw("(select o.name from organizations o where o.id = benefits.organization_id)"),
    product_benefit: db.raw("(?)", [benefitPosition(db)]),
  };
}

export async function findCustomerGrant(
  db: Knex,
  scope: CustomerScope,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<GrantRow | undefined> {
  if (!isUuid(id)) return undefined;
  const q = customerGrants(db, scope).where("benefit_grants.id", id).first("benefit_grants.*");
  return (opts.forUpdate ? q.forUpdate("benefit_grants") : q) as Promise<GrantRow | undefined>;
}

/** A system event (source "system") in the events table, for the grant's customer. */
export async function insertSystemEvent(
  ctx: {
    trx: Knex.Transaction;
    now: Date;
    eventAt?: Date;
    benefit: { organization_id: string };
    customer: { id: string; external_id: string | null };
  },
  name: string,
  metadata: Record<string, unknown>,
): Promise<void> {
  await storeEvents(ctx.trx, ctx.benefit.organization_id, [
    {
      timestamp: ctx.eventAt ?? ctx.now,
      name,
      source: "system",
      customerId: ctx.customer.id,
      externalCustomerId: ctx.customer.external_id,
      metadata,
    },
  ]);
}

/** Pending jobs whose workflow should have finished by now (the sweep's work list). */
export function stalePendingJobs(
  db: Knex,
  olderThan: Date,
  limit: number,
  afterId = 0,
): Promise<Pick<JobRow, "id" | "grant_id" | "seq" | "action">[]> {
  return db("benefit_grant_jobs")
    .whereNull("done_at")
    .where("created_at", "<", olderThan)
    .where("id", ">", afterId)
    .orderBy("id")
    .limit(limit)
    .select("id", "grant_id", "seq", "action");
}

/** Grant jobs not done yet (an operators' gauge, server/observability/metrics.ts). */
export function countPendingJobs(db: Knex): Promise<number> {
  return numberOf(db.raw("select count(*) as v from benefit_grant_jobs where done_at is null"));
}

/** Grant jobs that ended failed in the last hour (an operators' gauge). */
export function countFailedJobsLastHour(db: Knex): Promise<number> {
  return numberOf(db.raw("select count(*) as v from benefit_grant_jobs where outcome = 'failed' and done_at > now() - interval '1 hour'"));
}

export async function findJob(db: Knex, id: number): Promise<JobRow | undefined> {
  return (await db("benefit_grant_jobs").where({ id }).first()) as JobRow | undefined;
}

/** The grant's row, locked: its jobs run one at a time, in sequence order. */
export async function lockGrant(trx: Knex.Transaction, id: string): Promise<GrantRow | undefined> {
  return (await trx("benefit_grants").where({ id }).forUpdate().first()) as GrantRow | undefined;
}

/** The grant's pending jobs up to `seq`, in sequence order. */
export async function pendingJobsUpTo(db: Knex, grantId: string, seq: number): Promise<JobRow[]> {
  return db("benefit_grant_jobs").where({ grant_id: grantId }).whereNull("done_at").where("seq", "<=", seq).orderBy("seq");
}

export async function markJobDone(trx: Knex.Transaction, jobId: number, outcome: string): Promise<void> {
  await trx("benefit_grant_jobs").where({ id: jobId }).update({ done_at: trx.fn.now(), outcome });
}

/** Appends a job to the grant, its sequence number taken under the grant's row lock (the increment). */
export async function appendJob(
  trx: Knex.Transaction,
  grantId: string,
  action: JobRow["action"],
  payload: Record<string, unknown>,
): Promise<{ id: number; seq: number }> {
  const [{ job_seq: seq }] = await trx("benefit_grants").where({ id: grantId }).increment("job_seq", 1).returning("job_seq");
  const [row] = await trx("benefit_grant_jobs")
    .insert({ grant_id: grantId, seq, action, payload: JSON.stringify(payload) })
    .returning("id");
  return { id: Number(row.id), seq };
}

/** Writes `patch` (the caller sets modified_at) and returns the grant. */
export async function updateGrant(db: Knex, id: string, patch: Record<string, unknown>): Promise<GrantRow> {
  const [updated] = (await db("benefit_grants").where({ id }).update(patch).returning("*")) as GrantRow[];
  return updated;
}

/** The grant's last failure, kept until the next success clears it. */
export async function recordGrantError(
  db: Knex,
  id: string,
  error: { message: string; type: string; timestamp: string },
  at: Date,
): Promise<void> {
  await db("benefit_grants")
    .where({ id })
    .update({ error: JSON.stringify(error), modified_at: at });
}

/** The scope of a grant: the subscription it follows, or else the order that bought it. */
export type GrantScope = { column: "subscription_id" | "order_id"; id: string };

/** The grant row of the benefit, customer and scope (the partial unique index of the scope makes a second impossible). */
export async function insertGrantIfMissing(trx: Knex.Transaction, benefitId: string, customerId: string, scope: GrantScope): Promise<void> {
  await trx.raw(
    `insert into benefit_grants (benefit_id, customer_id, ${scope.column}) values (?, ?, ?)
       on conflict (benefit_id, customer_id, ${scope.column}) where ${scope.column} is not null do nothing`,
    [benefitId, customerId, scope.id],
  );
}

export async function grantsOfScope(
  db: Knex,
  customerId: string,
  scope: GrantScope,
): Promise<Pick<GrantRow, "id" | "benefit_id" | "granted_at" | "revoked_at">[]> {
  return db("benefit_grants")
    .where({ customer_id: customerId, [scope.column]: scope.id })
    .select("id", "benefit_id", "granted_at", "revoked_at");
}

/** Ids of the customer's grants of the subscription or the order that are not revoked. */
export async function unrevokedGrantIds(
  db: Knex,
  customerId: string,
  of: { subscriptionId?: string | null; orderId?: string | null },
): Promise<string[]> {
  const q = db("benefit_grants").where({ customer_id: customerId }).whereNull("revoked_at");
  q.where((w) => {
    if (of.subscriptionId) w.orWhere("subscription_id", of.subscriptionId);
    if (of.orderId) w.orWhere("order_id", of.orderId);
  });
  const rows: { id: string }[] = await q.select("id");
  return rows.map((r) => r.id);
}

/** Ids of the granted (not revoked) grants of a subscription or of a benefit. */
export async function grantedGrantIds(db: Knex, of: { subscription_id: string } | { benefit_id: string }): Promise<string[]> {
  const rows: { id: string }[] = await db("benefit_grants").where(of).whereNotNull("granted_at").whereNull("revoked_at").select("id");
  return rows.map((r) => r.id);
}

/** Ids of the benefit's grants that are not revoked. */
export async function unrevokedGrantIdsOfBenefit(db: Knex, benefitId: string): Promise<string[]> {
  const rows: { id: string }[] = await db("benefit_grants").where({ benefit_id: benefitId }).whereNull("revoked_at").select("id");
  return rows.map((r) => r.id);
}

/** The benefit's grants, newest first, optionally of some customers and granted or not: a list page's query. */
/**
 * Narrows grants to those of these members of team customers: none, as a grant is a customer's and
 * no customer has members (team customers are refused), so a member filter matches no grant.
 */
export function whereOfMembers(q: Knex.QueryBuilder, memberIds: string[]): void {
  if (memberIds.length) q.whereRaw("false");
}

export function grantsOfBenefit(
  db: Knex,
  benefitId: string,
  filter: { customerIds: string[]; isGranted?: boolean | null },
): Knex.QueryBuilder {
  const q = db("benefit_grants").where("benefit_grants.benefit_id", benefitId).select("benefit_grants.*");
  if (filter.customerIds.length) q.whereIn("benefit_grants.customer_id", filter.customerIds.filter(isUuid));
  if (filter.isGranted === true) q.whereNotNull("benefit_grants.granted_at");
  if (filter.isGranted === false) q.whereNull("benefit_grants.granted_at");
  q.orderBy([
    { column: "benefit_grants.created_at", order: "desc" },
    { column: "benefit_grants.id", order: "asc" },
  ]);
  return q;
}

/** The organization's grants, on its live benefits (the merchant's list across benefits). */
export function organizationGrants(
  db: Knex,
  organizationId: string,
  filter: { customerIds: string[]; isGranted?: boolean | null },
): Knex.QueryBuilder {
  const q = db("benefit_grants")
    .join("benefits", "benefits.id", "benefit_grants.benefit_id")
    .where("benefits.organization_id", organizationId)
    .whereNull("benefits.deleted_at")
    .select("benefit_grants.*");
  if (filter.customerIds.length) q.whereIn("benefit_grants.customer_id", filter.customerIds.filter(isUuid));
  if (filter.isGranted === true) q.whereNotNull("benefit_grants.granted_at");
  if (filter.isGranted === false) q.whereNull("benefit_grants.granted_at");
  return q;
}

/** The live, uploaded files a granted (not revoked) downloadables grant holds, in the benefit's order. */
export function grantedFiles(db: Knex, grantId: string): Promise<FileRow[]> {
  return db("benefit_grants")
    .where("benefit_grants.id", grantId)
    .whereNotNull("benefit_grants.granted_at")
    .whereNull("benefit_grants.revoked_at")
    .join("benefits", "benefits.id", "benefit_grants.benefit_id")
    .where("benefits.type", "downloadables")
    .joinRaw("cross join lateral jsonb_array_elements_text(benefit_grants.properties -> 'files') with ordinality as f(file_id, position)")
    .joinRaw("join files on files.id::text = f.file_id and files.organization_id = benefits.organization_id")
    .whereNull("files.deleted_at")
    .where("files.is_uploaded", true)
    .orderBy("f.position")
    .select("files.*");
}

/** A grant by id, unlocked (a reader outside the job runner). */
export function findGrant(db: Knex, id: string): Promise<GrantRow | undefined> {
  return db<GrantRow>("benefit_grants").where({ id }).first();
}
