// OAuth2 client registration (RFC 7591), its management (RFC 7592 style) under Polar's
// /v1/oauth2/register paths and the list of an organization's clients: each call is handed to
// better-auth's OAuth provider as the signed-in user who makes it (their session cookie or bearer
// token), and its refusals take RFC 6749's shape.
import type { Knex } from "knex";
import type { components } from "../../generated/types.js";
import { OAUTH_SCOPES } from "../auth/oauth.js";
import { clearClientLinks } from "../auth/repository.js";
import { retryAfterOf } from "../auth/routes.js";
import { TooManyRequests } from "../kit/errors.js";
import { DEFAULT_LIMIT, type Page } from "../kit/pagination.js";
import { CLIENT_LINKS, clientLinksProblem } from "./client-links.js";
import { OAuth2Failure, registrationFailure } from "./errors.js";
import { forward, USER_HEADERS, type Forwarded } from "./forward.js";
import { isLoopbackRedirect } from "./redirects.js";
import type { Provider } from "./service.js";

type Registration = components["schemas"]["OAuth2ClientRegistration"];
type Metadata = Record<string, unknown>;

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

/** Polar's fields the provider has no place for: the subject type its tokens default to. */
const NOT_STORED = ["default_sub_type", "client_id"];

function call(p: Provider, path: string, method: string, body?: unknown): Promise<Forwarded> {
  return forward(p.auth, p.publicUrl, path, {
    method,
    headers: p.headers,
    pass: USER_HEADERS,
    clientIp: p.clientIp,
    body: body === undefined ? undefined : JSON.stringify(body),
    contentType: "application/json",
  });
}

/** The provider's answer, or its refusal thrown as the OAuth2 error (or rate limit) it is. */
function answered(got: Forwarded): unknown {
  if (got.status === 429) throw new TooManyRequests(Number(retryAfterOf(got)));
  if (got.status >= 400 && got.status < 500) throw registrationFailure(got.status, got.json, got.headers.get("www-authenticate"));
  if (got.status >= 500) throw new Error(`the OAuth2 provider answered ${got.status}: ${JSON.stringify(got.json)}`);
  return got.json;
}

/**
 * better-auth takes loopback http redirect URIs from native clients only (OpenID Connect
 * Registration's application_type): metadata naming no type that lists one is a native client's
 * (a developer's machine, a command-line tool). Other http URIs stay refused either way.
 */
function withLoopbackType(metadata: Metadata): Metadata {
  const uris = metadata.redirect_uris;
  if (metadata.application_type !== undefined || !Array.isArray(uris)) return metadata;
  return uris.some((uri) => typeof uri === "string" && isLoopbackRedirect(uri))
    ? Object.assign({}, metadata, { application_type: "native" })
    : metadata;
}

/** The metadata to hand on: links checked (RFC 7591's refusal of a non-http(s) one), Polar's extra fields left out. */
function checked(metadata: Metadata): Metadata {
  const problem = clientLinksProblem(metadata);
  if (problem) throw new OAuth2Failure(400, problem.error, problem.error_description);
  return withLoopbackType(Object.fromEntries(Object.entries(metadata).filter(([k, v]) => !NOT_STORED.includes(k) && v !== null)));
}

/** Polar's defaults for what a client's metadata leaves out; a PUT leaving them out resets them. */
const DEFAULT_GRANT_TYPES = ["authorization_code", "refresh_token"];
const DEFAULTS: Metadata = { scope: OAUTH_SCOPES.join(" "), grant_types: DEFAULT_GRANT_TYPES, response_types: ["code"] };

/**
 * The scopes stored for the scopes a client asks for: a client allowed the refresh_token grant
 * also gets offline_access, since Polar gives such a client refresh tokens whatever its scope.
 */
function storedScope(scope: string, grantTypes: unknown): string {
  const scopes = scope.split(" ").filter(Boolean);
  const refreshes = (Array.isArray(grantTypes) ? grantTypes : DEFAULT_GRANT_TYPES).includes("refresh_token");
  return (refreshes && !scopes.includes("offline_access") ? [...scopes, "offline_access"] : scopes).join(" ");
}

/**
 * Registers a client with the scopes it asks for. better-auth's dynamic registration stores every
 * allowed scope whatever is asked, so the asked ones are then set by its update (the client is
 * removed again if that fails, so no client keeps more scopes than it asked for).
 */
export async function createClient(p: Provider, metadata: Metadata): Promise<Registration> {
  const created = answered(await call(p, "/oauth2/register", "POST", checked(metadata))) as Registration;
  if (typeof metadata.scope !== "string" || metadata.scope.trim() === "") return created;
  const scope = storedScope(metadata.scope, metadata.grant_types);
  try {
    answered(await call(p, "/oauth2/update-client", "POST", { client_id: created.client_id, update: { scope } }));
  } catch (err) {
    await call(p, "/oauth2/delete-client", "POST", { client_id: created.client_id });
    throw err;
  }
  return Object.assign({}, created, { scope });
}

export async function getClient(p: Provider, clientId: string): Promise<Registration> {
  return answered(await call(p, `/oauth2/get-client?client_id=${encodeURIComponent(clientId)}`, "GET")) as Registration;
}

/**
 * A PUT replaces the client's metadata: scope, grant and response types it leaves out take
 * Polar's defaults, and a link it leaves out or sends as null is emptied. better-auth's
 * update-client keeps what it is not sent, so once it has accepted the change (the caller owns
 * the client) the emptied links are cleared on the owner's row.
 */
export async function updateClient(p: Provider, db: Knex, clientId: string, metadata: Metadata): Promise<Registration> {
  if (typeof metadata.client_id === "string" && metadata.client_id !== clientId) {
    throw new OAuth2Failure(400, "invalid_client_metadata", "The body's client_id is not the path's.");
  }
  const given = Object.fromEntries(Object.entries(checked(metadata)).filter(([k]) => UPDATABLE.includes(k)));
  const update = Object.assign({}, DEFAULTS, given);
  update.scope = storedScope(String(update.scope), update.grant_types);
  const updated = answered(await call(p, "/oauth2/update-client", "POST", { client_id: clientId, update })) as Registration;
  const emptied = CLIENT_LINKS.filter((link) => metadata[link] === undefined || metadata[link] === null);
  const owner = { reference_id: ownerId(updated.reference_id), user_id: ownerId(updated.user_id) };
  await clearClientLinks(db, clientId, owner, emptied);
  const answer: Registration = Object.assign({}, updated);
  for (const link of emptied) delete answer[link];
  return answer;
}

const ownerId = (value: unknown) => (typeof value === "string" ? value : null);

export async function deleteClient(p: Provider, clientId: string): Promise<void> {
  answered(await call(p, "/oauth2/delete-client", "POST", { client_id: clientId }));
}

/** The active organization's clients (better-auth scopes them by the session's), newest first, a page of them. */
export async function listClients(p: Provider, query: { page?: number; limit?: number }): Promise<Page<Registration>> {
  const all = answered(await call(p, "/oauth2/get-clients", "GET"));
  const clients = (Array.isArray(all) ? (all as Registration[]) : []).sort(
    (a, b) => (b.client_id_issued_at ?? 0) - (a.client_id_issued_at ?? 0) || a.client_id.localeCompare(b.client_id),
  );
  const page = query.page ?? 1;
  const limit = query.limit ?? DEFAULT_LIMIT;
  return {
    items: clients.slice((page - 1) * limit, page * limit),
    pagination: { total_count: clients.length, max_page: Math.ceil(clients.length / limit) },
  };
}
