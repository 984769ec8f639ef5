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
  DEFAULT_CUSTOMER_PORTAL_SETTINGS,
  DEFAULT_FEATURE_SETTINGS,
  DEFAULT_NOTIFICATION_SETTINGS,
  DEFAULT_SUBSCRIPTION_SETTINGS,
  benefitRevocationGracePeriod,
  toOrganization,
  type OrganizationOut,
} from "./models.js";
import {
  findReadable,
  insertMember,
  insertUnlessSlugTaken,
  readable,
  slugTaken,
  updateOrganizationRow,
  type OrganizationRow,
  type StoredPortalSettings,
} from "./repository.js";
import { jsonb } from "../kit/db.js";
import { checkHttpUrl } from "../kit/urls.js";
import { checkEmail } from "../kit/email.js";
import { checkEmbedHosts } from "./embed-hosts.js";
import { DEFAULT_TAX_SETTINGS, taxSettingsOf, updatedTaxSettings } from "./tax-settings.js";
import { checkSellerDetails } from "./seller-details.js";

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

type SettingsInput = Pick<
  OrganizationInput,
  | "feature_settings"
  | "subscription_settings"
  | "notification_settings"
  | "customer_portal_settings"
  | "customer_email_settings"
  | "default_presentment_currency"
  | "default_tax_behavior"
  | "sso_enforced"
  | "dispute_settings"
  | "embed_hosts"
  | "email_settings"
> &
  Pick<Partial<OrganizationInput>, "tax_settings">;
type StoredSettings = Pick<
  OrganizationRow,
  | "feature_settings"
  | "subscription_settings"
  | "notification_settings"
  | "customer_portal_settings"
  | "customer_email_settings"
  | "tax_settings"
  | "email_settings"
>;

/** A setting the platform does not offer: only its off value is accepted. */
function offOnly(value: boolean | null | undefined, loc: (string | number)[], what: string): void {
  if (value === true) throw invalid(loc, `${what} is not available.`, "value_error", value);
}

/**
 * The settings columns a create or update writes: each given setting merged over what is stored,
 * and the plain ones given.
 * Whether customers may change plan is one setting, given as the subscription settings'
 * allow_customer_updates or the portal settings' subscription.update_plan (which wins).
 */
function settingsColumns(trx: Knex, stored: StoredSettings, input: SettingsInput): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const merged = <T extends object>(key: keyof StoredSettings, value: T | null | undefined) => {
    if (value !== undefined && value !== null) out[key] = jsonb(trx, Object.assign({}, stored[key], value));
  };
  merged("feature_settings", input.feature_settings);
  merged("notification_settings", input.notification_settings);
  merged("customer_email_settings", input.customer_email_settings);
  merged("email_settings", input.email_settings);
  const concedeBelow = input.dispute_settings?.auto_accept_below_amount;
  if (concedeBelow !== undefined && concedeBelow !== null) {
    throw invalid(
      ["body", "dispute_settings", "auto_accept_below_amount"],
      "Conceding disputes automatically is not available.",
      "value_error",
      concedeBelow,
    );
  }
  if (input.embed_hosts !== undefined && input.embed_hosts !== null)
    out.embed_hosts = jsonb(trx, checkEmbedHosts(input.embed_hosts, ["body", "embed_hosts"]));

  const portal = input.customer_portal_settings ?? undefined;
  const { benefit_revocation_grace_period: grace, ...subscription } = input.subscription_settings ?? {};
  if (grace !== undefined && grace !== benefitRevocationGracePeriod()) {
    throw invalid(
      ["body", "subscription_settings", "benefit_revocation_grace_period"],
      `A past-due subscription keeps its benefits through its payment retries, ${benefitRevocationGracePeriod()} days; another grace period is not available.`,
      "value_error",
      grace,
    );
  }
  const updatePlan = portal?.subscription?.update_plan;
  if (updatePlan !== undefined) subscription.allow_customer_updates = updatePlan;
  if (input.subscription_settings || updatePlan !== undefined) merged("subscription_settings", subscription);

  if (portal) {
    offOnly(portal.subscription?.pause, ["body", "customer_portal_settings", "subscription", "pause"], "Pausing a subscription");
    const { usage, subscription: portalSubscription, customer, ...sections } = portal;
    const next: Partial<StoredPortalSettings> = Object.assign({}, stored.customer_portal_settings, sections);
    const allowEmailChange = customer?.allow_email_change;
    if (allowEmailChange !== undefined) next.customer = { allow_email_change: allowEmailChange };
    if (usage !== undefined) next.usage = typeof usage === "boolean" ? usage : usage.show;
    if (portalSubscription?.update_seats !== undefined) next.subscription = { update_seats: portalSubscription.update_seats };
    out.customer_portal_settings = jsonb(trx, next);
  }
  if (input.tax_settings !== undefined && input.tax_settings !== null) {
    out.tax_settings = jsonb(trx, updatedTaxSettings(taxSettingsOf(stored.tax_settings), input.tax_settings));
  }
  offOnly(input.sso_enforced, ["body", "sso_enforced"], "Single sign-on");
  for (const key of ["default_presentment_currency", "default_tax_behavior", "sso_enforced"] as const) {
    if (input[key] !== undefined && input[key] !== null) out[key] = input[key];
  }
  return out;
}

const DEFAULTS: StoredSettings = {
  feature_settings: DEFAULT_FEATURE_SETTINGS,
  subscription_settings: DEFAULT_SUBSCRIPTION_SETTINGS,
  notification_settings: DEFAULT_NOTIFICATION_SETTINGS,
  customer_portal_settings: DEFAULT_CUSTOMER_PORTAL_SETTINGS,
  customer_email_settings: {},
  tax_settings: DEFAULT_TAX_SETTINGS,
  email_settings: {},
};

/** A new organization's settings columns before what its create body gives. */
function defaultSettings(trx: Knex): Record<string, unknown> {
  return Object.fromEntries(Object.entries(DEFAULTS).map(([key, value]) => [key, jsonb(trx, value)]));
}

function withDetailDefaults(details: Record<string, unknown>) {
  return { switching: true, previous_annual_revenue: 0, switching_from: null, ...details };
}

/**
 * Creates an organization; `ownerUserId` (the signed-in user creating it) becomes its owner in the
 * same transaction — the member row better-auth's organization plugin reads.
 */
export async function createOrganization(
  db: Knex,
  input: OrganizationCreateInput,
  opts: { ownerUserId?: string } = {},
): Promise<OrganizationOut> {
  checkName(input.name);
  const email = checkContacts(input);
  const slug = input.slug;
  const problem = slugProblem(slug);
  if (problem) throw invalid(["body", "slug"], problem, "value_error");
  return db.transaction(async (trx) => {
    if (await slugTaken(trx, slug)) throw invalid(["body", "slug"], "An organization with this slug already exists.", "value_error");
    const columns = {
      name: input.name.trim(),
      slug,
      avatar_url: input.avatar_url ?? null,
      email: email ?? null,
      website: input.website ?? null,
      socials: jsonb(trx, input.socials ?? []),
      details: input.details ? jsonb(trx, withDetailDefaults(input.details)) : null,
      details_submitted_at: input.details ? new Date() : null,
    };
    const row = await insertUnlessSlugTaken(trx, Object.assign(columns, defaultSettings(trx), settingsColumns(trx, DEFAULTS, input)));
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
  applySorting(
    q,
    query.sorting,
    { created_at: "organizations.created_at", slug: "organizations.slug", name: "organizations.name" },
    ["created_at"],
    "organizations.id",
  );
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
    Object.assign(patch, settingsColumns(trx, row, input));
    if (input.seller_details !== undefined) {
      patch.seller_details = input.seller_details === null ? null : JSON.stringify(checkSellerDetails(input.seller_details));
    }
    patch.modified_at = new Date();
    const updated = await updateOrganizationRow(trx, row.id, patch);
    const out = toOrganization(updated);
    await emit(trx, row.id, "organization.updated", out);
    return out;
  });
}
