// Typed domain errors. Each renders as the body the contract documents for it:
// `{"error": Name, "detail": ...}`, or the 422 `{"detail": [{loc, msg, type}]}` list.
import { STATUS_CODES } from "node:http";

export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
  input?: unknown;
}

/** The contract's body for an error without a typed name of its own: the status's name and a detail. */
export function errorBody(status: number, detail: string): { error: string; detail: string } {
  return { error: (STATUS_CODES[status] ?? "Error").replace(/[^A-Za-z]/g, ""), detail };
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly detail: string,
  ) {
    super(`${error}: ${detail}`);
  }
  body(): unknown {
    return { error: this.error, detail: this.detail };
  }
  /** Headers the answer carries besides its body (Retry-After, an authentication challenge). */
  headers(): Record<string, string> {
    return {};
  }
}

export class ResourceNotFound extends ApiError {
  constructor(detail = "Not found") {
    super(404, "ResourceNotFound", detail);
  }
}

export class NotPermitted extends ApiError {
  constructor(detail = "You don't have the permission to do this.") {
    super(403, "NotPermitted", detail);
  }
}

/** 429, with `Retry-After`: the whole seconds until the client may succeed again (at least 1). */
export class TooManyRequests extends ApiError {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number, detail?: string) {
    const seconds = Math.max(1, Math.ceil(retryAfterSeconds) || 1);
    super(429, "TooManyRequests", detail ?? `Too many requests; retry in ${seconds} s.`);
    this.retryAfterSeconds = seconds;
  }
  override headers(): Record<string, string> {
    return { "Retry-After": String(this.retryAfterSeconds) };
  }
}

export class Unauthorized extends ApiError {
  constructor(detail = "Unauthorized") {
    super(401, "Unauthorized", detail);
  }
}

/** 422 in the FastAPI-style shape the official client decodes into HTTPValidationError. */
export class RequestValidationError extends ApiError {
  constructor(readonly issues: ValidationIssue[]) {
    super(422, "RequestValidationError", issues.map((i) => `${i.loc.join(".")}: ${i.msg}`).join("; "));
  }
  override body(): unknown {
    return { detail: this.issues };
  }
}

export function invalid(loc: (string | number)[], msg: string, type = "value_error", input?: unknown): RequestValidationError {
  return new RequestValidationError([{ loc, msg, type, ...(input === undefined ? {} : { input }) }]);
}

/** An answer the contract does not allow: a bug of ours, answered as a 500. */
export class ResponseContractViolation extends Error {}
