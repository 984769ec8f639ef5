// What a member of an organization may do with the API, by role: a leaf that the session reader
// (session.ts) and the OAuth2 provider (oauth.ts) share.
import { ALL_SCOPES } from "../kit/auth.js";

/** The scopes a member (role "member") does not hold. */
export const MEMBER_WITHHELD_SCOPES: ReadonlySet<string> = new Set([
  "organizations:write",
  "webhooks:read",
  "webhooks:write",
  "organization_access_tokens:read",
  "organization_access_tokens:write",
]);

/** 0.49.0's scopes that an organization token cannot hold (the contract's AvailableScope has not them): OAuth2 only. */
export const OAUTH_ONLY_SCOPES = ["user:write", "wallets:read", "wallets:write", "member_sessions:write"] as const;

const ROLE_SCOPES = [...ALL_SCOPES, ...OAUTH_ONLY_SCOPES];
const OWNER_SCOPES: ReadonlySet<string> = new Set(ROLE_SCOPES);
const MEMBER_SCOPES: ReadonlySet<string> = new Set(ROLE_SCOPES.filter((s) => !MEMBER_WITHHELD_SCOPES.has(s)));

/** A member's scopes by role (several roles are comma separated: the strongest wins). */
export function scopesOfRole(role: string): ReadonlySet<string> {
  const roles = role.split(",").map((r) => r.trim());
  return roles.includes("owner") || roles.includes("admin") ? OWNER_SCOPES : MEMBER_SCOPES;
}
