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
  socials: { platform: string; url: string }[];
  status: string;
  details_submitted_at: Date | null;
  details: Record<string, unknown> | null;
  feature_settings: { issue_funding_enabled: boolean };
  subscription_settings: { allow_multiple_subscriptions: boolean; allow_customer_updates: boolean; proration_behavior: string };
  notification_settings: { new_order: boolean; new_subscription: boolean };
  customer_portal_settings: CustomerPortalSettings;
}

export type CustomerPortalSettings = components["schemas"]["OrganizationCustomerPortalSettings"];

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

export async function slugTaken(db: Knex, slug: string): Promise<boolean> {
  return Boolean(await db("organizations").whereRaw("lower(slug) = lower(?)", [slug]).first("id"));
}
