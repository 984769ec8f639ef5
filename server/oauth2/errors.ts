// OAuth 2.0 errors (RFC 6749 section 5.2) as the token, revocation and introspection endpoints answer them.
import { ApiError } from "../kit/errors.js";

export class OAuth2Failure extends ApiError {
  constructor(
    status: number,
    readonly oauthError: string,
    readonly description?: string,
  ) {
    super(status, oauthError, description ?? oauthError);
  }
  override body(): unknown {
    return { error: this.oauthError, ...(this.description ? { error_description: this.description } : {}) };
  }
}

/** better-auth's error answer as an OAuth2Failure (status 400 or 401). */
export function oauthFailure(status: number, json: unknown): OAuth2Failure {
  const body = (json ?? {}) as { error?: unknown; error_description?: unknown; message?: unknown };
  const error = typeof body.error === "string" ? body.error : status === 401 ? "invalid_client" : "invalid_request";
  const description = typeof body.error_description === "string" ? body.error_description : typeof body.message === "string" ? body.message : undefined;
  return new OAuth2Failure(status === 401 ? 401 : 400, error, description);
}
