// A registered OAuth2 client's links (client_uri, logo_uri, tos_uri, policy_uri), shown to the
// people it asks for consent: http(s) URLs only, refused with RFC 7591's invalid_client_metadata
// at registration and at update, and nothing stored.
import { describe, expect, it } from "vitest";
import { ownerWithOrganization, useTestApi } from "../harness/index.js";

const api = useTestApi();
const REDIRECT = "https://acme.example/callback";
const CLIENT = {
  client_name: "Links",
  redirect_uris: [REDIRECT],
  token_endpoint_auth_method: "client_secret_post",
  grant_types: ["authorization_code"],
};

describe("OAuth2 client links", () => {
  it("refuses a client whose home page, logo, terms or policy is not an http(s) URL", async () => {
    const owner = await ownerWithOrganization(api.url);
    const send = (method: string, path: string, body: object) =>
      owner.browser.fetch(`${api.url}/v1/oauth2/register${path}`, {
        method,
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    for (const [key, value] of [
      ["client_uri", "javascript:alert(1)"],
      ["logo_uri", "data:image/svg+xml,<svg onload=alert(1)>"],
      ["tos_uri", "file:///etc/passwd"],
      ["policy_uri", "not a url"],
    ]) {
      const res = await send("POST", "", { ...CLIENT, [key]: value });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        error: "invalid_client_metadata",
        error_description: expect.stringMatching(new RegExp(`^${key}: `)),
      });
    }
    expect(await api.knex("oauth_clients").where({ reference_id: owner.organizationId })).toEqual([]);

    const made = await send("POST", "", {
      ...CLIENT,
      client_uri: "https://acme.example",
      logo_uri: "https://acme.example/logo.png",
      tos_uri: "http://acme.example/tos",
    });
    expect(made.status).toBe(201);
    const { client_id } = (await made.json()) as { client_id: string };
    const changed = await send("PUT", `/${client_id}`, { policy_uri: "javascript:alert(1)" });
    expect(changed.status).toBe(400);
    expect(await changed.json()).toEqual({
      error: "invalid_client_metadata",
      error_description: "policy_uri: URL scheme should be 'http' or 'https'",
    });
    expect(await api.knex("oauth_clients").where({ client_id }).first()).toMatchObject({
      reference_id: owner.organizationId,
      uri: "https://acme.example",
      tos: "http://acme.example/tos",
      policy: null,
    });
  });
});
