// The error side of the HTTP layer: Fastify's validation errors as the contract's 422 body, and
// any thrown error as the status and body the contract documents for it.
import { STATUS_CODES } from "node:http";
import type { ErrorObject } from "ajv";
import type { FastifyRequest, FastifySchemaValidationError } from "fastify";
import { toIssues } from "../kit/contract.js";
import { ApiError, errorBody, RequestValidationError, ResponseContractViolation } from "../kit/errors.js";
import { INPUT_ERROR_CODES } from "../kit/input.js";
import type { Logger } from "../kit/logger.js";

/** The status and body an error answers: typed errors as the contract documents them, bad input as 4xx, the rest 500. */
export function errorResponse(err: unknown, log: Logger | undefined): [number, unknown] {
  if (err instanceof ApiError) return [err.status, err.body()];
  if (err instanceof ResponseContractViolation) {
    log?.error({ err }, "response breaks the contract");
    return [500, { error: "ResponseContractViolation", detail: err.message }];
  }
  const e = err as { statusCode?: number; status?: number; message?: string; code?: string };
  if (e?.code && INPUT_ERROR_CODES.has(e.code)) {
    log?.warn({ err }, "input rejected by the database");
    return [422, { detail: [{ loc: ["body"], msg: "Invalid value", type: "value_error" }] }];
  }
  // Fastify's refusals of a request (413 too large, 400 aborted or unreadable), a library's 4xx and the like.
  const status = e?.statusCode ?? e?.status;
  if (status && status >= 400 && status < 500) return [status, errorBody(status, e.message ?? STATUS_CODES[status] ?? "Bad request")];
  log?.error({ err }, "unhandled error");
  return [500, errorBody(500, "An unexpected error occurred.")];
}

/** The parts of a request Fastify validates: where toIssues' first segment names each, in FastAPI's order. */
const PARTS = [
  ["params", "params", "/path"],
  ["querystring", "query", "/query"],
  ["body", "body", "/requestBody"],
] as const;

/**
 * A validation error of Fastify's as our 422, with the issues of every part: Fastify stops at the
 * first bad part, so the others are validated here. Anything else as thrown.
 */
export function asApiError(thrown: unknown, request: FastifyRequest): unknown {
  const err = thrown as { validation?: FastifySchemaValidationError[]; validationContext?: string };
  if (!err?.validation) return thrown;
  const failed = (part: (typeof PARTS)[number][0], key: (typeof PARTS)[number][1]) => {
    if (part === err.validationContext) return err.validation ?? [];
    const validate = request.getValidationFunction(part);
    // An absent part is validated as null, as Fastify does.
    return validate && !validate(request[key] ?? null) ? (validate.errors ?? []) : [];
  };
  const errors = PARTS.flatMap(([part, key, prefix]) =>
    failed(part, key).map((e) => Object.assign({}, e, { instancePath: prefix + e.instancePath }) as ErrorObject),
  );
  return new RequestValidationError(toIssues(errors));
}
