// Polar's /v1/oauth2 operations over better-auth's provider: the token, revocation and
// introspection endpoints pass the request on (adding Polar's sub_type and token_type to an
// introspection); authorize describes an authorization request to the signed-in user (the consent
// screen's data); userinfo answers from the caller the access token names.
import type { IncomingHttpHeaders } from "node:http";
import type { Knex } from "knex";
import type { components, operations } from "../../generated/types.js";
import { ACCESS_TOKEN_PREFIX, needsOrganization, OAUTH_SCOPES, REFRESH_TOKEN_PREFIX } from "../auth/oauth.js";
import { hashToken, type Caller } from "../kit/auth.js";
import type { AuthHandler } from "../kit/context.js";
import { Unauthorized } from "../kit/errors.js";
import { iso, isoRequired } from "../kit/time.js";
import { OAuth2Failure, providerFailure } from "./errors.js";
import { CLIENT_HEADERS, formBody, forward } from "./forward.js";
import { isRegisteredRedirect } from "./redirects.js";
import { findClient, findOAuthToken, findUser, sessionActiveOrganization } from "../auth/repository.js";
import { nameOf as organizationName, ofMember as organizationsOfMember } from "../organizations/repository.js";

type TokenAnswer = operations["oauth2:request_token"]["responses"][200]["content"]["application/json"];
type IntrospectAnswer = operations["oauth2:introspect_token"]["responses"][200]["content"]["application/json"];
type AuthorizeResponse = components["schemas"]["AuthorizeResponse"];
type UserInfo = components["schemas"]["UserInfo"];
type AuthorizeScope = components["schemas"]["AuthorizeScope"];
type AuthorizeQuery = NonNullable<operations["oauth2:authorize"]["parameters"]["query"]>;

export interface Provider {
  auth: AuthHandler;
  publicUrl: string;
  headers: IncomingHttpHeaders;
  /** The client's address (better-auth's rate limits count per client). */
  clientIp: string | null;
}

const FORM = "application/x-www-form-urlencoded";

async function post(p: Provider, path: string, body: object) {
  return forward(p.auth, p.publicUrl, path, {
    method: "POST",
    headers: p.headers,
    pass: CLIENT_HEADERS,
    clientIp: p.clientIp,
    body: formBody(body),
    contentType: FORM,
  });
}

export async function requestToken(p: Provider, body: object): Promise<TokenAnswer> {
  const res = await post(p, "/oauth2/token", body);
  if (res.status !== 200) throw providerFailure(res);
  // better-auth's answer: a refresh token comes with offline_access, an ID token with openid.
  const t = res.json as { access_token: string; expires_in: number; scope: string; refresh_token?: string; id_token?: string };
  const base = { access_token: t.access_token, token_type: "Bearer" as const, expires_in: t.expires_in, scope: t.scope };
  // With both it is Polar's TokenResponse as its client reads it; without, RFC 6749's shape
  // (Polar's client cannot read that one: it wants both keys).
  if (t.refresh_token !== undefined && t.id_token !== undefined)
    return Object.assign(base, { refresh_token: t.refresh_token, id_token: t.id_token });
  return Object.assign(
    base,
    t.refresh_token !== undefined ? { refresh_token: t.refresh_token } : {},
    t.id_token !== undefined ? { id_token: t.id_token } : {},
  );
}

export async function revokeToken(p: Provider, body: object): Promise<Record<string, never>> {
  const res = await post(p, "/oauth2/revoke", body);
  if (res.status !== 200) throw providerFailure(res);
  return {};
}

/** Which of our tables holds the token (by its prefix), and whom it acts for. */
async function tokenRecord(
  db: Knex,
  token: string,
): Promise<{ type: "access_token" | "refresh_token"; referenceId: string | null; userId: string | null } | null> {
  const [table, prefix, type] = token.startsWith(REFRESH_TOKEN_PREFIX)
    ? (["oauth_refresh_tokens", REFRESH_TOKEN_PREFIX, "refresh_token"] as const)
    : (["oauth_access_tokens", ACCESS_TOKEN_PREFIX, "access_token"] as const);
  if (!token.startsWith(prefix)) return null;
  const row = await findOAuthToken(db, table, hashToken(token.slice(prefix.length)));
  return row ? { type, referenceId: row.reference_id, userId: row.user_id } : null;
}

export async function introspectToken(p: Provider, db: Knex, body: { token: string }): Promise<IntrospectAnswer> {
  const res = await post(p, "/oauth2/introspect", body);
  if (res.status !== 200) throw providerFailure(res);
  const got = res.json as {
    active: boolean;
    client_id?: string;
    scope?: string;
    sub?: string;
    aud?: string | string[];
    iss?: string;
    exp?: number;
    iat?: number;
  };
  if (!got.active) return { active: false };
  const record = await tokenRecord(db, body.token);
  const organization = record?.referenceId ?? null;
  return Object.assign({}, got, {
    active: true as const,
    client_id: got.client_id ?? "",
    token_type: record?.type ?? "access_token",
    scope: got.scope ?? "",
    sub_type: organization ? ("organization" as const) : ("user" as const),
    sub: organization ?? got.sub ?? record?.userId ?? "",
    // What the token is restricted to, as Polar lists its down-scope: nothing for a user's token.
    organizations: organization ? [organization] : [],
    aud: Array.isArray(got.aud) ? got.aud.join(" ") : (got.aud ?? got.client_id ?? ""),
    iss: got.iss ?? p.publicUrl,
    exp: got.exp ?? 0,
    iat: got.iat ?? 0,
  });
}

/** The 0.x clients' scopes that gate nothing: a client may ask for them, the consent does not show them. */
const GRANTING_NOTHING: ReadonlySet<string> = new Set([
  "web:read",
  "web:write",
  "issues:read",
  "issues:write",
  "repositories:read",
  "repositories:write",
  "external_organizations:read",
  "user:write",
  "member_sessions:write",
]);
const SHOWN_SCOPES: ReadonlySet<string> = new Set(OAUTH_SCOPES.filter((s) => s !== "offline_access" && !GRANTING_NOTHING.has(s)));
const isShownScope = (s: string): s is AuthorizeScope => SHOWN_SCOPES.has(s);

interface ClientRow {
  client_id: string;
  name: string | null;
  uri: string | null;
  icon: string | null;
  tos: string | null;
  policy: string | null;
  scopes: string[] | null;
  redirect_uris: string[];
  disabled: boolean | null;
  created_at: Date | null;
  updated_at: Date | null;
}

/** What an authorization request asks of the signed-in user, as Polar's consent screen reads it. */
export async function describeAuthorization(db: Knex, caller: Caller, query: AuthorizeQuery): Promise<AuthorizeResponse> {
  if (caller.kind !== "user") throw new Unauthorized();
  if (!query.client_id) throw new OAuth2Failure(400, "invalid_request", "client_id is required.");
  const client = await findClient<ClientRow>(db, query.client_id);
  if (!client || client.disabled) throw new OAuth2Failure(400, "invalid_client", "No such client.");
  if (query.redirect_uri && !isRegisteredRedirect(client.redirect_uris, query.redirect_uri)) {
    throw new OAuth2Failure(400, "invalid_request", "The redirect URI is not one the client registered.");
  }
  const asked = query.scope ? query.scope.split(/\s+/).filter(Boolean) : (client.scopes ?? ["openid", "profile", "email"]);
  const unknown = asked.filter((s) => !OAUTH_SCOPES.includes(s) || (client.scopes && !client.scopes.includes(s)));
  if (unknown.length) throw new OAuth2Failure(400, "invalid_scope", `The client may not ask for: ${unknown.join(", ")}.`);
  const user = await findUser(db, caller.userId, ["id", "email", "image"]);
  const publicClient = {
    client_id: client.client_id,
    client_name: client.name,
    client_uri: client.uri,
    logo_uri: client.icon,
    tos_uri: client.tos,
    policy_uri: client.policy,
    created_at: isoRequired(client.created_at ?? new Date(0)),
    modified_at: iso(client.updated_at),
  };
  const scopes = asked.filter(isShownScope);
  const subType = query.sub_type ?? (needsOrganization(asked) ? "organization" : "user");
  const organizations = await organizationsOfMember(db, caller.userId);
  if (subType === "user") {
    return {
      client: publicClient,
      sub_type: "user",
      sub: { id: user.id, email: user.email, avatar_url: user.image ?? null },
      scopes,
      organizations,
    };
  }
  // The organization the consent would be for: the session's active one.
  const session = caller.sessionId ? await sessionActiveOrganization(db, caller.sessionId) : undefined;
  const sub = organizations.find((o) => o.id === session?.active_organization_id) ?? null;
  return { client: publicClient, sub_type: "organization", sub, scopes, organizations };
}

/** Who the access token acts for: the organization (sub_type organization) or the user. */
export async function userInfo(db: Knex, caller: Caller): Promise<UserInfo> {
  if (caller.kind === "organization") {
    const org = await organizationName(db, caller.organizationId);
    return { sub: org.id, name: org.name };
  }
  if (caller.kind !== "user") throw new Unauthorized();
  const user = await findUser(db, caller.userId, ["id", "name", "email", "email_verified"]);
  const scopes = caller.oauth?.scopes;
  return Object.assign(
    { sub: user.id },
    !scopes || scopes.has("profile") ? { name: user.name } : {},
    !scopes || scopes.has("email") ? { email: user.email, email_verified: user.email_verified } : {},
  );
}
