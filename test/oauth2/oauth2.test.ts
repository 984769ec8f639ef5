// The OAuth2 / OpenID Connect provider end to end: a client registered through the API by an owner
// completes the authorization-code flow with PKCE driven by `openid-client` (discovery, code
// exchange with ID token checks, userinfo, refresh with rotation and reuse detection,
// introspection, revocation); its access token is a bearer for /v1 with exactly its granted scopes
// for the organization it was granted for; and the official Polar client's oauth2.* calls work.
import { Polar } from "@polar-sh/sdk";
import { HTTPClient } from "@polar-sh/sdk/lib/http.js";
import * as oidc from "openid-client";
import { Polar as Polar049 } from "polar-sdk-049";
import { HTTPClient as HTTPClient049 } from "polar-sdk-049/lib/http.js";
import { describe, expect, it } from "vitest";
import { type Browser, ownerWithOrganization, useTestApi } from "../harness/index.js";
import { consent as consentAt, REDIRECT, register as registerAt, type Registered } from "./flow.js";

const api = useTestApi();
const register = (owner: Browser, extra?: Record<string, unknown>) => registerAt(api.url, owner, extra);
const consent = (owner: Browser, url: URL) => consentAt(api.url, owner, url);

async function discover(client: Registered) {
  return oidc.discovery(new URL(api.url), client.client_id, client.client_secret, oidc.ClientSecretPost(client.client_secret), {
    execute: [oidc.allowInsecureRequests],
  });
}

describe("OAuth2 provider", () => {
  it("publishes discovery with Polar's endpoints and a JWKS", async () => {
    const res = await fetch(`${api.url}/.well-known/openid-configuration`);
    expect(res.status).toBe(200);
    const metadata = (await res.json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({
      issuer: api.url,
      token_endpoint: `${api.url}/v1/oauth2/token`,
      userinfo_endpoint: `${api.url}/v1/oauth2/userinfo`,
      introspection_endpoint: `${api.url}/v1/oauth2/introspect`,
      revocation_endpoint: `${api.url}/v1/oauth2/revoke`,
      registration_endpoint: `${api.url}/v1/oauth2/register`,
      code_challenge_methods_supported: ["S256"],
    });
    expect(metadata.scopes_supported).toContain("products:read");
    const jwks = (await (await fetch(String(metadata.jwks_uri))).json()) as { keys: unknown[] };
    expect(jwks.keys.length).toBeGreaterThan(0);
    expect((await fetch(`${api.url}/.well-known/oauth-authorization-server`)).status).toBe(200);
  });

  it("runs the authorization-code flow with PKCE through openid-client, for the owner's organization", async () => {
    const owner = await ownerWithOrganization(api.url);
    const registered = await register(owner.browser);
    expect(registered.client_id).toMatch(/^polar_ci_/);
    expect(registered.client_secret).toMatch(/^polar_cs_/);
    const config = await discover(registered);

    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: "openid profile email offline_access products:read",
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      nonce,
    });
    const callback = await consent(owner.browser, url);
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
    });
    expect(tokens.access_token).toMatch(/^polar_at_/);
    expect(tokens.refresh_token).toMatch(/^polar_rt_/);
    expect(tokens.claims()?.sub).toBe(owner.userId);

    // The access token is a bearer for /v1: the owner's organization, exactly its granted scopes.
    const polar = new Polar({ accessToken: tokens.access_token, serverURL: api.url });
    expect((await polar.products.list({})).result.items).toEqual([]);
    const write = await fetch(`${api.url}/v1/products/`, {
      method: "POST",
      headers: { authorization: `Bearer ${tokens.access_token}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "No", prices: [{ amount_type: "free" }] }),
    });
    expect(write.status).toBe(403);

    // userinfo (the token acts for the organization: Polar's organization subject).
    const info = await oidc.fetchUserInfo(config, tokens.access_token, oidc.skipSubjectCheck);
    expect(info.sub).toBe(owner.organizationId);

    // Introspection: Polar's sub_type and token_type.
    const introspected = await oidc.tokenIntrospection(config, tokens.access_token);
    expect(introspected).toMatchObject({
      active: true,
      client_id: registered.client_id,
      sub_type: "organization",
      sub: owner.organizationId,
      organizations: [owner.organizationId],
      token_type: "access_token",
    });
    const introspectedRefresh = await oidc.tokenIntrospection(config, tokens.refresh_token!);
    expect(introspectedRefresh).toMatchObject({
      active: true,
      sub_type: "organization",
      sub: owner.organizationId,
      token_type: "refresh_token",
    });

    // Refresh rotates the refresh token; the old one, used again, ends the family.
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect((await polar.products.list({})).result.items).toEqual([]);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });
    await expect(oidc.refreshTokenGrant(config, refreshed.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });

    // Revocation: the token stops working on /v1 at once.
    const another = await consent(
      owner.browser,
      oidc.buildAuthorizationUrl(config, {
        redirect_uri: REDIRECT,
        scope: "openid products:read",
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: "S256",
        state,
      }),
    );
    const fresh = await oidc.authorizationCodeGrant(config, another, { pkceCodeVerifier: verifier, expectedState: state });
    const bearer = { authorization: `Bearer ${fresh.access_token}` };
    expect((await fetch(`${api.url}/v1/products/`, { headers: bearer })).status).toBe(200);
    await oidc.tokenRevocation(config, fresh.access_token);
    expect((await fetch(`${api.url}/v1/products/`, { headers: bearer })).status).toBe(401);
    expect((await oidc.tokenIntrospection(config, fresh.access_token)).active).toBe(false);
  });

  it("registers 0.49.0's client with its default scopes; wallets:read lists wallets, and grants nothing else", async () => {
    const owner = await ownerWithOrganization(api.url);
    const polar049 = new Polar049({
      serverURL: api.url,
      httpClient: new HTTPClient049({ fetcher: (input, init) => owner.browser.fetch(input, init) }),
    });
    // No scope given: the client sends its own default list, which names user:write, wallets:* and member_sessions:write.
    // The client types this answer `any`.
    const created: Registered & { scope: string } = await polar049.oauth2.clients.create({
      clientName: "Default scopes",
      redirectUris: [REDIRECT],
      tokenEndpointAuthMethod: "client_secret_post",
    });
    const granted = created.scope.split(" ");
    expect(granted).toEqual(
      expect.arrayContaining(["user:write", "wallets:read", "wallets:write", "member_sessions:write", "products:read"]),
    );

    const config = await discover(created);
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const callback = await consent(
      owner.browser,
      oidc.buildAuthorizationUrl(config, {
        redirect_uri: REDIRECT,
        scope: "openid wallets:read member_sessions:write",
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: "S256",
        state,
      }),
    );
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
    const bearer = { authorization: `Bearer ${tokens.access_token}` };
    const wallets = await fetch(`${api.url}/v1/wallets/`, { headers: bearer });
    expect(wallets.status).toBe(200);
    expect(((await wallets.json()) as { items: unknown[] }).items).toEqual([]);
    expect((await fetch(`${api.url}/v1/customers/`, { headers: bearer })).status).toBe(403);
    const credit = await fetch(`${api.url}/v1/wallets/credit`, {
      method: "POST",
      headers: Object.assign({ "content-type": "application/json" }, bearer),
      body: JSON.stringify({ customer_id: crypto.randomUUID(), amount: 100, currency: "usd" }),
    });
    expect(credit.status).toBe(403);
  });

  it("answers the official client's oauth2 calls", async () => {
    const owner = await ownerWithOrganization(api.url);
    const registered = await register(owner.browser);
    // authorize: what the request asks of the signed-in user (the client sends the request's query).
    const withQuery = new Polar({
      serverURL: api.url,
      httpClient: new HTTPClient({
        fetcher: (input, init) => {
          const request = input instanceof Request ? input : new Request(input, init);
          const url = new URL(request.url);
          url.search = new URLSearchParams({
            client_id: registered.client_id,
            scope: "openid email products:read",
            redirect_uri: REDIRECT,
          }).toString();
          return owner.browser.fetch(new Request(url, request));
        },
      }),
    });
    const described = await withQuery.oauth2.authorize();
    expect(described).toMatchObject({
      subType: "organization",
      scopes: ["openid", "email", "products:read"],
      client: { clientId: registered.client_id, clientName: "Acme integration" },
    });
    expect(described.subType === "organization" && described.organizations.map((o) => o.id)).toEqual([owner.organizationId]);
    expect(described.subType === "organization" && described.sub?.id).toBe(owner.organizationId);
    // The 0.x clients' scopes that grant nothing are not shown; each organization comes with its name (1.x reads both).
    const query = new URLSearchParams({
      client_id: registered.client_id,
      scope: "openid web:read issues:read external_organizations:read products:read",
      redirect_uri: REDIRECT,
    });
    const raw = (await (await owner.browser.fetch(new Request(`${api.url}/v1/oauth2/authorize?${query}`))).json()) as {
      scopes: string[];
      organizations: { name: string }[];
    };
    expect(raw.scopes).toEqual(["openid", "products:read"]);
    expect(raw.organizations.map((o) => typeof o.name === "string" && o.name.length > 0)).toEqual([true]);
    // A consent for the user alone lists their organizations too.
    const userQuery = new URLSearchParams({ client_id: registered.client_id, scope: "openid email", redirect_uri: REDIRECT });
    const forUser = (await (await owner.browser.fetch(new Request(`${api.url}/v1/oauth2/authorize?${userQuery}`))).json()) as {
      sub_type: string;
      organizations: { id: string }[];
    };
    expect(forUser.sub_type).toBe("user");
    expect(forUser.organizations.map((o) => o.id)).toEqual([owner.organizationId]);

    // token (authorization code, a confidential client without PKCE, as the client sends it), introspect, userinfo, revoke.
    const url = new URL(`${api.url}/api/auth/oauth2/authorize`);
    // offline_access for the refresh token Polar's client expects (with a nonce, as there is no PKCE).
    url.search = new URLSearchParams({
      response_type: "code",
      client_id: registered.client_id,
      redirect_uri: REDIRECT,
      scope: "openid profile email offline_access",
      state: "s",
      nonce: "n-1",
    }).toString();
    const code = (await consent(owner.browser, url)).searchParams.get("code")!;
    const polar = new Polar({ serverURL: api.url });
    const tokens = await polar.oauth2.token({
      grantType: "authorization_code",
      clientId: registered.client_id,
      clientSecret: registered.client_secret,
      code,
      redirectUri: REDIRECT,
    });
    expect(tokens).toMatchObject({ tokenType: "Bearer", refreshToken: expect.stringMatching(/^polar_rt_/) });
    expect(tokens.idToken).toBeTruthy();
    // A wrong secret: RFC 6749's invalid_client (401, or 400 with the credentials in the body).
    const bad = await fetch(`${api.url}/v1/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "refresh_token",
        client_id: registered.client_id,
        client_secret: "polar_cs_wrong",
        refresh_token: tokens.refreshToken!,
      }),
    });
    expect([400, 401]).toContain(bad.status);
    expect(await bad.json()).toMatchObject({ error: "invalid_client" });
    const refreshed = await polar.oauth2.token({
      grantType: "refresh_token",
      clientId: registered.client_id,
      clientSecret: registered.client_secret,
      refreshToken: tokens.refreshToken!,
    });
    expect(refreshed.accessToken).not.toBe(tokens.accessToken);
    const introspected = await polar.oauth2.introspect({
      token: refreshed.accessToken,
      clientId: registered.client_id,
      clientSecret: registered.client_secret,
    });
    expect(introspected).toMatchObject({ active: true, subType: "user", sub: owner.userId, tokenType: "access_token" });
    // 0.49.0 reads what the token is restricted to: a user's token, to no organization in particular.
    const introspected049 = await new Polar049({ serverURL: api.url }).oauth2.introspect({
      token: refreshed.accessToken,
      clientId: registered.client_id,
      clientSecret: registered.client_secret,
    });
    expect(introspected049).toMatchObject({ active: true, subType: "user", sub: owner.userId, organizations: [] });
    const me = await new Polar({ serverURL: api.url, accessToken: refreshed.accessToken }).oauth2.userinfo();
    expect(me).toMatchObject({ sub: owner.userId, email: expect.stringContaining("@example.com") });
    await polar.oauth2.revoke({ token: refreshed.accessToken, clientId: registered.client_id, clientSecret: registered.client_secret });
    expect(
      await polar.oauth2
        .introspect({ token: refreshed.accessToken, clientId: registered.client_id, clientSecret: registered.client_secret })
        .catch((e: Error) => e),
    ).toBeInstanceOf(Error);
  });

  it("lets owners manage their organization's clients, not members of other organizations", async () => {
    const owner = await ownerWithOrganization(api.url);
    const registered = await register(owner.browser);
    const read = await owner.browser.fetch(`${api.url}/v1/oauth2/register/${registered.client_id}`);
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ client_id: registered.client_id, client_name: "Acme integration" });
    const renamed = await owner.browser.fetch(`${api.url}/v1/oauth2/register/${registered.client_id}`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: "Acme, renamed", redirect_uris: [REDIRECT] }),
    });
    expect(renamed.status).toBe(200);
    expect(((await renamed.json()) as { client_name: string }).client_name).toBe("Acme, renamed");

    const stranger = await ownerWithOrganization(api.url, "Stranger");
    expect((await stranger.browser.fetch(`${api.url}/v1/oauth2/register/${registered.client_id}`)).status).toBeGreaterThanOrEqual(400);
    const unauthenticated = await fetch(`${api.url}/v1/oauth2/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: [REDIRECT] }),
    });
    expect(unauthenticated.status).toBe(401);
    expect((await owner.browser.fetch(`${api.url}/v1/oauth2/register/${registered.client_id}`, { method: "DELETE" })).status).toBe(204);
    expect((await owner.browser.fetch(`${api.url}/v1/oauth2/register/${registered.client_id}`)).status).toBeGreaterThanOrEqual(400);
  });
});
