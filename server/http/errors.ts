// The error side of the HTTP layer: Ajv's complaints about a request as the contract's 422 body,
// and any thrown error as the status and body the contract documents for it.
import { STATUS_CODES } from "node:http";
import type { ErrorObject } from "ajv";
import { ApiError, errorBody, ResponseContractViolation, type ValidationIssue } from "../kit/errors.js";
import { INPUT_ERROR_CODES } from "../kit/input.js";
import type { Logger } from "../kit/logger.js";

/** Ajv errors of the request → FastAPI-style issues with `loc` starting at body/query/path. */
export function toIssues(errors: ErrorObject[]): ValidationIssue[] {
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  for (const e of errors) {
    const parts = e.instancePath
      .split("/")
      .slice(1)
      .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
    const where = parts.shift();
    const head = where === "requestBody" ? "body" : where === "path" ? "path" : (where ?? "body");
    const loc: (string | number)[] = [head, ...parts.map((p) => (/^\d+$/.test(p) ? Number(p) : p))];
    let type = e.keyword;
    let msg = e.message ?? "Invalid value";
    if (e.keyword === "required") {
      loc.push((e.params as { missingProperty: string }).missingProperty);
      type = "missing";
      msg = "Field required";
    } else if (e.keyword === "additionalProperties") {
      loc.push((e.params as { additionalProperty: string }).additionalProperty);
      type = "extra_forbidden";
      msg = "Extra inputs are not permitted";
    } else if (e.keyword === "discriminator") {
      const { tag, tagValue } = e.params as { tag: string; tagValue?: unknown };
      loc.push(tag);
      if (tagValue === undefined) {
        type = "union_tag_not_found";
        msg = `Unable to extract tag using discriminator '${tag}'`;
      } else {
        type = "union_tag_invalid";
        msg = `Input tag '${String(tagValue)}' found using '${tag}' does not match any of the expected tags`;
      }
    } else if (e.keyword === "format" && (e.params as { format: string }).format === "uuid") {
      // An id filter or path id that is not a UUID, in pydantic's words (as Polar answers).
      type = "uuid_parsing";
      msg = "Input should be a valid UUID";
    } else if (e.keyword === "parse") {
      type = "json_invalid";
      msg = `JSON decode error: ${e.message}`;
    }
    const key = `${loc.join(".")}|${type}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push({ loc, msg, type });
  }
  return issues.length ? issues : [{ loc: ["body"], msg: "Invalid request", type: "value_error" }];
}

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
