// Who is signed in to the console: a person with a better-auth session (email and password, at
// /api/auth), acting for the session's active organization with their role there; or, for scripts
// and self-hosters who prefer it, an organization access token kept for this tab. A 401 from any
// call ends the session and shows the sign-in page; a 403 stays a notification.
import type { AuthProvider } from "react-admin";
import { credentials } from "./credentials";
import { currentOrganization } from "../dataProvider/organization";
import { AuthError, isTwoFactorChallenge, session, type AuthOrganization, type Session } from "./session";

/** The code of sign-in's error when the password was right and a second factor is asked for. */
export const TWO_FACTOR_REQUIRED = "TWO_FACTOR_REQUIRED";

export interface Identity {
  id: string;
  fullName: string;
  email?: string;
  organization: { id: string; name: string } | null;
  organizations: AuthOrganization[];
  /** owner, admin or member (an access token acts as the organization: owner) */
  role: string;
  viaToken: boolean;
}

let identity: Promise<Identity> | null = null;

/** Forget what is known of the caller (after signing in or out, switching organization). */
export function forgetIdentity(): void {
  identity = null;
}

async function tokenIdentity(): Promise<Identity> {
  const org = await currentOrganization();
  if (!org) throw new Error("This token reaches no organization");
  return {
    id: org.id,
    fullName: org.name,
    organization: { id: org.id, name: org.name },
    organizations: [{ id: org.id, name: org.name, slug: org.slug }],
    role: "owner",
    viaToken: true,
  };
}

async function sessionIdentity(s: Session): Promise<Identity> {
  let organizations = await session.organizations();
  let active = s.session.activeOrganizationId ?? null;
  // a session starts with no active organization: act for the first one the person belongs to
  if (!active && organizations.length) {
    await session.setActive(organizations[0].id);
    active = organizations[0].id;
    organizations = await session.organizations();
  }
  const member = active ? await session.activeMember() : null;
  const org = organizations.find((o) => o.id === active) ?? null;
  return {
    id: s.user.id,
    fullName: s.user.name || s.user.email,
    email: s.user.email,
    organization: org ? { id: org.id, name: org.name } : null,
    organizations,
    role: member?.role ?? "member",
    viaToken: false,
  };
}

export function currentIdentity(): Promise<Identity> {
  if (!identity) {
    identity = (async () => {
      if (credentials.bearer()) return tokenIdentity();
      const s = await session.get();
      if (!s) throw Object.assign(new Error("Sign in first"), { status: 401 });
      return sessionIdentity(s);
    })();
    identity.catch(() => forgetIdentity());
  }
  return identity;
}

export const authProvider: AuthProvider = {
  async login(params: { email?: string; password?: string; token?: string; totp?: string; backupCode?: string }) {
    forgetIdentity();
    if (params.token !== undefined) {
      const token = params.token.trim();
      if (!token) throw new Error("Enter an access token");
      credentials.setBearer(token);
      try {
        await currentIdentity();
      } catch (err) {
        credentials.clear();
        const status = (err as { status?: number }).status;
        throw new Error(
          status === 401 ? "That access token is not valid (or has expired)" : err instanceof Error ? err.message : "Sign-in failed",
        );
      }
      return;
    }
    credentials.clear();
    // the second step of a sign-in with two-factor authentication: the code opens the session
    if (params.totp !== undefined) await session.verifyTotp(params.totp.replace(/\s+/g, ""));
    else if (params.backupCode !== undefined) await session.verifyBackupCode(params.backupCode.trim());
    else if (isTwoFactorChallenge(await session.signIn(params.email ?? "", params.password ?? "")))
      throw new AuthError("Enter the code from your authenticator app.", 401, TWO_FACTOR_REQUIRED);
    await currentIdentity();
  },
  async logout() {
    const hadToken = !!credentials.bearer();
    credentials.clear();
    forgetIdentity();
    if (!hadToken) await session.signOut().catch(() => undefined);
  },
  async checkAuth() {
    try {
      await currentIdentity();
    } catch (err) {
      // signed out (a first visit): the sign-in page says enough; `message: false` keeps react-admin quiet
      if ((err as { status?: number }).status === 401) throw { message: false, status: 401 };
      throw err;
    }
  },
  async checkError(error: { status?: number }) {
    if (error?.status === 401) {
      credentials.clear();
      forgetIdentity();
      throw new Error("Your session has ended: sign in again");
    }
  },
  async getIdentity() {
    return currentIdentity();
  },
  async getPermissions() {
    // Signed out, none (not an error: react-admin asks on every page, and an error would send the
    // pages open without a session, such as an invitation's, to the sign-in page).
    const me = await currentIdentity().catch((err: { status?: number }) => {
      if (err.status === 401) return null;
      throw err;
    });
    return me ? { role: me.role, hasOrganization: !!me.organization } : null;
  },
};
