// OAuth 2.0 errors (RFC 6749 section 5.2) as every OAuth2 endpoint answers them: the token,
// revocation and introspection endpoints, the consent screen's authorize, client registration.
// Always `{"error": code, "error_description": text}`; a 401 with its WWW-Authenticate challenge.
import { retryAfterOf } from "../auth/routes.js";
import { ApiError, NotPermitted, RequestValidationError, TooManyRequests, Unauthorized } from "../kit/errors.js";
import type { Forwarded } from "./forward.js";

export class OAuth2Failure extends ApiError {
  constructor(
    status: number,
    readonly oauthError: string,
    readonly description: string,
    /** The WWW-Authenticate challenge of a 401. */
    readonly challenge?: string,
  ) {
    super(status, oauthError, description);
  }
  override body(): unknown {
    return { error: this.oauthError, error_description: this.description };
  }
  override headers(): Record<string, string> {
    return this.challenge ? { "www-authenticate": this.challenge } : {};
  }
}

/** The client authentication the token endpoint takes besides the form body (client_secret_basic). */
const CLIENT_CHALLENGE = "Basic";
/** Registration and the consent screen's authorize take a user's session or bearer token. */
const USER_CHALLENGE = "Bearer";

/** better-auth's error codes that RFC 6749 names otherwise: a code or refresh token whose user is gone. */
const PROVIDER_CODES: Record<string, string> = { invalid_user: "invalid_grant" };

/** The code and description of better-auth's error answer (`{error, error_description}` or `{message, code}`). */
function providerError(json: unknown): { error?: string; description?: string } {
  const body = (json ?? {}) as { error?: unknown; error_description?: unknown; message?: unknown };
  const error = typeof body.error === "string" && body.error ? body.error : undefined;
  const description = [body.error_description, body.message].find((d): d is string => typeof d === "string" && d !== "");
  return { error: error && (PROVIDER_CODES[error] ?? error), description };
}

/**
 * better-auth's error answer at the token, revocation or introspection endpoint. A failed client
 * authentication is 401 with a challenge (RFC 6749 section 5.2 allows it always, and wants it when
 * the client tried Basic); every other error is 400, so better-auth's 401s for a code whose PKCE
 * check failed are invalid_grant, as RFC 7636 section 4.6 has it. Its rate limit's 429 is ours,
 * with Retry-After; a 5xx stays a server error.
 */
export function providerFailure({ status, headers, json }: Forwarded): Error {
  if (status === 429) return new TooManyRequests(Number(retryAfterOf({ status, headers })));
  const challenge = headers.get("www-authenticate");
  if (status >= 500) return new Error(`the OAuth2 provider answered ${status}: ${JSON.stringify(json)}`);
  const got = providerError(json);
  const error = got.error ?? (status === 401 ? "invalid_client" : "invalid_request");
  if (error === "invalid_client")
    return new OAuth2Failure(401, error, got.description ?? "Client authentication failed.", challenge ?? CLIENT_CHALLENGE);
  return new OAuth2Failure(400, status === 401 ? "invalid_grant" : error, got.description ?? error);
}

/** The codes of registration's errors that better-auth answers without one (RFC 7591 section 3.2.2, RFC 6750). */
const REGISTRATION_CODES: Record<number, string> = { 400: "invalid_client_metadata", 401: "invalid_token", 403: "access_denied" };

/**
 * better-auth's error answer at client registration or its management calls. A client the caller
 * may not see and one that does not exist are alike: 401 invalid_token, as RFC 7592 section 2 has it.
 */
export function registrationFailure(status: number, json: unknown, challenge: string | null): OAuth2Failure {
  const got = providerError(json);
  if (status === 404 || status === 401) {
    return new OAuth2Failure(
      401,
      "invalid_token",
      got.description ?? "Sign in as an owner or admin of the client's organization.",
      challenge ?? USER_CHALLENGE,
    );
  }
  const error = got.error ?? REGISTRATION_CODES[status] ?? "invalid_request";
  return new OAuth2Failure(status, error, got.description ?? error);
}

/** The contract's operations whose every 4xx is an OAuth2 error. */
const OAUTH2_OPERATIONS: ReadonlySet<string> = new Set([
  "oauth2:authorize",
  "oauth2:request_token",
  "oauth2:revoke_token",
  "oauth2:introspect_token",
]);

/** Client registration and its management: a body refused is invalid_client_metadata (RFC 7591 section 3.2.2). */
const CLIENT_OPERATIONS: ReadonlySet<string> = new Set([
  "oauth2:clients:oauth2:create_client",
  "oauth2:clients:oauth2:get_client",
  "oauth2:clients:oauth2:update_client",
  "oauth2:clients:oauth2:delete_client",
]);

/**
 * An error of the request pipeline (the contract's validation, authentication) on one of those
 * operations, as the OAuth2 error it is; any other error unchanged.
 */
export function asOAuth2Error(operationId: string | undefined, err: unknown): unknown {
  if (operationId && CLIENT_OPERATIONS.has(operationId)) {
    const unreadable = err instanceof ApiError && err.status === 400 && !(err instanceof OAuth2Failure);
    if (err instanceof RequestValidationError || unreadable) {
      return new OAuth2Failure(400, "invalid_client_metadata", err instanceof ApiError ? err.detail : "The body is not client metadata.");
    }
    return err;
  }
  if (!operationId || !OAUTH2_OPERATIONS.has(operationId)) return err;
  if (err instanceof RequestValidationError) {
    const grant = err.issues.some((i) => i.loc[1] === "grant_type" && i.type === "union_tag_invalid");
    return new OAuth2Failure(400, grant ? "unsupported_grant_type" : "invalid_request", err.detail);
  }
  if (err instanceof Unauthorized) return new OAuth2Failure(401, "login_required", err.detail, USER_CHALLENGE);
  if (err instanceof NotPermitted) return new OAuth2Failure(403, "access_denied", err.detail);
  return err;
}
