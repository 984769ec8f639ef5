// Customer rules: email unique per organization (case-insensitive) and external id unique, both
// among live customers; an external id once set can't change; billing address and tax id checks;
// soft delete (frees email and external id, ends the portal sessions, anonymizes on request); the
// state view's lookup (the view itself is subscriptions/customer-state.ts's, handed in);
// customer.created / customer.updated / customer.deleted events.
import { createHash } from "node:crypto";
import type { OpBody } from "../../generated/handlers.js";
import type { Knex } from "knex";
import type { OrganizationCaller } from "../kit/auth.js";
import { invalid, ResourceNotFound } from "../kit/errors.js";
import { asList, isUuid } from "../kit/ids.js";
import { checkEmail } from "../kit/email.js";
// The portal's sign-in code request (customer-sessions/codes.ts) takes it from here.
import { checkMetadata } from "../kit/metadata.js";
import { emit } from "../kit/outbox.js";
import { applyMetadataFilter, applySorting, listPage, type ListQuery, type Page } from "../kit/pagination.js";
import { checkAddress, type Address } from "./address.js";
import { toCustomer, type CustomerOut, type CustomerStateOut } from "./models.js";
import {
  emailTaken,
  externalIdTaken,
  findReadable,
  insertCustomer,
  readable,
  softDeleteCustomer,
  updateCustomerRow,
  type CustomerKey,
  type CustomerRow,
  type CustomerType,
  type OrganizationScope,
} from "./repository.js";
import { listSavedCards, toMerchantPaymentMethod, type MerchantPaymentMethodOut } from "./saved-cards.js";
import { checkTaxId, type TaxId } from "./tax-id.js";
import { checkTaxIdAfterCommit } from "./tax-id-check.js";
import { jsonb } from "../kit/db.js";

export type CustomerCreateInput = OpBody<"customers:create">;

export type CustomerUpdateInput = OpBody<"customers:update">;

export interface CustomerListQuery {
  organization_id?: string | string[] | null;
  email?: string | null;
  query?: string | null;
  active?: boolean | null;
  page?: number;
  limit?: number;
  sorting?: string[] | null;
  metadata?: Record<string, unknown> | null;
}

const EMAIL_TAKEN = "A customer with this email address already exists.";
const EXTERNAL_ID_TAKEN = "A customer with this external ID already exists.";

/** A customer is an individual unless it is made a team; a team stays one (Polar refuses the downgrade). */
function checkCustomerType(type: CustomerType | null | undefined, current?: CustomerType): CustomerType {
  if (current === "team" && type !== "team") {
    throw invalid(["body", "type"], "Customer type cannot be downgraded from 'team' to 'individual'.", "value_error", type);
  }
  return type ?? "individual";
}

function checkExternalId(externalId: unknown): string {
  if (typeof externalId !== "string" || externalId.length === 0) {
    throw invalid(["body", "external_id"], "String should have at least 1 character", "string_too_short");
  }
  return externalId;
}

/** A concurrent writer can win the race past our checks; the partial unique indexes still answer 422. */
function uniqueViolation(err: unknown, email: string | undefined, externalId: string | null | undefined): never {
  const e = err as { code?: string; constraint?: string };
  if (e?.code === "23505" && e.constraint === "customers_org_email") throw invalid(["body", "email"], EMAIL_TAKEN, "value_error", email);
  if (e?.code === "23505" && e.constraint === "customers_org_external_id") {
    throw invalid(["body", "external_id"], EXTERNAL_ID_TAKEN, "value_error", externalId);
  }
  throw err;
}

function notFound(): ResourceNotFound {
  return new ResourceNotFound("Customer not found.");
}

export async function createCustomer(
  db: Knex,
  caller: OrganizationCaller,
  input: CustomerCreateInput,
  dependents: Pick<CustomerDependents, "attributeExternalEvents" | "createOwnerMember">,
): Promise<CustomerOut> {
  if (input.organization_id && input.organization_id !== caller.organizationId) {
    throw invalid(["body", "organization_id"], "Organization not found or not accessible with this token.");
  }
  const email = checkEmail(input.email);
  const type = checkCustomerType(input.type);
  const externalId = input.external_id === undefined || input.external_id === null ? null : checkExternalId(input.external_id);
  const billingAddress: Address | null = input.billing_address ? checkAddress(input.billing_address) : null;
  const taxId: TaxId | null = input.tax_id ? checkTaxId(input.tax_id, billingAddress?.country ?? null) : null;
  const metadata = checkMetadata(input.metadata);
  return db
    .transaction(async (trx) => {
      if (await emailTaken(trx, caller, email)) throw invalid(["body", "email"], EMAIL_TAKEN, "value_error", email);
      if (externalId !== null && (await externalIdTaken(trx, caller, externalId))) {
        throw invalid(["body", "external_id"], EXTERNAL_ID_TAKEN, "value_error", externalId);
      }
      const inserted = await insertCustomer(trx, {
        organization_id: caller.organizationId,
        type,
        email,
        name: input.name ?? null,
        external_id: externalId,
        billing_address: billingAddress === null ? null : jsonb(trx, billingAddress),
        tax_id: taxId === null ? null : jsonb(trx, taxId),
        metadata: jsonb(trx, metadata),
      });
      // Events ingested for this external id before the customer existed are theirs now.
      const row = externalId !== null ? await dependents.attributeExternalEvents(trx, inserted, externalId) : inserted;
      checkTaxIdAfterCommit(trx, row);
      const out = toCustomer(row);
      await emit(trx, caller.organizationId, "customer.created", out);
      await dependents.createOwnerMember(trx, row, input.owner);
      return out;
    })
    .catch((err) => uniqueViolation(err, email, externalId));
}

export async function getCustomer(db: Knex, caller: OrganizationScope, key: CustomerKey): Promise<CustomerOut> {
  const row = await findReadable(db, caller, key);
  if (!row) throw notFound();
  return toCustomer(row);
}

/** A customer's saved payment methods, as the merchant reads them. */
export async function listCustomerPaymentMethods(
  db: Knex,
  caller: OrganizationScope,
  key: CustomerKey,
  query: ListQuery,
): Promise<Page<MerchantPaymentMethodOut>> {
  const row = await findReadable(db, caller, key);
  if (!row) throw notFound();
  return listSavedCards(db, { organizationId: caller.organizationId, customerId: row.id }, query, toMerchantPaymentMethod);
}

export async function listCustomers(
  db: Knex,
  caller: OrganizationCaller,
  query: CustomerListQuery,
  dependents: Pick<CustomerDependents, "liveSubscriptionOf">,
): Promise<Page<CustomerOut>> {
  const q = readable(db, caller).select("customers.*");
  // Active: at least one trialing, active or past_due subscription.
  if (query.active === true) q.whereExists(dependents.liveSubscriptionOf(db, "customers.id"));
  if (query.active === false) q.whereNotExists(dependents.liveSubscriptionOf(db, "customers.id"));
  const orgs = asList(query.organization_id);
  if (orgs.length) q.whereIn("customers.organization_id", orgs.filter(isUuid));
  if (query.email) q.whereRaw("lower(customers.email) = lower(?)", [query.email.trim()]);
  if (query.query) {
    const like = query.query.replace(/[\\%_]/g, "\\$&");
    q.where((w) =>
      w
        .whereRaw("customers.email ilike ?", [`%${like}%`])
        .orWhereRaw("customers.name ilike ?", [`%${like}%`])
        .orWhereRaw("customers.billing_name ilike ?", [`%${like}%`])
        .orWhereRaw("customers.external_id ilike ?", [`${like}%`]),
    );
  }
  applyMetadataFilter(q, "customers.metadata", query.metadata);
  applySorting(
    q,
    query.sorting,
    { created_at: "customers.created_at", email: "customers.email", name: "customers.name" },
    ["-created_at"],
    "customers.id",
  );
  return listPage(q, query, (rows: CustomerRow[]) => rows.map(toCustomer));
}

/** The patch of a merchant update (CustomerUpdate; `allowExternalId` false for CustomerUpdateExternalID). */
async function preparePatch(
  trx: Knex,
  scope: OrganizationScope,
  row: CustomerRow,
  input: CustomerUpdateInput,
  allowExternalId: boolean,
): Promise<Record<string, unknown>> {
  const patch: Record<string, unknown> = {};
  if (input.email !== undefined && input.email !== null) {
    const email = checkEmail(input.email);
    if (email.toLowerCase() !== row.email.toLowerCase()) {
      if (await emailTaken(trx, scope, email, row.id)) throw invalid(["body", "email"], EMAIL_TAKEN, "value_error", email);
      patch.email_verified = false;
    }
    patch.email = email;
  }
  if (input.name !== undefined) patch.name = input.name;
  if (input.type !== undefined && input.type !== null) patch.type = checkCustomerType(input.type, row.type);
  if (allowExternalId && input.external_id !== undefined && input.external_id !== row.external_id) {
    if (row.external_id !== null) {
      throw invalid(["body", "external_id"], "Customer external ID cannot be updated.", "value_error", input.external_id);
    }
    const externalId = checkExternalId(input.external_id);
    if (await externalIdTaken(trx, scope, externalId, row.id)) {
      throw invalid(["body", "external_id"], EXTERNAL_ID_TAKEN, "value_error", externalId);
    }
    patch.external_id = externalId;
  }
  let country = row.billing_address?.country ?? null;
  if (input.billing_address !== undefined) {
    const address = input.billing_address === null ? null : checkAddress(input.billing_address);
    country = address?.country ?? null;
    patch.billing_address = address === null ? null : JSON.stringify(address);
  }
  if (input.tax_id !== undefined) {
    patch.tax_id = input.tax_id === null || input.tax_id === "" ? null : JSON.stringify(checkTaxId(input.tax_id, country));
  }
  if (input.metadata !== undefined) patch.metadata = JSON.stringify(checkMetadata(input.metadata));
  return patch;
}

export async function updateCustomer(
  db: Knex,
  caller: OrganizationCaller,
  key: CustomerKey,
  input: CustomerUpdateInput,
  dependents: Pick<CustomerDependents, "attributeExternalEvents" | "syncOwnerEmail">,
): Promise<CustomerOut> {
  return db
    .transaction(async (trx) => {
      const row = await findReadable(trx, caller, key, { forUpdate: true });
      if (!row) throw notFound();
      const patch = await preparePatch(trx, caller, row, input, "id" in key);
      patch.modified_at = new Date();
      const written = await updateCustomerRow(trx, row.id, patch);
      const updated =
        typeof patch.external_id === "string" ? await dependents.attributeExternalEvents(trx, written, patch.external_id) : written;
      const out = toCustomer(updated);
      if ("tax_id" in patch) checkTaxIdAfterCommit(trx, updated);
      await emit(trx, caller.organizationId, "customer.updated", out);
      if (updated.email !== row.email) await dependents.syncOwnerEmail(trx, updated);
      return out;
    })
    .catch((err) => uniqueViolation(err, input.email ?? undefined, input.external_id));
}

/**
 * What a customer's change or view needs of the domains above customers: the state view
 * (subscriptions/customer-state.ts), the attribution of their usage (meters/rollups.ts), their
 * portal sessions and live subscriptions (those domains' repositories). Each of those domains
 * imports customers, so customers/handlers.ts hands them in.
 */
export interface CustomerDependents {
  /** A customer's new external id makes the events known only by it theirs (meters/rollups.ts); answers the customer with their first user event's time. */
  attributeExternalEvents(trx: Knex.Transaction, customer: CustomerRow, externalId: string): Promise<CustomerRow>;
  /** The state view (server/subscriptions/customer-state.ts): it reads subscriptions and meters, which stand on customers. */
  readCustomerState(db: Knex, row: CustomerRow): Promise<CustomerStateOut>;
  revokeCustomerSessions(trx: Knex.Transaction, customerId: string, at: Date): Promise<void>;
  /** A whereExists subquery: the customer (`customerIdColumn`) has a live subscription. */
  liveSubscriptionOf(db: Knex, customerIdColumn: string): Knex.QueryBuilder;
  /** The owner member a new customer comes with where the Member model is on (server/members/, which stands on customers). */
  createOwnerMember(trx: Knex.Transaction, customer: CustomerRow, owner: CustomerCreateInput["owner"]): Promise<void>;
  /** An individual's owner member keeps the customer's email (server/members/). */
  syncOwnerEmail(trx: Knex.Transaction, customer: CustomerRow): Promise<void>;
  /** A deleted customer's members go with it (server/members/). */
  deleteMembersOfCustomer(trx: Knex.Transaction, organizationId: string, customerId: string): Promise<void>;
}

/** Where an anonymized customer's email points: a reserved domain no mail is ever delivered to. */
export const ANONYMIZED_EMAIL_DOMAIN = "anonymized.invalid";

/** A value scrubbed for good, as Polar scrubs it: the hash of the customer's creation time and the value. */
function scrubbed(value: string, createdAt: Date): string {
  return createHash("sha256").update(createdAt.toISOString()).update(value).digest("hex");
}

/**
 * A customer's personal data anonymized, as Polar's `anonymize` does it: the email and the billing
 * name hashed, the name too unless the customer is a business (one with a tax ID, which keeps its
 * name for legal reasons), the billing address cleared. The external ID and the tax ID stay.
 */
function anonymizedColumns(row: CustomerRow, now: Date): Record<string, unknown> {
  return {
    email: `${scrubbed(row.email, row.created_at)}@${ANONYMIZED_EMAIL_DOMAIN}`,
    email_verified: false,
    name: row.tax_id === null && row.name ? scrubbed(row.name, row.created_at) : row.name,
    billing_name: row.billing_name ? scrubbed(row.billing_name, row.created_at) : row.billing_name,
    billing_address: null,
    modified_at: now,
  };
}

export async function deleteCustomer(
  db: Knex,
  caller: OrganizationCaller,
  key: CustomerKey,
  dependents: Pick<CustomerDependents, "revokeCustomerSessions" | "deleteMembersOfCustomer">,
  opts: { anonymize?: boolean } = {},
): Promise<void> {
  await db.transaction(async (trx) => {
    const row = await findReadable(trx, caller, key, { forUpdate: true });
    if (!row) throw notFound();
    const now = new Date();
    let deleted = await softDeleteCustomer(trx, row.id, now);
    if (opts.anonymize) deleted = await updateCustomerRow(trx, row.id, anonymizedColumns(deleted, now));
    // Portal sessions end with the customer.
    await dependents.revokeCustomerSessions(trx, row.id, now);
    await emit(trx, caller.organizationId, "customer.deleted", toCustomer(deleted));
    await dependents.deleteMembersOfCustomer(trx, caller.organizationId, row.id);
  });
}

/**
 * The customer with what they hold now: active subscriptions, granted benefits, meters with their
 * current balance.
 */
export async function getCustomerState(
  db: Knex,
  caller: OrganizationCaller,
  key: CustomerKey,
  dependents: Pick<CustomerDependents, "readCustomerState">,
): Promise<CustomerStateOut> {
  const row = await findReadable(db, caller, key);
  if (!row) throw notFound();
  return dependents.readCustomerState(db, row);
}
