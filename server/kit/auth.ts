// Callers and credentials. Organization access tokens (`polar_oat_…`) are stored as SHA-256
// hashes; each belongs to exactly one organization and carries a set of scopes (verified, with a
// cache every API process keeps correct, by server/organization-access-tokens/verifier.ts). Customer session tokens
// (`polar_cst_…`, also hashed) authenticate one customer in the customer portal
// (server/customer-sessions/service.ts's authenticateCustomer).
import { hash, randomBytes } from "node:crypto";
import { NotPermitted } from "./errors.js";

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
  | {
      kind: "customer";
      customerId: string;
      organizationId: string;
      /** The customer session the caller signed in with. */
      sessionId: string;
      /** Set when a checkout's confirm opened the session: it sees that purchase alone. */
      purchase: Purchase | null;
      /** The team member the session was opened for (server/members/); none: the customer's own session. */
      memberId?: string | null;
    }
  /** A signed-in user acting for no organization (creating one), or an OAuth2 token granted user scopes only. */
  | { kind: "user"; userId: string; sessionId?: string; oauth?: { scopes: ReadonlySet<string> } }
  | { kind: "anonymous" };

/**
 * What a purchase's session may read: the rows its checkout made, by table. Empty until
 * server/customer-portal/purchase.ts fills them for an operation it allows.
 */
export interface Purchase {
  checkoutId: string;
  orders: readonly string[];
  subscriptions: readonly string[];
  grants: readonly string[];
  licenseKeys: readonly string[];
}

/** Who reads: an organization, or in the portal one of its customers, perhaps held to a purchase's rows. */
export interface ReadScope {
  organizationId: string;
  customerId?: string;
  /** Only these rows (a purchase's session). */
  ids?: readonly string[];
}

export interface CustomerScope extends ReadScope {
  customerId: string;
}

/** A customer's rows in `table`: all of theirs, or only those of the purchase that opened the session. */
export function customerScope(caller: CustomerCaller, table: Exclude<keyof Purchase, "checkoutId">): CustomerScope {
  const scope: CustomerScope = { organizationId: caller.organizationId, customerId: caller.customerId };
  if (caller.purchase) scope.ids = caller.purchase[table];
  return scope;
}

export type OrganizationCaller = Extract<Caller, { kind: "organization" }>;
export type CustomerCaller = Extract<Caller, { kind: "customer" }>;
export type UserCaller = Extract<Caller, { kind: "user" }>;

/** Every read/write scope an organization token can hold (the contract's scope list). */
export const ALL_SCOPES = [
  "openid",
  "profile",
  "email",
  "user:read",
  "web:read",
  "web:write",
  ...[
    "organizations",
    "custom_fields",
    "discounts",
    "checkout_links",
    "checkouts",
    "transactions",
    "payouts",
    "products",
    "benefits",
    "events",
    "meters",
    "files",
    "subscriptions",
    "customers",
    "disputes",
    "orders",
    "refunds",
    "webhooks",
    "license_keys",
    "repositories",
    "issues",
    "customer_portal",
    "notifications",
    "notification_recipients",
  ].flatMap((s) => [`${s}:read`, `${s}:write`]),
  "customer_meters:read",
  "payments:read",
  "metrics:read",
  "metrics:write",
  "external_organizations:read",
  "customer_sessions:write",
  "members:read",
  "members:write",
  "customer_seats:read",
  "customer_seats:write",
  "organization_access_tokens:read",
  "organization_access_tokens:write",
] as const;

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export function randomToken(prefix: string, length = 40): string {
  const bytes = randomBytes(length);
  let out = prefix;
  for (const b of bytes) out += ALPHABET[b % ALPHABET.length];
  return out;
}

/** A token's SHA-256, hex: what is stored and looked up (in one call, without a Hash object: every authenticated request makes one). */
export function hashToken(token: string): string {
  return hash("sha256", token, "hex");
}

export function bearer(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1] : null;
}

/** An operation declares the scopes that allow it; any one of them suffices. */
export function requireScopes(caller: OrganizationCaller, allowed: readonly string[]): void {
  if (allowed.length === 0) return;
  if (!allowed.some((s) => caller.scopes.has(s))) {
    throw new NotPermitted(`The access token lacks the required scope: one of ${allowed.join(", ")}.`);
  }
}
