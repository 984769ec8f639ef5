// better-auth's session calls at /api/auth, as the console makes them: same origin, the session
// cookie sent by the browser. Errors carry better-auth's own message ("Invalid email or password",
// "Email not verified"…) and the HTTP status.
export interface SessionUser {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
  image?: string | null;
  twoFactorEnabled?: boolean | null;
}
export interface Session {
  session: { id: string; activeOrganizationId?: string | null; expiresAt: string };
  user: SessionUser;
}
export interface AuthOrganization {
  id: string;
  name: string;
  slug: string;
}
export interface Member {
  id: string;
  role: string;
  userId: string;
  organizationId: string;
  user: { id: string; name: string; email: string };
}
export interface Invitation {
  id: string;
  email: string;
  role: string;
  status: "pending" | "accepted" | "rejected" | "canceled";
  expiresAt: string;
}
export interface FullOrganization extends AuthOrganization {
  members: Member[];
  invitations: Invitation[];
}

/** One of the person's sessions (list-sessions); `token` is what revoke-session takes. */
export interface DeviceSession {
  id: string;
  token: string;
  createdAt: string;
  updatedAt: string;
  expiresAt: string;
  ipAddress?: string | null;
  userAgent?: string | null;
}
/** What sign-in answers when the account has two-factor authentication on: no session yet. */
export interface TwoFactorChallenge {
  twoFactorRedirect: true;
  twoFactorMethods: string[];
}
export interface TotpEnrolment {
  totpURI: string;
  backupCodes: string[];
}
/** What an invitation's link shows before signing in (server/auth/invitation-preview.ts). */
export interface InvitationPreview {
  email: string;
  status: "pending" | "accepted" | "rejected" | "canceled" | "expired";
  expiresAt: string;
  organizationName: string;
  organizationLogo: string | null;
  hasAccount: boolean;
}

export class AuthError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
  ) {
    super(message);
  }
}

export async function authCall<T>(path: string, body?: unknown, query?: Record<string, string>): Promise<T> {
  const url = `/api/auth/${path}${query ? `?${new URLSearchParams(query)}` : ""}`;
  const res = await fetch(url, {
    method: body === undefined ? "GET" : "POST",
    credentials: "same-origin",
    headers: body === undefined ? undefined : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const data: unknown = text ? JSON.parse(text) : null;
  if (!res.ok) {
    const b = (data ?? {}) as { message?: string; code?: string };
    throw new AuthError(b.message ?? `HTTP ${res.status}`, res.status, b.code);
  }
  return data as T;
}

/** The console's own URL for a path ("/reset-password" → https://host/dashboard/reset-password). */
export const consoleUrl = (path: string) => `${window.location.origin}/dashboard${path}`;

export const session = {
  get: () => authCall<Session | null>("get-session"),
  fresh: () => authCall<Session | null>("get-session", undefined, { disableCookieCache: "true" }),
  signIn: (email: string, password: string) =>
    authCall<TwoFactorChallenge | { user: SessionUser }>("sign-in/email", { email, password, rememberMe: true }),
  signUp: (name: string, email: string, password: string, landing = "/") =>
    authCall<unknown>("sign-up/email", { name, email, password, callbackURL: consoleUrl(landing) }),
  signOut: () => authCall<unknown>("sign-out", {}),
  sendVerification: (email: string) => authCall<unknown>("send-verification-email", { email, callbackURL: consoleUrl("/") }),
  requestReset: (email: string) => authCall<unknown>("request-password-reset", { email, redirectTo: consoleUrl("/reset-password") }),
  resetPassword: (token: string, newPassword: string) => authCall<unknown>("reset-password", { token, newPassword }),
  organizations: () => authCall<AuthOrganization[]>("organization/list"),
  setActive: (organizationId: string) => authCall<unknown>("organization/set-active", { organizationId }),
  activeMember: () => authCall<Member | null>("organization/get-active-member"),
  fullOrganization: () => authCall<FullOrganization | null>("organization/get-full-organization"),
  invite: (email: string, role: string) => authCall<Invitation>("organization/invite-member", { email, role }),
  cancelInvitation: (invitationId: string) => authCall<unknown>("organization/cancel-invitation", { invitationId }),
  acceptInvitation: (invitationId: string) => authCall<unknown>("organization/accept-invitation", { invitationId }),
  removeMember: (memberIdOrEmail: string) => authCall<unknown>("organization/remove-member", { memberIdOrEmail }),
  updateRole: (memberId: string, role: string) => authCall<unknown>("organization/update-member-role", { memberId, role }),
  previewInvitation: (id: string) => authCall<InvitationPreview>("invitation/preview", undefined, { id }),
  // the person's own account
  updateProfile: (values: { name: string; image: string | null }) => authCall<unknown>("update-user", values),
  changeEmail: (newEmail: string) => authCall<unknown>("change-email", { newEmail, callbackURL: consoleUrl("/account") }),
  changePassword: (currentPassword: string, newPassword: string) =>
    authCall<unknown>("change-password", { currentPassword, newPassword, revokeOtherSessions: true }),
  listSessions: () => authCall<DeviceSession[]>("list-sessions"),
  revokeSession: (token: string) => authCall<unknown>("revoke-session", { token }),
  revokeOtherSessions: () => authCall<unknown>("revoke-other-sessions", {}),
  // two-factor authentication (better-auth's twoFactor plugin)
  enableTwoFactor: (password: string) => authCall<TotpEnrolment>("two-factor/enable", { password }),
  disableTwoFactor: (password: string) => authCall<unknown>("two-factor/disable", { password }),
  newBackupCodes: (password: string) => authCall<{ backupCodes: string[] }>("two-factor/generate-backup-codes", { password }),
  verifyTotp: (code: string) => authCall<unknown>("two-factor/verify-totp", { code }),
  verifyBackupCode: (code: string) => authCall<unknown>("two-factor/verify-backup-code", { code }),
};

export const isTwoFactorChallenge = (answer: unknown): answer is TwoFactorChallenge =>
  typeof answer === "object" && answer !== null && "twoFactorRedirect" in answer;
