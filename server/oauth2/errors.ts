// OAuth 2.0 errors (RFC 6749 section 5.2) as the token, revocation and introspection endpoints
// answer them: `{"error": code, "error_description": text}`; a 401 with its WWW-Authenticate challenge.
import { ApiError } from "../kit/errors.js";

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
 * check failed are invalid_grant, as RFC 7636 section 4.6 has it. A 5xx stays a server error.
 */
export function providerFailure(status: number, json: unknown, challenge: string | null): Error {
  if (status >= 500) return new Error(`the OAuth2 provider answered ${status}: ${JSON.stringify(json)}`);
  const got = providerError(json);
  const error = got.error ?? (status === 401 ? "invalid_client" : "invalid_request");
  if (error === "invalid_client") return new OAuth2Failure(401, error, got.description ?? "Client authentication failed.", challenge ?? CLIENT_CHALLENGE);
  return new OAuth2Failure(400, status === 401 ? "invalid_grant" : error, got.description ?? error);
}
