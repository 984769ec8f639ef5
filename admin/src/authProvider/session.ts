// better-auth's session calls at /api/auth, as the console makes them: same origin, the session
// cookie sent by the browser. Errors carry better-auth's own message ("Invalid email or password",
// "Email not verified"…) and the HTTP status.
export interface SessionUser {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
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
  signIn: (email: string, password: string) => authCall<unknown>("sign-in/email", { email, password, rememberMe: true }),
  signUp: (name: string, email: string, password: string) =>
    authCall<unknown>("sign-up/email", { name, email, password, callbackURL: consoleUrl("/") }),
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
};
