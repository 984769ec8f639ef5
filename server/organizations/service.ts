// Organization rules: slug format and uniqueness, settings defaults, details submission, and the
// organization.updated event on every change.
import type { Knex } from "knex";
import type { components, operations } from "../../generated/types.js";
import type { OrganizationCaller } from "../kit/auth.js";
import { invalid, ResourceNotFound } from "../kit/errors.js";
import { emit } from "../kit/outbox.js";
import { applySorting, listPage, type Page } from "../kit/pagination.js";
import { asList } from "../kit/ids.js";
import {
  DEFAULT_CUSTOMER_PORTAL_SETTINGS, DEFAULT_FEATURE_SETTINGS, DEFAULT_NOTIFICATION_SETTINGS, DEFAULT_SUBSCRIPTION_SETTINGS,
  toOrganization, type OrganizationOut,
} from "./models.js";
import { findReadable, insertMember, insertUnlessSlugTaken, readable, slugTaken, updateOrganizationRow, type OrganizationRow } from "./repository.js";
import { jsonb } from "../kit/db.js";
import { checkHttpUrl } from "../kit/urls.js";
import { checkEmail } from "../kit/email.js";

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const RESERVED_SLUGS = new Set(["api", "docs", "admin", "portal", "checkout", "dashboard", "login", "signup", "settings", "new"]);

export type OrganizationInput = components["schemas"]["OrganizationUpdate"];
export type OrganizationCreateInput = components["schemas"]["OrganizationCreate"];

/** What is wrong with an organization name, or null (shared with better-auth's organization/create). */
export function nameProblem(name: string): string | null {
  return name.trim().length < 3 ? "String should have at least 3 characters" : null;
}

/** What is wrong with an organization slug, or null (shared with better-auth's organization/create). */
export function slugProblem(slug: string): string | null {
  if (slug.length < 3 || !SLUG.test(slug)) return "Slug must be at least 3 characters of lowercase letters, digits and dashes.";
  if (RESERVED_SLUGS.has(slug)) return "This slug is reserved.";
  return null;
}

function checkName(name: string) {
  const problem = nameProblem(name);
  if (problem) throw invalid(["body", "name"], problem, "string_too_short");
}

/**
 * What an organization's public pages show: http(s) links only (kit/urls.ts) and a valid support
 * email. Returns the email as stored (trimmed; undefined when not given).
 */
function checkContacts(input: Pick<OrganizationInput, "avatar_url" | "website" | "socials" | "email">): string | null | undefined {
  checkHttpUrl(input.avatar_url, ["body", "avatar_url"]);
  checkHttpUrl(input.website, ["body", "website"]);
  for (const [i, social] of (input.socials ?? []).entries()) checkHttpUrl(social.url, ["body", "socials", i, "url"]);
  return input.email === undefined || input.email === null ? input.email : checkEmail(input.email, ["body", "email"]);
}

function withDetailDefaults(details: Record<string, unknown>) {
  return { switching: true, previous_annual_revenue: 0, switching_from: null, ...details };
}

/**
 * Creates an organization; `ownerUserId` (the signed-in user creating it) becomes its owner in the
 * same transaction — the member row better-auth's organization plugin reads.
 */
export async function createOrganization(db: Knex, input: OrganizationCreateInput, opts: { ownerUserId?: string } = {}): Promise<OrganizationOut> {
  checkName(input.name);
  const email = checkContacts(input);
  const slug = input.slug;
  const problem = slugProblem(slug);
  if (problem) throw invalid(["body", "slug"], problem, "value_error");
  return db.transaction(async (trx) => {
    if (await slugTaken(trx, slug)) throw invalid(["body", "slug"], "An organization with this slug already exists.", "value_error");
    const row = await insertUnlessSlugTaken(trx, {
      name: input.name.trim(),
      slug,
      avatar_url: input.avatar_url ?? null,
      email: email ?? null,
      website: input.website ?? null,
      socials: jsonb(trx, input.socials ?? []),
      details: input.details ? (jsonb(trx, withDetailDefaults(input.details))) : null,
      details_submitted_at: input.details ? new Date() : null,
      feature_settings: jsonb(trx, Object.assign({}, DEFAULT_FEATURE_SETTINGS, input.feature_settings)),
      subscription_settings: jsonb(trx, Object.assign({}, DEFAULT_SUBSCRIPTION_SETTINGS, input.subscription_settings)),
      notification_settings: jsonb(trx, Object.assign({}, DEFAULT_NOTIFICATION_SETTINGS, input.notification_settings)),
      customer_portal_settings: jsonb(trx, Object.assign({}, DEFAULT_CUSTOMER_PORTAL_SETTINGS, input.customer_portal_settings)),
    });
    if (!row) throw invalid(["body", "slug"], "An organization with this slug already exists.", "value_error");
    if (opts.ownerUserId) await insertMember(trx, row.id, opts.ownerUserId, "owner");
    return toOrganization(row);
  });
}

export async function getOrganization(db: Knex, caller: OrganizationCaller, id: string): Promise<OrganizationOut> {
  const row = await findReadable(db, caller, id);
  if (!row) throw new ResourceNotFound("Organization not found.");
  return toOrganization(row);
}

export async function listOrganizations(
  db: Knex,
  caller: OrganizationCaller,
  query: NonNullable<operations["organizations:list"]["parameters"]["query"]>,
): Promise<Page<OrganizationOut>> {
  const q = readable(db, caller).select("organizations.*");
  const slugs = asList(query.slug);
  if (slugs.length) q.whereIn("organizations.slug", slugs);
  applySorting(q, query.sorting, { created_at: "organizations.created_at", slug: "organizations.slug", name: "organizations.name" }, ["created_at"], "organizations.id");
  return listPage(q, query, (rows: OrganizationRow[]) => rows.map(toOrganization));
}

export async function updateOrganization(
  db: Knex,
  caller: OrganizationCaller,
  id: string,
  input: OrganizationInput,
): Promise<OrganizationOut> {
  const email = checkContacts(input);
  return db.transaction(async (trx) => {
    const row = await findReadable(trx, caller, id, { forUpdate: true });
    if (!row) throw new ResourceNotFound("Organization not found.");
    const patch: Record<string, unknown> = {};
    if (input.name !== undefined && input.name !== null) {
      checkName(input.name);
      patch.name = input.name.trim();
    }
    for (const key of ["avatar_url", "website"] as const) {
      if (input[key] !== undefined) patch[key] = input[key];
    }
    if (email !== undefined) patch.email = email;
    if (input.socials !== undefined && input.socials !== null) patch.socials = JSON.stringify(input.socials);
    if (input.details !== undefined && input.details !== null) {
      patch.details = JSON.stringify(withDetailDefaults(input.details));
      if (!row.details_submitted_at) patch.details_submitted_at = new Date();
    }
    for (const key of ["feature_settings", "subscription_settings", "notification_settings", "customer_portal_settings"] as const) {
      const value = input[key];
      if (value !== undefined && value !== null) patch[key] = JSON.stringify(Object.assign({}, row[key], value));
    }
    patch.modified_at = new Date();
    const updated = await updateOrganizationRow(trx, row.id, patch);
    const out = toOrganization(updated);
    await emit(trx, row.id, "organization.updated", out);
    return out;
  });
}
