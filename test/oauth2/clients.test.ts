// OAuth2 client registration under Polar's paths through 0.49.0's oauth2.clients: a signed-in
// owner creates, reads, updates and deletes a client (served by the contract's pipeline over the
// OAuth provider's storage); a stranger, a missing client and bad metadata are refused. The list
// (GET /v1/oauth2/, Polar's dashboard call) holds the organization's clients only.
import { describe, expect, it } from "vitest";
import { Polar as Polar049 } from "polar-sdk-049";
import { HTTPClient } from "polar-sdk-049/lib/http.js";
import { SDKError } from "polar-sdk-049/models/errors/sdkerror.js";
import { OAUTH_SCOPES } from "../../server/auth/oauth.js";
import { ownerWithOrganization, rejects, useTestApi, type Browser } from "../harness/index.js";
import { REDIRECT } from "./flow.js";

const api = useTestApi();

/** 0.49.0's client calling as the browser's signed-in user (its session cookie). */
function sdkAs(browser: Browser): Polar049 {
  return new Polar049({ serverURL: api.url, httpClient: new HTTPClient({ fetcher: (input, init) => browser.fetch(input, init) }) });
}

describe("oauth2 clients", () => {
  it("creates, reads, updates and deletes a client through 0.49.0", async () => {
    const owner = await ownerWithOrganization(api.url);
    const polar = sdkAs(owner.browser);
    const created = (await polar.oauth2.clients.create({
      clientName: "Acme integration",
      redirectUris: [REDIRECT],
      clientUri: "https://acme.example",
      scope: "openid profile email",
    })) as { client_id: string; client_secret: string; client_name: string; redirect_uris: string[] };
    expect(created).toMatchObject({ client_name: "Acme integration", redirect_uris: [REDIRECT] });
    expect(created.client_id).toMatch(/^polar_ci_/);
    expect(typeof created.client_secret).toBe("string");

    expect(await polar.oauth2.clients.get({ clientId: created.client_id })).toMatchObject({
      client_id: created.client_id,
      client_name: "Acme integration",
    });
    const updated = await polar.oauth2.clients.update({
      clientId: created.client_id,
      oAuth2ClientConfigurationUpdate: {
        clientId: created.client_id,
        clientName: "Acme, renamed",
        redirectUris: [REDIRECT, "https://acme.example/other"],
        scope: "openid profile",
      },
    });
    expect(updated).toMatchObject({ client_name: "Acme, renamed", redirect_uris: [REDIRECT, "https://acme.example/other"] });

    // Another organization's owner sees no such client.
    const stranger = sdkAs((await ownerWithOrganization(api.url, "Stranger")).browser);
    expect((await rejects(stranger.oauth2.clients.get({ clientId: created.client_id }), SDKError)).statusCode).toBe(401);
    expect((await rejects(stranger.oauth2.clients.delete({ clientId: created.client_id }), SDKError)).statusCode).toBe(401);

    await polar.oauth2.clients.delete({ clientId: created.client_id });
    const gone = await rejects(polar.oauth2.clients.get({ clientId: created.client_id }), SDKError);
    expect(gone.statusCode).toBe(401);
    expect(JSON.parse(gone.body)).toMatchObject({ error: "invalid_token" });
  });

  it("empties the links an update sends as null or leaves out, in the answer and on a later read", async () => {
    const owner = await ownerWithOrganization(api.url);
    const polar = sdkAs(owner.browser);
    const created = (await polar.oauth2.clients.create({
      clientName: "Linked",
      redirectUris: [REDIRECT],
      clientUri: "https://acme.example",
      logoUri: "https://acme.example/logo.png",
      tosUri: "https://acme.example/tos",
      policyUri: "https://acme.example/privacy",
      scope: "openid",
    })) as { client_id: string };
    const links = (client: unknown) => {
      const c = client as Record<string, unknown>;
      return { client_uri: c.client_uri, logo_uri: c.logo_uri, tos_uri: c.tos_uri, policy_uri: c.policy_uri };
    };
    const updated = await polar.oauth2.clients.update({
      clientId: created.client_id,
      oAuth2ClientConfigurationUpdate: {
        clientId: created.client_id,
        clientName: "Linked",
        redirectUris: [REDIRECT],
        scope: "openid",
        clientUri: null,
        tosUri: "https://acme.example/terms",
      },
    });
    const kept = { client_uri: undefined, logo_uri: undefined, tos_uri: "https://acme.example/terms", policy_uri: undefined };
    expect(links(updated)).toEqual(kept);
    expect(links(await polar.oauth2.clients.get({ clientId: created.client_id }))).toEqual(kept);
    expect(await api.knex("oauth_clients").where({ client_id: created.client_id }).first("uri", "icon", "tos", "policy")).toEqual({
      uri: null,
      icon: null,
      tos: "https://acme.example/terms",
      policy: null,
    });
  });

  it("stores the scopes a client asks for, and a PUT leaving scope out gives Polar's default", async () => {
    const owner = await ownerWithOrganization(api.url);
    const polar = sdkAs(owner.browser);
    const scopesOf = async (clientId: string) =>
      ((await api.knex("oauth_clients").where({ client_id: clientId }).first("scopes")) as { scopes: string[] }).scopes;
    const created = (await polar.oauth2.clients.create({
      clientName: "Narrow",
      redirectUris: [REDIRECT],
      scope: "openid products:read",
    })) as { client_id: string; scope: string };
    // The refresh_token grant (Polar's default) brings offline_access: Polar gives such clients refresh tokens.
    expect(created.scope).toBe("openid products:read offline_access");
    expect(((await polar.oauth2.clients.get({ clientId: created.client_id })) as { scope: string }).scope).toBe(
      "openid products:read offline_access",
    );
    expect((await scopesOf(created.client_id)).sort()).toEqual(["offline_access", "openid", "products:read"]);

    // Only the authorization_code grant: no offline_access.
    const noRefresh = (await polar.oauth2.clients.create({
      clientName: "Codes only",
      redirectUris: [REDIRECT],
      grantTypes: ["authorization_code"],
      scope: "openid",
    })) as { client_id: string };
    expect(await scopesOf(noRefresh.client_id)).toEqual(["openid"]);

    // A scope no client may ask for is refused, and no client is left behind.
    const before = await api.knex("oauth_clients").count({ n: "*" }).first();
    const refused = await rejects(
      polar.oauth2.clients.create({ clientName: "Greedy", redirectUris: [REDIRECT], scope: "openid organization_access_tokens:write" }),
      SDKError,
    );
    expect(refused.statusCode).toBe(400);
    expect(JSON.parse(refused.body)).toMatchObject({ error: "invalid_scope" });
    expect(await api.knex("oauth_clients").count({ n: "*" }).first()).toEqual(before);

    // A PUT without scope or grant types takes Polar's defaults: every scope a client may ask for, both
    // grants (sent raw: 0.49.0 fills in its own default scope list).
    const put = await owner.browser.fetch(`${api.url}/v1/oauth2/register/${created.client_id}`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_id: created.client_id, client_name: "Narrow", redirect_uris: [REDIRECT] }),
    });
    expect(put.status).toBe(200);
    const reset = (await put.json()) as { scope: string; grant_types: string[] };
    expect(reset.scope.split(" ").sort()).toEqual([...OAUTH_SCOPES].sort());
    expect(reset.grant_types).toEqual(["authorization_code", "refresh_token"]);
    expect((await scopesOf(created.client_id)).sort()).toEqual([...OAUTH_SCOPES].sort());
    const narrowed = (await polar.oauth2.clients.update({
      clientId: created.client_id,
      oAuth2ClientConfigurationUpdate: { clientId: created.client_id, clientName: "Narrow", redirectUris: [REDIRECT], scope: "openid" },
    })) as { scope: string };
    expect(narrowed.scope).toBe("openid offline_access");
  });

  it("refuses the anonymous, bad metadata and a client_id that is not the path's", async () => {
    const anonymous = new Polar049({ serverURL: api.url });
    const refused = await rejects(
      anonymous.oauth2.clients.create({ clientName: "x", redirectUris: [REDIRECT], scope: "openid" }),
      SDKError,
    );
    expect(refused.statusCode).toBe(401);
    expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer\b/);

    const owner = await ownerWithOrganization(api.url);
    const polar = sdkAs(owner.browser);
    const badLink = await rejects(
      polar.oauth2.clients.create({ clientName: "x", redirectUris: [REDIRECT], logoUri: "javascript:alert(1)", scope: "openid" }),
      SDKError,
    );
    expect(badLink.statusCode).toBe(400);
    expect(JSON.parse(badLink.body)).toMatchObject({ error: "invalid_client_metadata" });
    const noUris = await owner.browser.fetch(`${api.url}/v1/oauth2/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: "x" }),
    });
    expect(noUris.status).toBe(400);
    expect(await noUris.json()).toMatchObject({ error: "invalid_client_metadata" });

    const created = (await polar.oauth2.clients.create({ clientName: "Mine", redirectUris: [REDIRECT], scope: "openid" })) as {
      client_id: string;
    };
    const mismatch = await rejects(
      polar.oauth2.clients.update({
        clientId: created.client_id,
        oAuth2ClientConfigurationUpdate: { clientId: "polar_ci_other", clientName: "Mine", redirectUris: [REDIRECT], scope: "openid" },
      }),
      SDKError,
    );
    expect(mismatch.statusCode).toBe(400);
    // A caller that is not one of Polar's generated clients gets RFC 7591's 201.
    const raw = await owner.browser.fetch(`${api.url}/v1/oauth2/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: "Raw", redirect_uris: [REDIRECT] }),
    });
    expect(raw.status).toBe(201);
  });

  it("lists the organization's clients, newest first, paged, without secrets", async () => {
    const owner = await ownerWithOrganization(api.url);
    const polar = sdkAs(owner.browser);
    const first = (await polar.oauth2.clients.create({ clientName: "First", redirectUris: [REDIRECT], scope: "openid" })) as {
      client_id: string;
    };
    const second = (await polar.oauth2.clients.create({ clientName: "Second", redirectUris: [REDIRECT], scope: "openid" })) as {
      client_id: string;
    };
    const list = async (browser: Browser | null, query = "") => {
      const res = await (browser ? browser.fetch : fetch)(`${api.url}/v1/oauth2/${query}`);
      return { status: res.status, body: (await res.json()) as { items: Record<string, unknown>[]; pagination: unknown } };
    };
    const all = await list(owner.browser);
    expect(all.status).toBe(200);
    expect(all.body.items.map((c) => c.client_id).sort()).toEqual([first.client_id, second.client_id].sort());
    expect(all.body.pagination).toEqual({ total_count: 2, max_page: 1 });
    expect(all.body.items.every((c) => c.client_secret === undefined)).toBe(true);
    const paged = await list(owner.browser, "?limit=1&page=2");
    expect(paged.body).toEqual({ items: [all.body.items[1]], pagination: { total_count: 2, max_page: 2 } });

    // another organization's owner sees none of them; no one signed in is refused
    const stranger = await ownerWithOrganization(api.url, "Stranger");
    expect((await list(stranger.browser)).body).toEqual({ items: [], pagination: { total_count: 0, max_page: 0 } });
    expect((await list(null)).status).toBe(401);
    expect((await list(owner.browser, "?limit=1000")).status).toBe(422);
  });
});
