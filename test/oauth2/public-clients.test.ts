// OAuth2 public clients (token_endpoint_auth_method "none"): the code flow with PKCE S256 and no
// secret, refused without the right code_verifier; confidential clients still authenticate (in the
// form or with Basic); loopback http redirect URIs (any port, RFC 8252 §7.3) for development; and
// every error of the OAuth2 endpoints in RFC 6749's shape, with its status and challenge.
import * as oidc from "openid-client";
import { describe, expect, it } from "vitest";
import { type Browser, ownerWithOrganization, useTestApi } from "../harness/index.js";
import { consent, navigate, REDIRECT, register, registerRequest, type Registered } from "./flow.js";

const api = useTestApi();
const FORM = { "content-type": "application/x-www-form-urlencoded" };
const LOOPBACK = "http://127.0.0.1/callback";

function publicClient(owner: Browser, extra: Record<string, unknown> = {}): Promise<Registered> {
  return register(api.url, owner, { client_name: "Acme CLI", token_endpoint_auth_method: "none", ...extra });
}

/** The authorization URL of a code request with PKCE S256 (unless `challenge` is false). */
async function authorizationUrl(clientId: string, verifier: string, opts: { redirect?: string; challenge?: boolean } = {}): Promise<URL> {
  const url = new URL(`${api.url}/api/auth/oauth2/authorize`);
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: opts.redirect ?? REDIRECT,
    scope: "openid offline_access products:read",
    state: "st",
    ...(opts.challenge === false ? {} : { code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256" }),
  }).toString();
  return url;
}

/** A fresh authorization code for the client, bound to `verifier`'s challenge. */
async function codeFor(owner: Browser, clientId: string, verifier: string, redirect = REDIRECT): Promise<string> {
  const callback = await consent(api.url, owner, await authorizationUrl(clientId, verifier, { redirect }));
  const code = callback.searchParams.get("code");
  expect(code, callback.href).toBeTruthy();
  return code!;
}

function token(form: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${api.url}/v1/oauth2/token`, { method: "POST", headers: { ...FORM, ...headers }, body: new URLSearchParams(form) });
}

const basic = (id: string, secret: string) => ({ authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}` });

/** An answer in RFC 6749 section 5.2's shape: exactly `error` and `error_description`; a 401 names its challenge. */
async function expectOAuth2Error(res: Response, status: number, error: string, challenge?: RegExp): Promise<void> {
  const body = (await res.json()) as Record<string, unknown>;
  expect({ status: res.status, body }).toEqual({ status, body: { error, error_description: expect.any(String) } });
  if (status === 401) expect(res.headers.get("www-authenticate")).toMatch(challenge ?? /^(Basic|Bearer)\b/);
}

describe("OAuth2 public clients", () => {
  it("advertises public clients and S256 in discovery", async () => {
    for (const path of ["/.well-known/openid-configuration", "/.well-known/oauth-authorization-server"]) {
      const metadata = (await (await fetch(`${api.url}${path}`)).json()) as Record<string, string[]>;
      expect(metadata.token_endpoint_auth_methods_supported).toEqual(
        expect.arrayContaining(["none", "client_secret_post", "client_secret_basic"]),
      );
      expect(metadata.code_challenge_methods_supported).toEqual(["S256"]);
      // Revocation and introspection authenticate the client: no public clients there.
      expect(metadata.revocation_endpoint_auth_methods_supported).not.toContain("none");
    }
  });

  it("completes authorize → code → token with PKCE and no secret, and refreshes without one", async () => {
    const owner = await ownerWithOrganization(api.url);
    const registered = await publicClient(owner.browser);
    expect(registered.client_secret).toBeUndefined();
    const config = await oidc.discovery(new URL(api.url), registered.client_id, undefined, oidc.None(), {
      execute: [oidc.allowInsecureRequests],
    });
    const verifier = oidc.randomPKCECodeVerifier();
    const callback = await consent(api.url, owner.browser, await authorizationUrl(registered.client_id, verifier));
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: "st" });
    expect(tokens.access_token).toMatch(/^polar_at_/);
    expect((await api.client(tokens.access_token).products.list({})).result.items).toEqual([]);
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect((await api.client(refreshed.access_token).products.list({})).result.items).toEqual([]);
  });

  it("refuses a public client's code without a code_verifier, with a wrong one, or with a secret", async () => {
    const owner = await ownerWithOrganization(api.url);
    const { client_id } = await publicClient(owner.browser);
    const verifier = oidc.randomPKCECodeVerifier();
    // No challenge at all: the provider sends the browser back with invalid_request.
    const unchallenged = await navigate(await authorizationUrl(client_id, verifier, { challenge: false }), owner.browser.cookie());
    expect(new URL(unchallenged.location!).searchParams.get("error")).toBe("invalid_request");

    const exchange = { grant_type: "authorization_code", client_id, redirect_uri: REDIRECT };
    const code = await codeFor(owner.browser, client_id, verifier);
    await expectOAuth2Error(await token({ ...exchange, code }), 400, "invalid_request");
    await expectOAuth2Error(await token({ ...exchange, code, code_verifier: oidc.randomPKCECodeVerifier() }), 400, "invalid_grant");
    const another = await codeFor(owner.browser, client_id, verifier);
    await expectOAuth2Error(
      await token({ ...exchange, code: another, code_verifier: verifier, client_secret: "polar_cs_guess" }),
      401,
      "invalid_client",
    );
  });

  it("still asks a confidential client for its secret, in the form or with Basic", async () => {
    const owner = await ownerWithOrganization(api.url);
    const registered = await register(api.url, owner.browser);
    const verifier = oidc.randomPKCECodeVerifier();
    const exchange = { grant_type: "authorization_code", client_id: registered.client_id, redirect_uri: REDIRECT, code_verifier: verifier };
    // PKCE alone does not authenticate a confidential client.
    await expectOAuth2Error(
      await token({ ...exchange, code: await codeFor(owner.browser, registered.client_id, verifier) }),
      401,
      "invalid_client",
      /^Basic\b/,
    );

    // client_secret_basic, as discovery names it: the credentials in the Authorization header alone.
    const basicClient = await register(api.url, owner.browser, { token_endpoint_auth_method: "client_secret_basic" });
    const code = await codeFor(owner.browser, basicClient.client_id, verifier);
    const form = { grant_type: "authorization_code", redirect_uri: REDIRECT, code_verifier: verifier, code };
    await expectOAuth2Error(await token(form, basic(basicClient.client_id, "polar_cs_wrong")), 401, "invalid_client", /^Basic\b/);
    const config = await oidc.discovery(
      new URL(api.url),
      basicClient.client_id,
      undefined,
      oidc.ClientSecretBasic(basicClient.client_secret),
      {
        execute: [oidc.allowInsecureRequests],
      },
    );
    const callback = await consent(api.url, owner.browser, await authorizationUrl(basicClient.client_id, verifier));
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: "st" });
    expect(tokens.access_token).toMatch(/^polar_at_/);
    expect(await oidc.tokenIntrospection(config, tokens.access_token)).toMatchObject({ active: true, client_id: basicClient.client_id });
    await oidc.tokenRevocation(config, tokens.access_token);
    expect((await oidc.tokenIntrospection(config, tokens.access_token)).active).toBe(false);
  });

  it("registers loopback http redirect URIs on any port and still refuses other http URIs", async () => {
    const owner = await ownerWithOrganization(api.url);
    for (const uri of ["http://localhost/callback", "http://localhost:3000/callback", "http://[::1]:8080/callback"]) {
      expect(
        (await registerRequest(api.url, owner.browser, { redirect_uris: [uri], token_endpoint_auth_method: "none" })).status,
        uri,
      ).toBe(201);
    }
    for (const uri of [
      "http://acme.example/callback",
      "http://localhost.acme.example/callback",
      "http://10.0.0.1/callback",
      "http://127.0.0.1.nip.io/callback",
    ]) {
      await expectOAuth2Error(
        await registerRequest(api.url, owner.browser, { redirect_uris: [uri], token_endpoint_auth_method: "none" }),
        400,
        "invalid_redirect_uri",
      );
    }
    const registered = await publicClient(owner.browser, { redirect_uris: [LOOPBACK] });

    // The consent screen's description and the flow itself, on a port chosen at authorization time.
    const onPort = "http://127.0.0.1:54321/callback";
    const described = await owner.browser.fetch(
      `${api.url}/v1/oauth2/authorize?${new URLSearchParams({ client_id: registered.client_id, redirect_uri: onPort, scope: "openid" })}`,
    );
    expect(described.status, await described.clone().text()).toBe(200);
    const verifier = oidc.randomPKCECodeVerifier();
    const callback = await consent(api.url, owner.browser, await authorizationUrl(registered.client_id, verifier, { redirect: onPort }));
    expect(callback.origin).toBe("http://127.0.0.1:54321");
    const config = await oidc.discovery(new URL(api.url), registered.client_id, undefined, oidc.None(), {
      execute: [oidc.allowInsecureRequests],
    });
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: "st" });
    expect(tokens.access_token).toMatch(/^polar_at_/);

    // A confidential client's metadata may change to a loopback URI too.
    const confidential = await register(api.url, owner.browser);
    const changed = await owner.browser.fetch(`${api.url}/v1/oauth2/register/${confidential.client_id}`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: [REDIRECT, "http://localhost:8080/callback"] }),
    });
    expect(changed.status, await changed.clone().text()).toBe(200);
  });

  it("answers every OAuth2 error as RFC 6749 has it", async () => {
    const owner = await ownerWithOrganization(api.url);
    const confidential = await register(api.url, owner.browser);
    const credentials = { client_id: confidential.client_id, client_secret: confidential.client_secret };
    const post = (path: string, form: Record<string, string>) =>
      fetch(`${api.url}/v1/oauth2/${path}`, { method: "POST", headers: FORM, body: new URLSearchParams(form) });

    // Token.
    await expectOAuth2Error(await token({ ...credentials }), 400, "invalid_request");
    await expectOAuth2Error(await token({ ...credentials, grant_type: "password" }), 400, "unsupported_grant_type");
    await expectOAuth2Error(
      await token({ ...credentials, grant_type: "authorization_code", code: "nope", redirect_uri: REDIRECT }),
      400,
      "invalid_grant",
    );
    // Revocation and introspection.
    await expectOAuth2Error(await post("revoke", { ...credentials }), 400, "invalid_request");
    await expectOAuth2Error(
      await post("revoke", { token: "polar_at_x", client_id: confidential.client_id, client_secret: "polar_cs_wrong" }),
      401,
      "invalid_client",
    );
    await expectOAuth2Error(await post("introspect", { token: "polar_at_x", client_id: confidential.client_id }), 401, "invalid_client");
    await expectOAuth2Error(
      await post("introspect", { token: "polar_at_x", client_id: "polar_ci_nobody", client_secret: "polar_cs_x" }),
      401,
      "invalid_client",
    );

    // Registration and its management.
    const unauthenticated = await fetch(`${api.url}/v1/oauth2/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: [REDIRECT] }),
    });
    await expectOAuth2Error(unauthenticated, 401, "invalid_token", /^Bearer\b/);
    await expectOAuth2Error(await fetch(`${api.url}/v1/oauth2/register/${confidential.client_id}`), 401, "invalid_token", /^Bearer\b/);
    const stranger = await ownerWithOrganization(api.url, "Stranger");
    await expectOAuth2Error(await stranger.browser.fetch(`${api.url}/v1/oauth2/register/${confidential.client_id}`), 401, "invalid_token");
    await expectOAuth2Error(
      await stranger.browser.fetch(`${api.url}/v1/oauth2/register/${confidential.client_id}`, { method: "DELETE" }),
      401,
      "invalid_token",
    );
    await expectOAuth2Error(await owner.browser.fetch(`${api.url}/v1/oauth2/register/polar_ci_nobody`), 401, "invalid_token");
    const notJson = await owner.browser.fetch(`${api.url}/v1/oauth2/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{nope",
    });
    await expectOAuth2Error(notJson, 400, "invalid_client_metadata");
    await expectOAuth2Error(
      await registerRequest(api.url, owner.browser, { redirect_uris: [REDIRECT], token_endpoint_auth_method: "tls_client_auth" }),
      400,
      "invalid_client_metadata",
    );
    const badUpdate = await owner.browser.fetch(`${api.url}/v1/oauth2/register/${confidential.client_id}`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: ["http://acme.example/callback"] }),
    });
    await expectOAuth2Error(badUpdate, 400, "invalid_client_metadata");

    // The consent screen's description of a request.
    const describe = (browser: Browser | null, query: Record<string, string>) =>
      (browser?.fetch ?? fetch)(`${api.url}/v1/oauth2/authorize?${new URLSearchParams(query)}`);
    await expectOAuth2Error(await describe(owner.browser, {}), 400, "invalid_request");
    await expectOAuth2Error(await describe(owner.browser, { client_id: "polar_ci_nobody" }), 400, "invalid_client");
    await expectOAuth2Error(
      await describe(owner.browser, { client_id: confidential.client_id, redirect_uri: "https://elsewhere.example/cb" }),
      400,
      "invalid_request",
    );
    await expectOAuth2Error(
      await describe(owner.browser, { client_id: confidential.client_id, scope: "openid organization_access_tokens:write" }),
      400,
      "invalid_scope",
    );
    await expectOAuth2Error(
      await describe(owner.browser, { client_id: confidential.client_id, sub_type: "robot" }),
      400,
      "invalid_request",
    );
    await expectOAuth2Error(await describe(null, { client_id: confidential.client_id }), 401, "login_required", /^Bearer\b/);
  });
});
