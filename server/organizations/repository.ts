// Organization queries. An organization token reads exactly its own organization.
import type { Knex } from "knex";
import type { components } from "../../generated/types.js";
import type { OrganizationCaller } from "../kit/auth.js";
import { isUuid } from "../kit/ids.js";

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
  subscription_settings: OrganizationOut["subscription_settings"];
  notification_settings: OrganizationOut["notification_settings"];
  customer_portal_settings: CustomerPortalSettings;
}

export type CustomerPortalSettings = components["schemas"]["OrganizationCustomerPortalSettings"];
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
