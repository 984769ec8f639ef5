// The OAuth2 provider's routes outside the contract: OpenID Connect discovery and authorization
// server metadata at the API's root (the issuer), naming Polar's /v1/oauth2 endpoints, and client
// registration (RFC 7591) with its management calls (RFC 7592 style):
//
//   POST   /v1/oauth2/register              register a client (a signed-in owner or admin; it belongs to their active organization)
//   GET    /v1/oauth2/register/{client_id}  read it
//   PUT    /v1/oauth2/register/{client_id}  change its metadata
//   DELETE /v1/oauth2/register/{client_id}  delete it
//
// Each is handed to better-auth's provider with the caller's cookie or bearer session. Mounted
// before the body parsers: a body is passed on as it came.
import type { Request, RequestHandler, Response } from "express";
import type { BorealisAuth } from "../auth/instance.js";
import { forward, USER_HEADERS, type Forwarded } from "./forward.js";
import { clientLinksProblem, jsonOrUndefined } from "./client-links.js";

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
  // Polar's token endpoint takes the client's credentials in the form body.
  for (const key of ["token_endpoint_auth_methods_supported", "revocation_endpoint_auth_methods_supported", "introspection_endpoint_auth_methods_supported"]) {
    if (Array.isArray(out[key]) && !(out[key] as string[]).includes("client_secret_post")) out[key] = [...(out[key] as string[]), "client_secret_post"];
  }
  return out;
}

export function wellKnownRoutes(auth: BorealisAuth, publicUrl: string): RequestHandler {
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const load =
      req.path === "/.well-known/openid-configuration"
        ? () => auth.api.getOpenIdConfig({ headers: new Headers() })
        : req.path === "/.well-known/oauth-authorization-server"
          ? () => auth.api.getOAuthServerConfig({ headers: new Headers() })
          : null;
    if (!load) return next();
    load()
      .then((metadata) => {
        res.setHeader("cache-control", "public, max-age=300");
        res.json(withPolarEndpoints({ ...metadata }, publicUrl));
      })
      .catch(next);
  };
}

function readBody(req: Request): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      body += chunk;
      if (body.length > 256 * 1024) reject(Object.assign(new Error("request entity too large"), { status: 413 }));
    });
    req.on("end", () => resolve(body));
    req.on("error", reject);
  });
}

function answer(res: Response, got: Forwarded, status = got.status): void {
  res.setHeader("cache-control", "no-store");
  if (status === 204) return void res.status(204).end();
  res.status(status).json(got.json ?? {});
}

/** The fields a client's metadata may change (better-auth's update-client takes exactly these). */
const UPDATABLE = [
  "redirect_uris", "scope", "client_name", "client_uri", "logo_uri", "contacts", "tos_uri", "policy_uri", "software_id",
  "software_version", "software_statement", "post_logout_redirect_uris", "backchannel_logout_uri",
  "backchannel_logout_session_required", "application_type", "grant_types", "response_types",
];

export function clientRegistrationRoutes(auth: BorealisAuth, publicUrl: string): RequestHandler {
  return (req, res, next) => {
    const m = /^\/v1\/oauth2\/register(?:\/([^/]+))?\/?$/.exec(req.path);
    if (!m) return next();
    const clientId = m[1] ? decodeURIComponent(m[1]) : null;
    const call = (path: string, method: string, body?: unknown) =>
      forward(auth, publicUrl, path, { method, headers: req.headers, pass: USER_HEADERS, body: body === undefined ? undefined : JSON.stringify(body), contentType: "application/json" });
    const run = async () => {
      if (!clientId) {
        if (req.method !== "POST") return void res.status(405).setHeader("allow", "POST").json({ detail: "Method Not Allowed" });
        const raw = await readBody(req);
        const refused = clientLinksProblem(jsonOrUndefined(raw));
        if (refused) return void res.status(400).setHeader("cache-control", "no-store").json(refused);
        const got = await forward(auth, publicUrl, "/oauth2/register", { method: "POST", headers: req.headers, pass: USER_HEADERS, body: raw, contentType: "application/json" });
        return answer(res, got, got.status === 200 ? 201 : got.status);
      }
      if (req.method === "GET") return answer(res, await call(`/oauth2/get-client?client_id=${encodeURIComponent(clientId)}`, "GET"));
      if (req.method === "PUT") {
        const raw = await readBody(req);
        let metadata: Record<string, unknown>;
        try {
          metadata = raw ? JSON.parse(raw) : {};
        } catch {
          return void res.status(400).json({ error: "invalid_client_metadata", error_description: "the body is not JSON" });
        }
        const refused = clientLinksProblem(metadata);
        if (refused) return void res.status(400).setHeader("cache-control", "no-store").json(refused);
        const update = Object.fromEntries(Object.entries(metadata).filter(([k]) => UPDATABLE.includes(k)));
        return answer(res, await call("/oauth2/update-client", "POST", { client_id: clientId, update }));
      }
      if (req.method === "DELETE") {
        const got = await call("/oauth2/delete-client", "POST", { client_id: clientId });
        return answer(res, got, got.status === 200 ? 204 : got.status);
      }
      res.status(405).setHeader("allow", "GET, PUT, DELETE").json({ detail: "Method Not Allowed" });
    };
    run().catch(next);
  };
}
