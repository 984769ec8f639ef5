// The OAuth2 / OpenID Connect provider: better-auth's oauth-provider and jwt plugins, configured to
// behave like Polar's. Discovery names Polar's endpoints (server/oauth2/); tokens and client secrets
// are stored as SHA-256 hashes so /v1 verifies an access token itself (oauthCaller). Consent is per
// organization: a token acts for the session's active organization within what its user may still
// do there, or for the user with user scopes only. docs/AUTH.md has the details.
import { randomBytes } from "node:crypto";
import type { Knex } from "knex";
import { jwt } from "better-auth/plugins";
import { APIError } from "better-auth/api";
import { oauthProvider } from "@better-auth/oauth-provider";
import type pg from "pg";
import { ALL_SCOPES, hashToken, type OrganizationCaller, type UserCaller } from "../kit/auth.js";
import { NotPermitted, Unauthorized } from "../kit/errors.js";
import { isUuid } from "../kit/ids.js";
import type { AuthConfig } from "./config.js";
import { findLiveAccessToken } from "./repository.js";
import { roleOfMember } from "../organizations/repository.js";
import { OAUTH_ONLY_SCOPES, scopesOfRole } from "./scopes.js";

export const ACCESS_TOKEN_PREFIX = "polar_at_";
export const REFRESH_TOKEN_PREFIX = "polar_rt_";
export const CLIENT_SECRET_PREFIX = "polar_cs_";
export const CLIENT_ID_PREFIX = "polar_ci_";

/** Scopes about the user alone; every other scope is an organization's. */
export const USER_SCOPES: ReadonlySet<string> = new Set(["openid", "profile", "email", "offline_access", "user:read", "user:write"]);
/** Not for third-party applications: they cannot make access tokens. */
const NOT_FOR_OAUTH: ReadonlySet<string> = new Set(["organization_access_tokens:read", "organization_access_tokens:write"]);
/** Every scope a client may ask for (offline_access for a refresh token). */
export const OAUTH_SCOPES: string[] = ["offline_access", ...ALL_SCOPES.filter((s) => !NOT_FOR_OAUTH.has(s)), ...OAUTH_ONLY_SCOPES];

export const needsOrganization = (scopes: readonly string[]) => scopes.some((s) => !USER_SCOPES.has(s));

const randomId = (prefix: string) => `${prefix}${randomBytes(24).toString("base64url")}`;

/** Whether the user holds one of `roles` in the organization. */
async function memberRole(pool: pg.Pool, organizationId: string | null | undefined, userId: string): Promise<string | null> {
  if (!organizationId || !isUuid(organizationId)) return null;
  const { rows } = await pool.query<{ role: string }>("select role from members where organization_id = $1 and user_id = $2", [
    organizationId,
    userId,
  ]);
  return rows[0]?.role ?? null;
}

const manages = (role: string | null) => !!role && role.split(",").some((r) => r === "owner" || r === "admin");

/** The jwt and oauth-provider plugins, named for our tables by `named` (see ./instance.ts). */
export function oauthPluginFactories(config: AuthConfig, pool: pg.Pool) {
  return {
    jwt: (schema?: Record<string, { modelName?: string; fields: Record<string, string> }>) =>
      jwt({ schema, jwt: { issuer: config.baseURL, expirationTime: "1h" } }),
    oauthProvider: (schema?: Record<string, { modelName?: string; fields: Record<string, string> }>) =>
      oauthProvider({
        schema,
        loginPage: `${config.appURL}/sign-in`,
        consentPage: `${config.appURL}/oauth/consent`,
        scopes: OAUTH_SCOPES,
        clientRegistrationDefaultScopes: ["openid", "profile", "email"],
        clientRegistrationAllowedScopes: OAUTH_SCOPES,
        allowDynamicClientRegistration: true,
        // A confidential client (client_secret) may skip PKCE, as Polar's client does; public clients
        // (token_endpoint_auth_method none) always use it, S256 only.
        clientRegistrationRequirePKCE: false,
        accessTokenExpiresIn: 3600,
        refreshTokenExpiresIn: 30 * 24 * 3600,
        // Strict rotation: a refresh token used twice ends its whole family.
        refreshTokenReuseInterval: 0,
        prefix: { opaqueAccessToken: ACCESS_TOKEN_PREFIX, refreshToken: REFRESH_TOKEN_PREFIX, clientSecret: CLIENT_SECRET_PREFIX },
        generateClientId: () => randomId(CLIENT_ID_PREFIX),
        storeTokens: { hash: async (token: string) => hashToken(token) },
        grantTypes: ["authorization_code", "refresh_token"],
        advertisedMetadata: { scopes_supported: OAUTH_SCOPES },
        clientReference: ({ session }) => {
          const active = (session as { activeOrganizationId?: string | null } | undefined)?.activeOrganizationId;
          return active ?? undefined;
        },
        clientPrivileges: async ({ action, user, session }) => {
          if (!user) return false;
          const active = (session as { activeOrganizationId?: string | null } | undefined)?.activeOrganizationId;
          const role = await memberRole(pool, active, user.id);
          return action === "read" || action === "list" ? role !== null : manages(role);
        },
        postLogin: {
          page: `${config.appURL}/oauth/organization`,
          // An organization's scopes need an active organization the user belongs to.
          shouldRedirect: async ({ session, user, scopes }) => {
            if (!needsOrganization(scopes)) return false;
            const active = (session as { activeOrganizationId?: string | null }).activeOrganizationId;
            return (await memberRole(pool, active, user.id)) === null;
          },
          consentReferenceId: async ({ session, user, scopes }) => {
            if (!needsOrganization(scopes)) return undefined;
            const active = (session as { activeOrganizationId?: string | null }).activeOrganizationId;
            if ((await memberRole(pool, active, user.id)) === null) {
              throw new APIError("BAD_REQUEST", {
                error: "invalid_request",
                error_description: "choose an organization to authorize the application for",
              });
            }
            return active ?? undefined;
          },
        },
      }),
  };
}

export interface OAuthToken {
  clientId: string;
  userId: string | null;
  organizationId: string | null;
  scopes: string[];
  expiresAt: Date;
}

/** The live access token behind `polar_at_…`, or null (unknown, expired or revoked). */
export async function findAccessToken(db: Knex, token: string): Promise<OAuthToken | null> {
  if (!token.startsWith(ACCESS_TOKEN_PREFIX)) return null;
  const row = await findLiveAccessToken(db, hashToken(token.slice(ACCESS_TOKEN_PREFIX.length)));
  if (!row) return null;
  return { clientId: row.client_id, userId: row.user_id, organizationId: row.reference_id, scopes: row.scopes, expiresAt: row.expires_at };
}

/**
 * /v1 called with an OAuth2 access token: the organization it was granted for, with exactly its
 * granted scopes (less any its user may no longer use there), or its user when it was granted
 * user scopes only. Never cached: a revocation or a removed member takes effect at once.
 */
export async function oauthCaller(db: Knex, token: string): Promise<OrganizationCaller | UserCaller> {
  const found = await findAccessToken(db, token);
  if (!found || !found.userId) throw new Unauthorized("Invalid or expired token.");
  if (!found.organizationId) return { kind: "user", userId: found.userId, oauth: { scopes: new Set(found.scopes) } };
  const row = await roleOfMember(db, found.organizationId, found.userId);
  if (!row) throw new NotPermitted("The token's user is no longer a member of its organization.");
  const allowed = scopesOfRole(row.role);
  return {
    kind: "organization",
    organizationId: found.organizationId,
    tokenId: `oauth:${found.clientId}`,
    scopes: new Set(found.scopes.filter((s) => allowed.has(s))),
    member: { userId: found.userId, role: row.role },
  };
}
