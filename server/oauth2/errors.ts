// OAuth 2.0 errors (RFC 6749 section 5.2) as the token, revocation and introspection endpoints answer them.
import { retryAfterOf } from "../auth/routes.js";
import { ApiError, TooManyRequests } from "../kit/errors.js";
import type { Forwarded } from "./forward.js";

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

/** better-auth's error answer: its rate limit's 429 as ours (with Retry-After), the rest as an OAuth2Failure (status 400 or 401). */
export function oauthFailure({ status, headers, json }: Forwarded): ApiError {
  if (status === 429) return new TooManyRequests(Number(retryAfterOf({ status, headers })));
  const body = (json ?? {}) as { error?: unknown; error_description?: unknown; message?: unknown };
  const error = typeof body.error === "string" ? body.error : status === 401 ? "invalid_client" : "invalid_request";
  const description = typeof body.error_description === "string" ? body.error_description : typeof body.message === "string" ? body.message : undefined;
  return new OAuth2Failure(status === 401 ? 401 : 400, error, description);
}
