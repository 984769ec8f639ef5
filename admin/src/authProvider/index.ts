// Who is signed in to the console. Until the API's session sign-in (better-auth at /api/auth) is
// there, the console signs in with an organization access token (`make run` prints one; `make
// token` makes another): the token is checked against the API and kept for this tab. A 401 from
// any call signs out and shows the sign-in page; a 403 stays a notification.
import type { AuthProvider } from "react-admin";
import { credentials } from "./credentials";
import { call } from "../dataProvider/request";
import type { Organization } from "../api";

let organization: Organization | null = null;

async function currentOrganization(): Promise<Organization> {
  if (organization) return organization;
  const page = await call<{ items: Organization[] }>("GET", "/v1/organizations/", { query: { limit: 1 } });
  const org = page.items[0];
  if (!org) throw new Error("This token reaches no organization");
  organization = org;
  return org;
}

export function forgetOrganization(): void {
  organization = null;
}

export const authProvider: AuthProvider = {
  async login(params: { token?: string }) {
    const token = params.token?.trim();
    if (!token) throw new Error("Enter an access token");
    credentials.setBearer(token);
    forgetOrganization();
    try {
      await currentOrganization();
    } catch (err) {
      credentials.clear();
      const status = (err as { status?: number }).status;
      throw new Error(status === 401 ? "That access token is not valid (or has expired)" : err instanceof Error ? err.message : "Sign-in failed");
    }
  },
  async logout() {
    credentials.clear();
    forgetOrganization();
  },
  async checkAuth() {
    if (!credentials.bearer()) throw new Error("Sign in first");
  },
  async checkError(error: { status?: number }) {
    if (error?.status === 401) {
      credentials.clear();
      forgetOrganization();
      throw new Error("Your session has ended: sign in again");
    }
  },
  async getIdentity() {
    const org = await currentOrganization();
    return { id: org.id, fullName: org.name, organization: org };
  },
  async getPermissions() {
    // an organization token acts for the organization with every scope it was given
    return { role: "owner" };
  },
};
