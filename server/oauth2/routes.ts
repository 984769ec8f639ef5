// The OAuth2 provider's routes outside the contract: OpenID Connect discovery and authorization
// server metadata at the API's root, naming Polar's /v1/oauth2 endpoints (client registration
// among them, an operation of the contract: ./clients.ts). A Fastify plugin.
import type { FastifyInstance } from "fastify";
import type { BorealisAuth } from "../auth/instance.js";

/** The endpoints discovery names, by metadata key: Polar's paths on our API. */
const POLAR_ENDPOINTS: Record<string, string> = {
  token_endpoint: "/v1/oauth2/token",
  revocation_endpoint: "/v1/oauth2/revoke",
  introspection_endpoint: "/v1/oauth2/introspect",
  userinfo_endpoint: "/v1/oauth2/userinfo",
  registration_endpoint: "/v1/oauth2/register",
};

/** The provider's metadata with Polar's endpoints in place of better-auth's own paths. */
export function withPolarEndpoints(metadata: Record<string, unknown>, publicUrl: string): Record<string, unknown> {
  const out = { ...metadata };
  for (const [key, path] of Object.entries(POLAR_ENDPOINTS)) if (key in out) out[key] = `${publicUrl}${path}`;
  // Polar's token endpoint takes the client's credentials in the form body, and public clients
  // (none, with PKCE) there; revocation and introspection authenticate the client.
  const methods: Record<string, string[]> = {
    token_endpoint_auth_methods_supported: ["none", "client_secret_post"],
    revocation_endpoint_auth_methods_supported: ["client_secret_post"],
    introspection_endpoint_auth_methods_supported: ["client_secret_post"],
  };
  for (const [key, needed] of Object.entries(methods)) {
    const listed = out[key];
    if (Array.isArray(listed)) out[key] = [...needed.filter((m) => !listed.includes(m)), ...listed];
  }
  return out;
}

export function wellKnownRoutes(auth: BorealisAuth, publicUrl: string) {
  const documents: [string, () => Promise<object>][] = [
    ["/.well-known/openid-configuration", () => auth.api.getOpenIdConfig({ headers: new Headers() })],
    ["/.well-known/oauth-authorization-server", () => auth.api.getOAuthServerConfig({ headers: new Headers() })],
  ];
  return async (app: FastifyInstance) => {
    for (const [url, load] of documents) {
      app.route({
        method: ["GET", "HEAD"],
        url,
        handler: async (_req, res) => {
          const metadata = await load();
          return res.header("cache-control", "public, max-age=300").send(withPolarEndpoints({ ...metadata }, publicUrl));
        },
      });
    }
  };
}
