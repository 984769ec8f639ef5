// Organization queries. An organization token reads exactly its own organization.
import type { Knex } from "knex";
import type { components } from "../../generated/types.js";
import type { OrganizationCaller } from "../kit/auth.js";
import { isUuid } from "../kit/ids.js";
import { updateReturning } from "../kit/rows.js";
import type { SellerDetails } from "./seller-details.js";

export interface OrganizationRow {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  name: string;
  slug: string;
  avatar_url: string | null;
  email: string | null;
  website: string | null;
  socials: OrganizationOut["socials"];
  status: OrganizationOut["status"];
  details_submitted_at: Date | null;
  details: Record<string, unknown> | null;
  feature_settings: OrganizationOut["feature_settings"];
  /** The benefit revocation grace period is not stored: it follows SUBSCRIPTION_DUNNING_DAYS (models.ts). */
  subscription_settings: Omit<OrganizationOut["subscription_settings"], "benefit_revocation_grace_period">;
  notification_settings: OrganizationOut["notification_settings"];
  customer_portal_settings: Partial<StoredPortalSettings> | null;
  sso_enforced: boolean;
  default_presentment_currency: OrganizationOut["default_presentment_currency"];
  default_tax_behavior: OrganizationOut["default_tax_behavior"];
  customer_email_settings: Partial<OrganizationOut["customer_email_settings"]>;
  /** Merged over its defaults when read (models.ts). */
  email_settings: Partial<OrganizationOut["email_settings"]>;
  /** The hosts allowed to embed its checkout (./embed-hosts.ts). */
  embed_hosts: string[];
  /** Merged over its defaults when read (tax-settings.ts). */
  tax_settings: Partial<OrganizationOut["tax_settings"]> | null;
  /** The seller as its invoices name it (seller-details.ts); null until given. */
  seller_details: SellerDetails | null;
}

/** A customer portal section the organization can switch off (server/customer-portal/sections.ts). */
export type PortalSection = "orders" | "subscriptions" | "benefits" | "usage" | "payment_methods" | "billing_details";

/**
 * The customer portal settings as stored: a switch per section (usage is the API's `usage.show`),
 * and whether customers may change a seat-based subscription's seats. Whether they may change plan
 * is the subscription settings' allow_customer_updates.
 */
export type StoredPortalSettings = Record<PortalSection, boolean> & {
  subscription?: { update_seats?: boolean };
  customer?: { allow_email_change?: boolean };
};
type OrganizationOut = components["schemas"]["Organization"];

export function readable(db: Knex, caller: OrganizationCaller): Knex.QueryBuilder<OrganizationRow> {
  return db<OrganizationRow>("organizations").where("organizations.id", caller.organizationId);
}

export async function findReadable(
  db: Knex,
  caller: OrganizationCaller,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<OrganizationRow | undefined> {
  if (!isUuid(id)) return undefined;
  const q = readable(db, caller).where("organizations.id", id).first();
  return (opts.forUpdate ? q.forUpdate() : q) as Promise<OrganizationRow | undefined>;
}

/** An organization by id, for a caller that already holds a row of it (its subscription, order, session). */
export async function findOrganization(db: Knex, id: string): Promise<OrganizationRow | undefined> {
  return (await db("organizations").where({ id }).first()) as OrganizationRow | undefined;
}

export async function slugTaken(db: Knex, slug: string): Promise<boolean> {
  return Boolean(await db("organizations").whereRaw("lower(slug) = lower(?)", [slug]).first("id"));
}

/** The organization's customer portal settings (a partial object from older rows), when it exists. */
export function portalSettings(
  db: Knex,
  organizationId: string,
): Promise<{ customer_portal_settings: Partial<StoredPortalSettings> | null } | undefined> {
  return db("organizations").where({ id: organizationId }).first("customer_portal_settings");
}

/** An organization by id, whoever asks (callers hold a row that points at it). */
export async function findById(db: Knex, id: string): Promise<OrganizationRow | undefined> {
  return (await db("organizations").where({ id }).first()) as OrganizationRow | undefined;
}

export function findBySlug(db: Knex, slug: string): Promise<{ id: string; slug: string } | undefined> {
  return db("organizations").where({ slug }).first("id", "slug");
}

/** The user's role in the organization, when they are a member. */
export function roleOfMember(db: Knex, organizationId: string, userId: string): Promise<{ role: string } | undefined> {
  return db("members").where({ organization_id: organizationId, user_id: userId }).first("role");
}

/** Locks the user's membership row, when they are a member. */
export function lockMember(db: Knex, organizationId: string, userId: string): Promise<{ role: string } | undefined> {
  return db("members").where({ organization_id: organizationId, user_id: userId }).forUpdate().first("role");
}

export async function insertMember(db: Knex, organizationId: string, userId: string, role: string): Promise<void> {
  await db("members").insert({ organization_id: organizationId, user_id: userId, role });
}

/** Makes the user a member with this role unless they already are one (any role). */
export async function insertMemberIfMissing(db: Knex, organizationId: string, userId: string, role: string): Promise<void> {
  await db("members")
    .insert({ organization_id: organizationId, user_id: userId, role })
    .onConflict(["organization_id", "user_id"])
    .ignore();
}

/** The organizations the user is a member of, oldest first. */
export function ofMember(db: Knex, userId: string): Promise<{ id: string; slug: string; name: string; avatar_url: string | null }[]> {
  return db("organizations")
    .join("members", "members.organization_id", "organizations.id")
    .where("members.user_id", userId)
    .orderBy("organizations.created_at")
    .select("organizations.id", "organizations.slug", "organizations.name", "organizations.avatar_url");
}

export function nameOf(db: Knex, id: string): Promise<{ id: string; name: string }> {
  return db("organizations").where({ id }).first("id", "name");
}

/** The organization with this slug, whatever its case (the storefront lookup). */
export function findOrganizationBySlug(db: Knex, slug: string): Promise<OrganizationRow | undefined> {
  return db<OrganizationRow>("organizations").whereRaw("lower(slug) = lower(?)", [slug]).first() as Promise<OrganizationRow | undefined>;
}

/** The organizations with these ids (in no order). */
export function findByIds(db: Knex, ids: string[]): Promise<OrganizationRow[]> {
  return db<OrganizationRow>("organizations").whereIn("id", ids) as Promise<OrganizationRow[]>;
}

export function slugOf(db: Knex, id: string): Promise<{ slug: string } | undefined> {
  return db("organizations").where({ id }).first("slug");
}

/** Inserts the organization unless its slug is taken (then answers undefined). */
export async function insertUnlessSlugTaken(db: Knex, values: Record<string, unknown>): Promise<OrganizationRow | undefined> {
  const [row] = await db<OrganizationRow>("organizations").insert(values).returning("*").onConflict("slug").ignore();
  return row as OrganizationRow | undefined;
}

/** Writes `patch` (with its own modified_at) and returns the organization. */
export function updateOrganizationRow(db: Knex, id: string, patch: Record<string, unknown>): Promise<OrganizationRow> {
  return updateReturning<OrganizationRow>(db, "organizations", id, patch);
}

/** The owners and admins of the organization with their sign-in email (whom merchant notifications go to). */
export function notifiedMembers(db: Knex, organizationId: string): Promise<{ user_id: string; email: string }[]> {
  return db("members")
    .join("users", "users.id", "members.user_id")
    .where("members.organization_id", organizationId)
    .whereIn("members.role", ["owner", "admin"])
    .orderBy("members.created_at")
    .select("members.user_id", "users.email");
}
