// The OAuth2 suites' steps: registering a client as a signed-in owner, and the user's browser
// through the provider's authorize endpoint and the consent screen back to the client's callback.
import { get as httpGet } from "node:http";
import { expect } from "vitest";
import type { Browser } from "../harness/index.js";

export const REDIRECT = "https://acme.example/callback";

export interface Registered {
  client_id: string;
  client_secret: string;
}

/** POST /v1/oauth2/register as `owner`: the raw answer. */
export function registerRequest(baseUrl: string, owner: Browser, metadata: Record<string, unknown>): Promise<Response> {
  return owner.fetch(`${baseUrl}/v1/oauth2/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(metadata),
  });
}

/** A client registered by `owner` (a confidential one posting its secret unless `extra` says otherwise). */
export async function register(baseUrl: string, owner: Browser, extra: Record<string, unknown> = {}): Promise<Registered> {
  const res = await registerRequest(baseUrl, owner, {
    client_name: "Acme integration",
    client_uri: "https://acme.example",
    redirect_uris: [REDIRECT],
    token_endpoint_auth_method: "client_secret_post",
    grant_types: ["authorization_code", "refresh_token"],
    ...extra,
  });
  const body = (await res.json()) as Registered & { error?: string };
  expect(res.status, JSON.stringify(body)).toBe(201);
  return body;
}

/** The user's browser through the provider's authorize endpoint and the consent screen: the callback URL with the code. */
export async function consent(baseUrl: string, owner: Browser, authorizationUrl: URL): Promise<URL> {
  // As a browser navigates to it (Node's fetch says `sec-fetch-mode: cors`, which better-auth
  // answers with JSON instead of the redirect).
  const first = await navigate(authorizationUrl, owner.cookie());
  expect(first.status).toBe(302);
  const consentPage = new URL(first.location!);
  // Consent already given for these scopes: straight back to the client.
  if (consentPage.href.startsWith(authorizationUrl.searchParams.get("redirect_uri") ?? REDIRECT)) return consentPage;
  expect(consentPage.pathname).toBe("/dashboard/oauth/consent");
  const accepted = await owner.fetch(`${baseUrl}/api/auth/oauth2/consent`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ accept: true, oauth_query: consentPage.search.slice(1) }),
  });
  const body = (await accepted.json()) as { redirect_uri?: string; url?: string };
  expect(accepted.status, JSON.stringify(body)).toBe(200);
  return new URL(body.redirect_uri ?? body.url!);
}

/** A top-level browser navigation (no redirect followed): its status and Location. */
export function navigate(url: URL, cookie: string): Promise<{ status: number; location?: string }> {
  return new Promise((resolve, reject) => {
    const req = httpGet(
      url,
      { headers: { cookie, accept: "text/html", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" } },
      (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, location: res.headers.location });
      },
    );
    req.on("error", reject);
  });
}
