// Callers and credentials. Organization access tokens (`polar_oat_…`) are stored as SHA-256
// hashes; each belongs to exactly one organization and carries a set of scopes. Customer session
// tokens (`polar_cst_…`, also hashed) authenticate one customer in the customer portal.
import { createHash, randomBytes } from "node:crypto";
import type { Knex } from "knex";
import { NotPermitted, Unauthorized } from "./errors.js";

export type Caller =
  | {
      kind: "organization";
      organizationId: string;
      /** The organization access token, or the member's session, that authenticated the call. */
      tokenId: string;
      scopes: ReadonlySet<string>;
      /** Set when a signed-in member calls (session cookie): who, and with which role. */
      member?: { userId: string; role: string };
    }
  | { kind: "customer"; customerId: string; organizationId: string }
  /** A signed-in user acting for no organization (creating one). */
  | { kind: "user"; userId: string }
  | { kind: "anonymous" };

export type OrganizationCaller = Extract<Caller, { kind: "organization" }>;
export type CustomerCaller = Extract<Caller, { kind: "customer" }>;
export type UserCaller = Extract<Caller, { kind: "user" }>;

/** Every read/write scope an organization token can hold (the contract's scope list). */
export const ALL_SCOPES = [
  "openid", "profile", "email", "user:read", "web:read", "web:write",
  ...[
    "organizations", "custom_fields", "discounts", "checkout_links", "checkouts", "transactions",
    "payouts", "products", "benefits", "events", "meters", "files", "subscriptions", "customers",
    "orders", "refunds", "webhooks", "license_keys", "repositories", "issues", "customer_portal",
    "notifications", "notification_recipients",
  ].flatMap((s) => [`${s}:read`, `${s}:write`]),
  "customer_meters:read", "payments:read", "metrics:read", "external_organizations:read",
  "customer_sessions:write",
  "organization_access_tokens:read", "organization_access_tokens:write",
] as const;

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export function randomToken(prefix: string, length = 40): string {
  const bytes = randomBytes(length);
  let out = prefix;
  for (const b of bytes) out += ALPHABET[b % ALPHABET.length];
  return out;
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Mints an organization access token; the plain token is returned once and never stored. */
export async function mintOrganizationToken(
  db: Knex,
  organizationId: string,
  opts: { scopes?: readonly string[]; comment?: string; expiresAt?: Date | null } = {},
): Promise<string> {
  const token = randomToken("polar_oat_");
  await db("organization_access_tokens").insert({
    organization_id: organizationId,
    token_hash: hashToken(token),
    scopes: [...(opts.scopes ?? ALL_SCOPES)],
    comment: opts.comment ?? "",
    expires_at: opts.expiresAt ?? null,
  });
  return token;
}

export function bearer(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1] : null;
}

/**
 * How long a verified organization token is trusted without asking the database again (ms;
 * TOKEN_CACHE_TTL_MS, 0 turns the cache off). A revocation through revokeOrganizationToken in this
 * process takes effect at once; one made anywhere else (another API process, plain SQL) takes
 * effect within this bound. An entry never outlives the token's own expires_at.
 */
export const TOKEN_CACHE_TTL_MS = Number(process.env.TOKEN_CACHE_TTL_MS ?? 5_000);
const TOKEN_CACHE_MAX = 10_000;
/** token hash → caller; a Map keeps insertion order, so the first key is the oldest entry. */
const tokenCache = new Map<string, { caller: OrganizationCaller; until: number }>();

/** Drops cached callers: those of one token, or every one. */
export function forgetCachedTokens(tokenId?: string): void {
  if (tokenId === undefined) return tokenCache.clear();
  for (const [hash, entry] of tokenCache) if (entry.caller.tokenId === tokenId) tokenCache.delete(hash);
}

/** Revokes an organization access token; this process stops accepting it at once. */
export async function revokeOrganizationToken(db: Knex, tokenId: string): Promise<void> {
  await db("organization_access_tokens").where({ id: tokenId }).whereNull("revoked_at").update({ revoked_at: db.fn.now() });
  forgetCachedTokens(tokenId);
}

export async function authenticateOrganization(db: Knex, token: string | null): Promise<OrganizationCaller> {
  if (!token) throw new Unauthorized("Missing bearer token.");
  if (!token.startsWith("polar_oat_")) throw new Unauthorized("Invalid or expired token.");
  const hash = hashToken(token);
  const now = Date.now();
  const cached = tokenCache.get(hash);
  if (cached && cached.until > now) return cached.caller;
  if (cached) tokenCache.delete(hash);
  const row = await db("organization_access_tokens")
    .where({ token_hash: hash })
    .whereNull("revoked_at")
    .where((q) => q.whereNull("expires_at").orWhere("expires_at", ">", db.fn.now()))
    .first("id", "organization_id", "scopes", "expires_at");
  if (!row) throw new Unauthorized("Invalid or expired token.");
  const caller: OrganizationCaller = Object.freeze({
    kind: "organization" as const,
    organizationId: row.organization_id,
    tokenId: row.id,
    scopes: new Set<string>(row.scopes),
  });
  const until = Math.min(now + TOKEN_CACHE_TTL_MS, row.expires_at ? new Date(row.expires_at).getTime() : Infinity);
  if (until > now) {
    if (tokenCache.size >= TOKEN_CACHE_MAX) tokenCache.delete(tokenCache.keys().next().value!);
    tokenCache.set(hash, { caller, until });
  }
  return caller;
}

/** A live customer session: not expired, not revoked, and its customer not deleted. */
export async function authenticateCustomer(db: Knex, token: string | null): Promise<CustomerCaller> {
  if (!token) throw new Unauthorized("Missing bearer token.");
  if (!token.startsWith("polar_cst_")) throw new Unauthorized("Invalid or expired customer session.");
  const row = await db("customer_sessions")
    .join("customers", "customers.id", "customer_sessions.customer_id")
    .where("customer_sessions.token_hash", hashToken(token))
    .whereNull("customer_sessions.revoked_at")
    .where("customer_sessions.expires_at", ">", db.fn.now())
    .whereNull("customers.deleted_at")
    .first("customers.id as customer_id", "customers.organization_id");
  if (!row) throw new Unauthorized("Invalid or expired customer session.");
  return { kind: "customer", customerId: row.customer_id, organizationId: row.organization_id };
}

/** An operation declares the scopes that allow it; any one of them suffices. */
export function requireScopes(caller: OrganizationCaller, allowed: readonly string[]): void {
  if (allowed.length === 0) return;
  if (!allowed.some((s) => caller.scopes.has(s))) {
    throw new NotPermitted(`The access token lacks the required scope: one of ${allowed.join(", ")}.`);
  }
}
