// The OAuth2 provider's routes outside the contract: OpenID Connect discovery and authorization
// server metadata at the API's root, naming Polar's /v1/oauth2 endpoints, and client registration
// (RFC 7591) with read, update and delete at /v1/oauth2/register/{client_id} (RFC 7592 style).
// Each is handed to better-auth's provider with the caller's session; errors take RFC 6749's shape
// (./errors.ts). Fastify plugins; registration reads its body as text.
import type { FastifyInstance, FastifyReply as Response, FastifyRequest } from "fastify";
import type { AuthConfig } from "../auth/config.js";
import type { BorealisAuth } from "../auth/instance.js";
import { clientAddress, retryAfterOf } from "../auth/routes.js";
import { TooManyRequests } from "../kit/errors.js";
import { OAuth2Failure, registrationFailure } from "./errors.js";
import { forward, USER_HEADERS, type Forwarded } from "./forward.js";
import { clientLinksProblem } from "./client-links.js";
import { isLoopbackRedirect } from "./redirects.js";

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

function fail(res: Response, failure: OAuth2Failure): void {
  res.header("cache-control", "no-store");
  res.code(failure.status).headers(failure.headers()).send(failure.body());
}

function answer(res: Response, got: Forwarded, status = got.status): void {
  if (status === 429) {
    const limited = new TooManyRequests(Number(retryAfterOf(got)));
    return void res.code(429).headers(limited.headers()).send(limited.body());
  }
  if (status >= 400 && status < 500) return fail(res, registrationFailure(status, got.json, got.headers.get("www-authenticate")));
  res.header("cache-control", "no-store");
  if (status === 204) return void res.code(204).send();
  res.code(status).send(got.json ?? {});
}

/** A JSON object of client metadata, or null. */
function metadataOf(raw: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * better-auth takes loopback http redirect URIs from native clients only (OpenID Connect
 * Registration's application_type): metadata naming no type that lists one is a native client's
 * (a developer's machine, a command-line tool). Other http URIs stay refused either way.
 */
function withLoopbackType(metadata: Record<string, unknown>): Record<string, unknown> {
  const uris = metadata.redirect_uris;
  if (metadata.application_type !== undefined || !Array.isArray(uris)) return metadata;
  return uris.some((uri) => typeof uri === "string" && isLoopbackRedirect(uri))
    ? Object.assign({}, metadata, { application_type: "native" })
    : metadata;
}

/** RFC 7591's refusal of a client whose home page, logo, terms or policy is not an http(s) URL. */
function linksRefused(metadata: Record<string, unknown>): OAuth2Failure | null {
  const problem = clientLinksProblem(metadata);
  return problem ? new OAuth2Failure(400, problem.error, problem.error_description) : null;
}

const notMetadata = new OAuth2Failure(400, "invalid_client_metadata", "The body is not a JSON object of client metadata.");

/** The fields a client's metadata may change (better-auth's update-client takes exactly these). */
const UPDATABLE = [
  "redirect_uris",
  "scope",
  "client_name",
  "client_uri",
  "logo_uri",
  "contacts",
  "tos_uri",
  "policy_uri",
  "software_id",
  "software_version",
  "software_statement",
  "post_logout_redirect_uris",
  "backchannel_logout_uri",
  "backchannel_logout_session_required",
  "application_type",
  "grant_types",
  "response_types",
];

function notAllowed(res: Response, allow: string): void {
  res.header("allow", allow);
  fail(res, new OAuth2Failure(405, "invalid_request", `Only ${allow} here.`));
}

export function clientRegistrationRoutes(auth: BorealisAuth, config: AuthConfig) {
  const publicUrl = config.baseURL;
  const serve = async (req: FastifyRequest<{ Params: { clientId?: string } }>, res: Response) => {
    const clientId = req.params.clientId ?? null;
    const readBody = () => (typeof req.body === "string" ? req.body : "");
    const call = (path: string, method: string, body?: unknown) =>
      forward(auth, publicUrl, path, {
        method,
        headers: req.headers,
        pass: USER_HEADERS,
        clientIp: clientAddress(req, config) ?? null,
        body: body === undefined ? undefined : JSON.stringify(body),
        contentType: "application/json",
      });
    const run = async () => {
      if (!clientId) {
        if (req.method !== "POST") return notAllowed(res, "POST");
        const metadata = metadataOf(readBody());
        if (!metadata) return fail(res, notMetadata);
        const refused = linksRefused(metadata);
        if (refused) return fail(res, refused);
        const got = await call("/oauth2/register", "POST", withLoopbackType(metadata));
        return answer(res, got, got.status === 200 ? 201 : got.status);
      }
      if (req.method === "GET") return answer(res, await call(`/oauth2/get-client?client_id=${encodeURIComponent(clientId)}`, "GET"));
      if (req.method === "PUT") {
        const metadata = metadataOf(readBody());
        if (!metadata) return fail(res, notMetadata);
        const refused = linksRefused(metadata);
        if (refused) return fail(res, refused);
        const update = Object.fromEntries(Object.entries(withLoopbackType(metadata)).filter(([k]) => UPDATABLE.includes(k)));
        return answer(res, await call("/oauth2/update-client", "POST", { client_id: clientId, update }));
      }
      if (req.method === "DELETE") {
        const got = await call("/oauth2/delete-client", "POST", { client_id: clientId });
        return answer(res, got, got.status === 200 ? 204 : got.status);
      }
      notAllowed(res, "GET, PUT, DELETE");
    };
    await run();
  };
  return async (app: FastifyInstance) => {
    // The body is client metadata as JSON text, whatever the content type says.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser("*", { parseAs: "string", bodyLimit: 256 * 1024 }, (_req, body, done) => done(null, body));
    for (const url of ["/v1/oauth2/register", "/v1/oauth2/register/", "/v1/oauth2/register/:clientId", "/v1/oauth2/register/:clientId/"])
      app.all(url, serve);
  };
}
