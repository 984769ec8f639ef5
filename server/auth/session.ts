// /v1 called with a signed-in member's session cookie, as the console does. The session's active
// organization is the one the call acts for; the member's role there decides the scopes (roles in
// ./access.ts). A state-changing call made this way must come from a trusted origin, since the
// browser sends the cookie whatever page made the request.
import type { IncomingHttpHeaders } from "node:http";
import type { Knex } from "knex";
import { fromNodeHeaders } from "better-auth/node";
import type { OrganizationCaller, UserCaller } from "../kit/auth.js";
import { NotPermitted, Unauthorized } from "../kit/errors.js";
import { isUuid } from "../kit/ids.js";
import type { BorealisAuth } from "./instance.js";
import { scopesOfRole } from "./scopes.js";
import { roleOfMember } from "../organizations/repository.js";

/** The names the session cookie goes by (plain, and with the __Secure- prefix over HTTPS). */
export function hasSessionCookie(headers: IncomingHttpHeaders): boolean {
  return typeof headers.cookie === "string" && headers.cookie.includes("borealis.session_token=");
}

/** A state-changing cookie call must name a trusted origin. */
export function checkOrigin(method: string, headers: IncomingHttpHeaders, trusted: readonly string[]): void {
  if (method === "GET" || method === "HEAD" || method === "OPTIONS") return;
  const origin = headers.origin;
  if (!origin || !trusted.includes(origin)) {
    throw new NotPermitted(
      origin
        ? `Requests from the origin ${origin} may not use the session cookie.`
        : "A session cookie call that changes data must send an Origin header.",
    );
  }
}

export interface SessionCallers {
  /** The caller for an operation of the session's active organization. */
  member(): Promise<OrganizationCaller>;
  /** The caller acting for no organization (creating one). */
  user(): Promise<UserCaller>;
}

/** The signed-in user behind a request's session cookie; 401 when there is none (or it expired). */
export function sessionCallers(auth: BorealisAuth, db: Knex, headers: IncomingHttpHeaders): SessionCallers {
  let found: Promise<{ userId: string; sessionId: string; activeOrganizationId: string | null }> | undefined;
  const session = () =>
    (found ??= auth.api.getSession({ headers: fromNodeHeaders(headers), query: { disableCookieCache: true } }).then((s) => {
      if (!s) throw new Unauthorized("Invalid or expired session.");
      const active = (s.session as { activeOrganizationId?: string | null }).activeOrganizationId;
      return { userId: s.user.id, sessionId: s.session.id, activeOrganizationId: active ?? null };
    }));
  return {
    user: async () => {
      const s = await session();
      return { kind: "user", userId: s.userId, sessionId: s.sessionId };
    },
    member: async () => {
      const s = await session();
      if (!s.activeOrganizationId || !isUuid(s.activeOrganizationId)) {
        throw new NotPermitted("The session has no active organization: choose one with /api/auth/organization/set-active.");
      }
      const row = await roleOfMember(db, s.activeOrganizationId, s.userId);
      if (!row) throw new NotPermitted("You are not a member of the session's active organization.");
      return {
        kind: "organization",
        organizationId: s.activeOrganizationId,
        tokenId: s.sessionId,
        scopes: scopesOfRole(row.role),
        member: { userId: s.userId, role: row.role },
      };
    },
  };
}
