// Customer queries, always scoped to the caller's organization and to live (not deleted)
// customers: a deleted customer is gone for every read and write of the API.
import type { Knex } from "knex";
import { insertReturning, rowsOf, updateReturning } from "../kit/rows.js";
import { isUuid } from "../kit/ids.js";
import type { Address } from "./address.js";
import type { RegistryService } from "../tax/registries.js";
import type { TaxId } from "./tax-id.js";
import type { components } from "../../generated/types.js";

export type CustomerType = components["schemas"]["CustomerType"];
type CustomerEmailPreferences = components["schemas"]["CustomerEmailPreferences"];

export interface CustomerRow {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  organization_id: string;
  email: string;
  email_verified: boolean;
  /** A team's members share it (server/members/); an individual buys for themself. */
  type: CustomerType;
  name: string | null;
  billing_name: string | null;
  external_id: string | null;
  billing_address: Address | null;
  tax_id: TaxId | null;
  metadata: Record<string, string | number | boolean>;
  deleted_at: Date | null;
  /** When the customer's first ingested (user) event happened, when one was. */
  first_user_event_at: Date | null;
  /** The billing test clock the customer lives on (sandbox only). */
  test_clock_id?: string | null;
  /** The tax id as its registry confirmed it (migration 0130; reset by a trigger when the tax id changes). */
  tax_id_check_status?: TaxIdCheckStatus | null;
  tax_id_check_name?: string | null;
  tax_id_check_address?: string | null;
  tax_id_checked_at?: Date | null;
  tax_id_check_service?: RegistryService | null;
  /** When a check is due; null: none is. */
  tax_id_check_due_at?: Date | null;
  /** The non-essential emails the customer switched off or on (merged over the defaults, email-preferences.ts). */
  email_preferences?: Partial<CustomerEmailPreferences> | null;
}

export type TaxIdCheckStatus = "valid" | "invalid" | "unavailable" | "unchecked";

/** Who reads: an organization token or a customer session, both bound to one organization. */
export interface OrganizationScope {
  organizationId: string;
}

/** How the API names a customer: by id or by the merchant's external id. */
export type CustomerKey = { id: string } | { externalId: string };

export function readable(db: Knex, scope: OrganizationScope): Knex.QueryBuilder {
  return db("customers").where("customers.organization_id", scope.organizationId).whereNull("customers.deleted_at");
}

/** The organization's live customers (within `organizationIds` when given), oldest first. */
export function customersOldestFirst(db: Knex, scope: OrganizationScope, organizationIds: string[]): Promise<CustomerRow[]> {
  const q = readable(db, scope)
    .select("customers.*")
    .orderBy([{ column: "customers.created_at" }, { column: "customers.id" }]);
  if (organizationIds.length) q.whereIn("customers.organization_id", organizationIds);
  return q;
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

/**
 * A granted benefit as the customer state view shows it (customers/models.ts); the statement that
 * reads it is benefit-grants/repository.ts's grantedBenefits (benefit grants stand on customers).
 */
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

/** A customer's saved payment method (a card saved by a checkout or the portal). */
export interface PaymentMethodRow {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  organization_id: string;
  customer_id: string;
  processor: "stripe";
  type: string;
  method_metadata: { brand?: string; last4?: string; exp_month?: number; exp_year?: number; wallet?: string | null };
  processor_ref: string;
  is_default: boolean;
  deleted_at: Date | null;
}

/** Locks the customer row: serializes the changes of one customer's payment methods. */
export async function lockCustomer(db: Knex, customerId: string): Promise<void> {
  await db("customers").where({ id: customerId }).forUpdate().first("id");
}

/** The customer's stored email preferences (merge over the defaults with email-preferences.ts), when the customer exists. */
export function contactOf(db: Knex, customerId: string): Promise<{ email: string; name: string | null }> {
  return db("customers").where({ id: customerId }).first("email", "name");
}

/** The customer's live payment methods. */
export function readablePaymentMethods(db: Knex, scope: { organizationId: string; customerId: string }): Knex.QueryBuilder {
  return db("payment_methods").where({ customer_id: scope.customerId, organization_id: scope.organizationId }).whereNull("deleted_at");
}

/** The customer's default saved payment method, if any. */
export async function defaultPaymentMethodId(db: Knex, customerId: string): Promise<string | null> {
  const row = await db("payment_methods").where({ customer_id: customerId, is_default: true }).whereNull("deleted_at").first("id");
  return (row?.id as string | undefined) ?? null;
}

/** A live payment method of the customer (`id` a uuid). */
export function findLivePaymentMethod(db: Knex, customerId: string, id: string): Promise<PaymentMethodRow | undefined> {
  return db("payment_methods").where({ id, customer_id: customerId }).whereNull("deleted_at").first();
}

export async function insertPaymentMethod(db: Knex, values: Record<string, unknown>): Promise<PaymentMethodRow> {
  const [row] = await db("payment_methods").insert(values).returning("*");
  return row as PaymentMethodRow;
}

export async function updatePaymentMethod(db: Knex, id: string, patch: Record<string, unknown>): Promise<PaymentMethodRow> {
  const [row] = await db("payment_methods").where({ id }).update(patch).returning("*");
  return row as PaymentMethodRow;
}

export interface ProcessorCustomerRow {
  customer_id: string;
  processor: string;
  processor_customer_id: string;
}

/** The customer's id at the processor, when one was created. */
export function findProcessorCustomer(db: Knex, customerId: string, processor: string): Promise<ProcessorCustomerRow | undefined> {
  return db("processor_customers").where({ customer_id: customerId, processor }).first();
}

/** Records the customer's id at the processor; a concurrent record of the same pair wins. */
export async function insertProcessorCustomer(db: Knex, customerId: string, processor: string, ref: string): Promise<void> {
  await db("processor_customers")
    .insert({ customer_id: customerId, processor, processor_customer_id: ref })
    .onConflict(["customer_id", "processor"])
    .ignore();
}

/** The organization's live (not deleted) customers. */
export function liveInOrganization(db: Knex, organizationId: string): Knex.QueryBuilder {
  return db("customers").where({ organization_id: organizationId }).whereNull("deleted_at");
}

/**
 * Inserts a customer unless a live one of the organization has the email (case-insensitively:
 * two buyers with one email at once meet at the unique index); undefined when one has.
 */
export async function insertUnlessEmailTaken(
  db: Knex,
  values: {
    organization_id: string;
    email: string;
    name: string | null;
    billing_name: string | null;
    billing_address: Address | null;
    tax_id: TaxId | null;
    external_id: string | null;
    metadata: Record<string, unknown> | null;
  },
): Promise<CustomerRow | undefined> {
  const inserted = await rowsOf<CustomerRow>(
    db.raw(
      `insert into customers (organization_id, email, name, billing_name, billing_address, tax_id, external_id, metadata)
     values (?, ?, ?, ?, ?, ?, ?, ?)
     on conflict (organization_id, lower(email)) where deleted_at is null do nothing
     returning *`,
      [
        values.organization_id,
        values.email,
        values.name,
        values.billing_name,
        values.billing_address === null ? null : JSON.stringify(values.billing_address),
        values.tax_id === null ? null : JSON.stringify(values.tax_id),
        values.external_id,
        JSON.stringify(values.metadata ?? {}),
      ],
    ),
  );
  return inserted.at(0);
}

/** The customer's live payment methods, whatever the organization (callers hold the customer). */
export function livePaymentMethods(db: Knex, customerId: string): Knex.QueryBuilder {
  return db("payment_methods").where({ customer_id: customerId }).whereNull("deleted_at");
}

/** The customer's live payment methods as a charge needs them: the method's and the customer's ids at the processor. */
export function chargeablePaymentMethods(db: Knex, customerId: string, processor: string): Knex.QueryBuilder {
  return livePaymentMethods(db, customerId).select(
    "processor_ref",
    db("processor_customers").where({ customer_id: customerId, processor }).select("processor_customer_id").as("customer_ref"),
  );
}

/** Adds a saved payment method (the checkout's card). */
export async function addPaymentMethod(db: Knex, values: Record<string, unknown>): Promise<void> {
  await db("payment_methods").insert(values);
}

/** Customers by id, deleted ones included, whatever their organization (callers scope the ids first). */
export function byIds(db: Knex, ids: string[]): Promise<CustomerRow[]> {
  return db<CustomerRow>("customers").whereIn("id", ids) as Promise<CustomerRow[]>;
}

/**
 * The organization's live customers among these ids and external ids, with the frozen time of
 * their test clock (what events ingested for them are stamped with).
 */
export function eventRefs(
  db: Knex,
  organizationId: string,
  ids: string[],
  externalIds: string[],
): Promise<{ id: string; external_id: string | null; frozen_time: Date | null }[]> {
  return db("customers")
    .leftJoin("test_clocks", "test_clocks.id", "customers.test_clock_id")
    .where("customers.organization_id", organizationId)
    .whereNull("customers.deleted_at")
    .where((w) => w.whereRaw("customers.id = any(?::uuid[])", [ids]).orWhereRaw("customers.external_id = any(?::text[])", [externalIds]))
    .select("customers.id", "customers.external_id", "test_clocks.frozen_time");
}

/**
 * A whereExists subquery: the customer `customerIdColumn` (e.g. "subscriptions.customer_id") names
 * has one of these external ids (and is not deleted, with `live`).
 */
export function customerWithExternalId(
  db: Knex,
  customerIdColumn: string,
  externalIds: string[],
  opts: { live?: boolean } = {},
): Knex.QueryBuilder {
  const q = db("customers").whereRaw(`customers.id = ${customerIdColumn}`).whereIn("customers.external_id", externalIds);
  return opts.live ? q.whereNull("customers.deleted_at") : q;
}

/** A whereExists subquery: the customer `customerIdColumn` names has an email matching `like` (case-insensitive). */
export function customerWithEmailLike(db: Knex, customerIdColumn: string, like: string): Knex.QueryBuilder {
  return db("customers").whereRaw(`customers.id = ${customerIdColumn}`).whereRaw("customers.email ilike ?", [like]);
}

/** A whereExists subquery: the customer `customerIdColumn` names has one of these emails (lowercased). */
export function customerWithEmails(db: Knex, customerIdColumn: string, emails: string[]): Knex.QueryBuilder {
  return db("customers").whereRaw(`customers.id = ${customerIdColumn}`).whereRaw("lower(customers.email) = any(?)", [emails]);
}

/** The external ids of these customers of the organization, those that have one (a subquery: which events are theirs). */
export function externalIdsOf(db: Knex, organizationId: string, ids: string[]): Knex.QueryBuilder {
  return db("customers").where("organization_id", organizationId).whereIn("id", ids).whereNotNull("external_id").select("external_id");
}

/** The ids of the organization's customers with these external ids (a subquery: which events are theirs). */
export function idsWithExternalIds(db: Knex, organizationId: string, externalIds: string[]): Knex.QueryBuilder {
  return db("customers").where("organization_id", organizationId).whereIn("external_id", externalIds).select("id");
}

/**
 * The ids (or, `column` "external_id", the external ids) of the organization's customers whose id,
 * external id, name, billing name or email matches `like` (an ilike pattern): a subquery.
 */
export function customersLike(db: Knex, organizationId: string, like: string, column: "id" | "external_id"): Knex.QueryBuilder {
  return db("customers")
    .where("customers.organization_id", organizationId)
    .whereNotNull(`customers.${column}`)
    .where((w) =>
      w
        .whereRaw("customers.id::text ilike ?", [like])
        .orWhereRaw("customers.external_id ilike ?", [like])
        .orWhereRaw("customers.name ilike ?", [like])
        .orWhereRaw("customers.billing_name ilike ?", [like])
        .orWhereRaw("customers.email ilike ?", [like]),
    )
    .select(`customers.${column}`);
}

/** The organization's customers the events name: by id, or by the external id of a live one. */
export function namedByEvents(db: Knex, organizationId: string, ids: string[], externalIds: string[]): Promise<CustomerRow[]> {
  return db("customers")
    .where("organization_id", organizationId)
    .where((w) => w.whereIn("id", ids).orWhere((e) => e.whereIn("external_id", externalIds).whereNull("deleted_at"))) as Promise<
    CustomerRow[]
  >;
}

export function findCustomer(db: Knex, id: string): Promise<CustomerRow | undefined> {
  return db("customers").where({ id }).first() as Promise<CustomerRow | undefined>;
}

/** The customer a row refers to (by foreign key, so it exists; a missing one is a broken invariant). */
export async function requireCustomer(db: Knex, id: string): Promise<CustomerRow> {
  const row = await findCustomer(db, id);
  if (!row) throw new Error(`customer ${id} does not exist`);
  return row;
}

/** The test clock the customer is bound to (`test_clock_id` null when none). */
export function findTestClockOf(db: Knex, customerId: string): Promise<{ test_clock_id: string | null } | undefined> {
  return db("customers").where({ id: customerId }).first("test_clock_id");
}

/** The organization's live customer with this email, compared case-insensitively. */
export function findLiveByEmail(db: Knex, organizationId: string, email: string): Promise<{ id: string; email: string } | undefined> {
  return db("customers")
    .where({ organization_id: organizationId })
    .whereNull("deleted_at")
    .whereRaw("lower(email) = lower(?)", [email])
    .first("id", "email");
}

/** Marks the customer's email verified; returns the row when this changed it. */
export async function markEmailVerified(db: Knex, customerId: string): Promise<CustomerRow | undefined> {
  const [verified] = await db("customers")
    .where({ id: customerId, email_verified: false })
    .update({ email_verified: true, modified_at: new Date() })
    .returning("*");
  return verified as CustomerRow | undefined;
}

export function insertCustomer(db: Knex, values: Record<string, unknown>): Promise<CustomerRow> {
  return insertReturning<CustomerRow>(db, "customers", values);
}

/** Writes `patch` (with its own modified_at) and returns the customer. */
export function updateCustomerRow(db: Knex, id: string, patch: Record<string, unknown>): Promise<CustomerRow> {
  return updateReturning<CustomerRow>(db, "customers", id, patch);
}

/** Marks the customer deleted at `now` and returns the row. */
export async function softDeleteCustomer(db: Knex, id: string, now: Date): Promise<CustomerRow> {
  const [deleted] = await db<CustomerRow>("customers").where({ id }).update({ deleted_at: now, modified_at: now }).returning("*");
  return deleted as CustomerRow;
}

/**
 * Moves each customer's `first_user_event_at` earlier to `first`, never later (an event can be
 * stamped before those already stored); modified_at stays, as nothing the customer set changed.
 */
export async function lowerFirstUserEventAt(db: Knex, firsts: { customer_id: string; first: Date | string }[]): Promise<void> {
  if (firsts.length === 0) return;
  await db.raw(
    `update customers c set first_user_event_at = f.first
       from (select customer_id, min(first) as first from jsonb_to_recordset(?::jsonb) as x(customer_id uuid, first timestamptz) group by customer_id) f
      where c.id = f.customer_id and (c.first_user_event_at is null or c.first_user_event_at > f.first)`,
    [JSON.stringify(firsts)],
  );
}

/** The live customers bound to these test clocks, oldest first. */
export function onTestClocks(db: Knex, clockIds: string[]): Promise<{ id: string; test_clock_id: string }[]> {
  return db("customers").whereIn("test_clock_id", clockIds).whereNull("deleted_at").orderBy("created_at").select("id", "test_clock_id");
}

/** Whether a live customer is bound to the test clock. */
export async function anyOnTestClock(db: Knex, clockId: string): Promise<boolean> {
  return Boolean(await db("customers").where({ test_clock_id: clockId }).whereNull("deleted_at").first("id"));
}

/** The organization's live customer with this id, locked. */
export function lockLiveInOrganization(db: Knex, organizationId: string, id: string): Promise<CustomerRow | undefined> {
  return db("customers").where({ id, organization_id: organizationId }).whereNull("deleted_at").forUpdate().first() as Promise<
    CustomerRow | undefined
  >;
}

/** Binds the customer to the test clock. */
export async function bindToTestClock(db: Knex, customerId: string, clockId: string): Promise<void> {
  await db("customers").where({ id: customerId }).update({ test_clock_id: clockId, modified_at: new Date() });
}

/** The organization's customers among `ids`, by id (deleted ones included: a grant or a license key keeps naming its customer). */
export async function organizationCustomersByIds(db: Knex, caller: OrganizationScope, ids: string[]): Promise<Map<string, CustomerRow>> {
  if (ids.length === 0) return new Map();
  const rows: CustomerRow[] = await db("customers")
    .whereIn("id", [...new Set(ids)])
    .where("organization_id", caller.organizationId);
  return new Map(rows.map((r) => [r.id, r]));
}

/** Customers whose tax id check is due by `now`, oldest first. */
export async function dueTaxIdChecks(db: Knex, now: Date, limit: number): Promise<string[]> {
  const rows: { id: string }[] = await db("customers")
    .where("tax_id_check_due_at", "<=", now)
    .whereNull("deleted_at")
    .orderBy("tax_id_check_due_at")
    .limit(limit)
    .select("id");
  return rows.map((r) => r.id);
}

/** A live customer by id, whatever the organization (the worker's tax id check), optionally locked. */
export function liveById(db: Knex, id: string, opts: { forUpdate?: boolean } = {}): Promise<CustomerRow | undefined> {
  const q = db<CustomerRow>("customers").where({ id }).whereNull("deleted_at").first();
  return (opts.forUpdate ? q.forUpdate() : q) as Promise<CustomerRow | undefined>;
}
