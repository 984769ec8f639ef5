// Who calls an operation, from its credentials, before its handler runs: an organization access
// token (polar_oat_), an OAuth2 token (polar_at_), a customer session (polar_cst_), a better-auth
// session token, or a signed-in member's cookie (data-changing calls need a trusted Origin).
// Operations that act for a user (creating an organization, describing an OAuth2 authorization)
// take a signed-in user or an OAuth2 token with user scopes. docs/AUTH.md has the details.
import type { IncomingHttpHeaders } from "node:http";
import type { Knex } from "knex";
import type { OperationId } from "../../generated/handlers.js";
import type { operations } from "../../generated/operations.js";
import { bearer, requireScopes, type Caller, type OrganizationCaller, type UserCaller } from "../kit/auth.js";
import { NotPermitted, Unauthorized } from "../kit/errors.js";
import { authenticateCustomer } from "../customer-sessions/service.js";
import type { OrganizationTokens } from "../organization-access-tokens/verifier.js";
import type { BorealisAuth } from "./instance.js";
import { ACCESS_TOKEN_PREFIX, oauthCaller } from "./oauth.js";
import { checkOrigin, hasSessionCookie, sessionCallers } from "./session.js";

type OperationMeta = (typeof operations)[OperationId];

export interface CallerDeps {
  db: Knex;
  auth: BorealisAuth;
  tokens: OrganizationTokens;
  /** Origins allowed to change data with a session cookie. */
  trusted: readonly string[];
}

/** Operations done as a user, for no organization. */
const USER_OPERATIONS: ReadonlySet<string> = new Set(["organizations:create", "oauth2:authorize"]);
/** Operations any signed-in principal may call (they describe the caller). */
const ANY_PRINCIPAL: ReadonlySet<string> = new Set(["oauth2:userinfo"]);

export async function resolveCaller(
  deps: CallerDeps,
  operationId: OperationId,
  meta: OperationMeta,
  request: { method: string; headers: IncomingHttpHeaders },
): Promise<Caller> {
  const token = bearer(typeof request.headers.authorization === "string" ? request.headers.authorization : undefined);
  if (meta.security === "customer_session") return authenticateCustomer(deps.db, token);
  if (meta.security !== "access_token" && meta.security !== "optional_access_token") {
    // public and client-credential operations authenticate inside their handlers.
    return { kind: "anonymous" };
  }

  let principal: () => Promise<OrganizationCaller | UserCaller>;
  let user: (() => Promise<UserCaller>) | null = null;
  if (token?.startsWith("polar_oat_")) {
    principal = () => deps.tokens.authenticate(token);
  } else if (token?.startsWith(ACCESS_TOKEN_PREFIX)) {
    principal = () => oauthCaller(deps.db, token);
  } else if (token && !token.startsWith("polar_")) {
    // Not one of our tokens: a better-auth session token (from the device flow), as a bearer.
    const session = sessionCallers(deps.auth, deps.db, { authorization: `Bearer ${token}` });
    principal = session.member;
    user = session.user;
  } else if (!token && meta.security === "optional_access_token") {
    // The hosted checkout's confirm: a merchant's session cookie sent along by the browser is not
    // the buyer's credential.
    return { kind: "anonymous" };
  } else if (!token && hasSessionCookie(request.headers)) {
    checkOrigin(request.method, request.headers, deps.trusted);
    const session = sessionCallers(deps.auth, deps.db, request.headers);
    principal = session.member;
    user = session.user;
  } else if (token) {
    throw new Unauthorized("Invalid or expired token.");
  } else {
    throw new Unauthorized("Missing bearer token.");
  }

  if (USER_OPERATIONS.has(operationId)) {
    if (user) return user();
    const caller = await principal();
    if (caller.kind !== "user") throw new NotPermitted("This is done by a signed-in user, not with an organization's token.");
    if (caller.oauth && meta.scopes.length && !meta.scopes.some((s) => caller.oauth?.scopes.has(s))) {
      throw new NotPermitted(`The access token lacks the required scope: one of ${meta.scopes.join(", ")}.`);
    }
    return caller;
  }
  if (ANY_PRINCIPAL.has(operationId)) return user ? user() : principal();
  const caller = await principal();
  if (caller.kind !== "organization") throw new NotPermitted("The token acts for a user, not for an organization.");
  requireScopes(caller, meta.scopes);
  return caller;
}

/**
 * `Polar-Organization` (the 1.x client's `organizationId`): the organization the call means. Each
 * of our callers acts on one organization (a token's, a session's active one, a customer's), so
 * naming another is refused rather than answered with this one's data.
 */
export function checkNamedOrganization(caller: Caller, named: string | undefined): void {
  if (!named || (caller.kind !== "organization" && caller.kind !== "customer")) return;
  if (named !== caller.organizationId) {
    throw new NotPermitted(`These credentials act on organization ${caller.organizationId}; Polar-Organization names ${named}.`);
  }
}
