// Signing in as a browser would, through better-auth's client with the console's plugins, against
// the test API. Each client keeps its own cookie jar and sends the Origin of its page (the API's
// own unless told otherwise). For example:
//   const ada = signedOutClient(api.url);
//   await signUpVerified(ada, { email, password, name }); // verified through Mailpit
import { randomUUID } from "node:crypto";
import { Polar } from "@polar-sh/sdk";
import { HTTPClient } from "@polar-sh/sdk/lib/http.js";
import { createAuthClient } from "better-auth/client";
import { adminClient, deviceAuthorizationClient, organizationClient, twoFactorClient, usernameClient } from "better-auth/client/plugins";
import { base32 } from "@better-auth/utils/base32";
import { createOTP } from "@better-auth/utils/otp";
import { adminAc, adminRoles, organizationAc, organizationRoles } from "../../server/auth/access.js";
import { latestMail, linkIn } from "./mailpit.js";

function makeClient(baseURL: string, fetchImpl: typeof fetch) {
  return createAuthClient({
    baseURL: `${baseURL}/api/auth`,
    fetchOptions: { customFetchImpl: fetchImpl },
    plugins: [
      organizationClient({ ac: organizationAc, roles: organizationRoles, teams: { enabled: true } }),
      adminClient({ ac: adminAc, roles: adminRoles }),
      usernameClient(),
      deviceAuthorizationClient(),
      twoFactorClient(),
    ],
  });
}

export type AuthClient = ReturnType<typeof makeClient>;

export interface Browser {
  client: AuthClient;
  /** The cookies the server set, as a Cookie header. */
  cookie(): string;
  /** Headers for a /v1 call with the session cookie, from this browser's origin. */
  headers(extra?: Record<string, string>): Record<string, string>;
  /** fetch with this browser's cookies and origin (keeps any cookies the answer sets). */
  fetch: typeof fetch;
  forget(name?: string): void;
  /** The official Polar client calling /v1 with this browser's session cookie (no token). */
  polar(): Polar;
}

/** A browser with an empty cookie jar on `origin` (default: the API's own). */
export function signedOutClient(baseURL: string, opts: { origin?: string; extraHeaders?: Record<string, string> } = {}): Browser {
  const jar = new Map<string, string>();
  const origin = opts.origin ?? new URL(baseURL).origin;
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const remember = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === "";
      if (expired) jar.delete(name);
      else jar.set(name, value);
    }
  };
  const browserFetch: typeof fetch = async (input, init) => {
    const headers = new Headers(input instanceof Request ? input.headers : undefined);
    new Headers(init?.headers).forEach((v, k) => headers.set(k, v));
    if (jar.size && !headers.get("cookie")) headers.set("cookie", cookie()); // the Polar client sends an empty one
    if (!headers.has("origin")) headers.set("origin", origin);
    for (const [k, v] of Object.entries(opts.extraHeaders ?? {})) if (!headers.has(k)) headers.set(k, v);
    const res = await fetch(input, { ...init, headers, redirect: init?.redirect ?? "manual" });
    remember(res);
    return res;
  };
  return {
    client: makeClient(baseURL, browserFetch),
    cookie,
    headers: (extra = {}) => ({ cookie: cookie(), origin, ...extra }),
    fetch: browserFetch,
    forget: (name) => (name ? jar.delete(name) : jar.clear()),
    polar: () => new Polar({ serverURL: baseURL, httpClient: new HTTPClient({ fetcher: (input, init) => browserFetch(input, init) }) }),
  };
}

export function uniqueEmail(prefix = "user"): string {
  return `${prefix}-${randomUUID().slice(0, 8)}@example.com`;
}

export const PASSWORD = "correct horse battery staple";

/** Signs up, opens the verification link from Mailpit (which signs the browser in) and returns the user. */
export async function signUpVerified(
  browser: Browser,
  user: { email: string; name: string; password?: string; username?: string },
): Promise<{ id: string; email: string }> {
  const started = new Date(Date.now() - 1000);
  const signUp = await browser.client.signUp.email({
    email: user.email,
    name: user.name,
    password: user.password ?? PASSWORD,
    ...(user.username ? { username: user.username } : {}),
  });
  if (signUp.error) throw new Error(`sign-up failed: ${JSON.stringify(signUp.error)}`);
  const mail = await latestMail(user.email, { subject: /Verify your email/, after: started });
  const verified = await browser.fetch(linkIn(mail, "/api/auth/verify-email"));
  if (verified.status >= 400) throw new Error(`verification failed: ${verified.status} ${await verified.text()}`);
  const session = await browser.client.getSession();
  if (!session.data) throw new Error("not signed in after verifying the email");
  return { id: session.data.user.id, email: session.data.user.email };
}

/** A verified user owning a new organization (created through better-auth), active in the session. */
export async function ownerWithOrganization(
  baseURL: string,
  name = "Owner",
): Promise<{ browser: Browser; userId: string; organizationId: string; slug: string }> {
  const browser = signedOutClient(baseURL);
  const { id } = await signUpVerified(browser, { email: uniqueEmail("owner"), name });
  const slug = `org-${randomUUID().slice(0, 8)}`;
  const created = await browser.client.organization.create({ name: `${name}'s company`, slug });
  if (created.error || !created.data) throw new Error(`organization/create failed: ${JSON.stringify(created.error)}`);
  const active = await browser.client.organization.setActive({ organizationId: created.data.id });
  if (active.error) throw new Error(`set-active failed: ${JSON.stringify(active.error)}`);
  return { browser, userId: id, organizationId: created.data.id, slug };
}

/** The current code of an authenticator app enrolled with this `otpauth://totp/…` URI (or its base32 secret). */
export function totpCode(uriOrSecret: string): Promise<string> {
  const encoded = uriOrSecret.startsWith("otpauth:") ? new URL(uriOrSecret).searchParams.get("secret") : uriOrSecret;
  if (!encoded) throw new Error(`no secret in ${uriOrSecret}`);
  const secret = new TextDecoder().decode(base32.decode(encoded.replace(/\s+/g, "")));
  return createOTP(secret).totp();
}
