// The one request pipeline: Fastify's hooks in the order a request meets them, the contract's
// routes compiled by codegen (generated/routes.json), and the error handler. `installPipeline` lists the
// steps; docs/ARCHITECTURE.md walks one request through them.
import { randomUUID } from "node:crypto";
import { negotiate } from "@fastify/accept-negotiator";
import { trace, type Span } from "@opentelemetry/api";
import type { ValidateFunction } from "ajv";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Knex } from "knex";
import { operations } from "../../generated/operations.js";
import type { OperationId } from "../../generated/handlers.js";
import type { ContractRoute } from "../../generated/routes.js";
import { checkNamedOrganization, resolveCaller, type CallerDeps } from "../auth/callers.js";
import { clientAddress } from "../auth/routes.js";
import type { AuthConfig } from "../auth/config.js";
import type { BorealisAuth } from "../auth/instance.js";
import { holdToPurchase } from "../customer-portal/purchase.js";
import { requirePortalSection } from "../customer-portal/sections.js";
import { handlers } from "../handlers.js";
import type { Caller } from "../kit/auth.js";
import type { Ctx } from "../kit/context.js";
import { contractAjv, readByOutsiders, responseValidators, type ResponseChecks } from "../kit/contract.js";
import { ApiError, errorBody, ResourceNotFound, ResponseContractViolation } from "../kit/errors.js";
import { keyOfRequest, REPLAYED_HEADER, runOnce } from "../kit/idempotency.js";
import { rejectUnstorableInput } from "../kit/input.js";
import { logger, type Logger } from "../kit/logger.js";
import { asOAuth2Error } from "../oauth2/errors.js";
import { DEFAULT_API_VERSION, requestedVersion, statusFor, VERSION_HEADER, versionedJson, type ApiVersion } from "../kit/api-versions.js";
import type { Metrics } from "../observability/metrics.js";
import { limitedAuthentication, type RateLimits } from "../kit/rate-limits.js";
import { asApiError, errorResponse } from "./errors.js";
import { installBodyParsers } from "./parsers.js";
import { clientIp, counted } from "./rate-limit.js";
import { installSecurity } from "./security.js";

/** What the pipeline knows of a request, for the steps after it. */
export interface RequestState {
  requestId: string;
  readonly log: Logger;
  apiVersion: ApiVersion;
  operationId?: OperationId;
  caller?: Caller;
  span?: Span;
}

declare module "fastify" {
  interface FastifyRequest {
    state: RequestState;
  }
}

export interface PipelineOptions {
  knex: Knex;
  auth: BorealisAuth;
  authConfig: AuthConfig;
  callers: CallerDeps;
  /** The contract's routes and component schemas (generated/routes.json). */
  contract: { routes: ContractRoute[]; schemas: Record<string, Record<string, unknown>> };
  rateLimits: RateLimits;
  metrics: Metrics;
  /** The API docs page, whose inline scripts the CSP allows (server/http/security.ts). */
  docsHtmlPath: string;
  validateResponses: boolean;
  /** The answers' checks when validateResponses, if the caller shares one set between servers. */
  responseChecks?: ResponseChecks;
}

/** A client's request id is kept when short and plain (so it can be logged and echoed safely), else ours replaces it. */
const PLAIN_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
function requestIdOf(given: string | string[] | undefined): string {
  return typeof given === "string" && PLAIN_REQUEST_ID.test(given) ? given : randomUUID();
}

const pathOf = (request: FastifyRequest) => request.url.split("?", 1)[0];

const SERVED_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** The contract's methods at a path: a concrete path (`/v1/license-keys/activate`) over the templates it also fits. */
function allowedMethods(ops: ContractRoute[]): (path: string) => string[] {
  const res = ops.map((op) => ({ op, re: new RegExp(`^${op.path.replace(/\{[^}]+\}/g, "[^/]+")}$`) }));
  return (path) => {
    const fitting = res.filter((r) => r.re.test(path)).map((r) => r.op);
    const concrete = fitting.filter((op) => op.path === path);
    return [...new Set((concrete.length ? concrete : fitting).map((op) => op.method.toUpperCase()))];
  };
}

/**
 * Adds the pipeline's hooks, parsers, error and not-found answers, and the contract's routes to
 * `app`. The steps, in order. Every request:
 *   1. onRequest   request context: request id, logger, metrics and the log line, tracing span
 *   2. onRequest   security headers (server/http/security.ts)
 *   3. onRequest   CORS on the public and portal paths, preflights answered
 *   4. onRequest   the API version of a /v1 request (Polar-Version)
 * A contract operation then (its route compiled by codegen, generated/routes.json):
 *   5. body        parsed (JSON, form), then preValidation: authentication, rate limits, portal sections
 *   6. validation  path, query and body by the contract's Ajv (query and path coerced)
 *   7. preHandler  input PostgreSQL cannot store is refused
 *   8. handler     the generated handler, inside the idempotency journal
 *   9. answer      the status and shape of the caller's version (or the CSV)
 * Any error: the error handler answers the contract's body (422 issues, OAuth2's shape).
 */
export function installPipeline(
  app: FastifyInstance,
  o: PipelineOptions,
  pages: (req: FastifyRequest, reply: FastifyReply) => Promise<boolean>,
): void {
  const { routes: ops, schemas } = o.contract;
  const allowed = allowedMethods(ops);
  // The contract's paths without parameters: another method there is a 405, not a template's item.
  const concrete = new Set(ops.filter((op) => !op.path.includes("{")).map((op) => op.path));
  const jsonOf = versionedJson(o.contract, o.validateResponses);
  const responseCheck = o.validateResponses ? (o.responseChecks ?? responseValidators(schemas, ops, readByOutsiders)) : null;
  app.decorateRequest<RequestState | null>("state", null);
  // 6. Validation by the contract's Ajv: the path's and query's strings coerced, a body as sent.
  const [coercing, strict] = [contractAjv(schemas, { coerce: true }), contractAjv(schemas)];
  // Each compiled on its first request, as most processes (tests, a CLI) serve a few operations.
  app.setValidatorCompiler(({ schema, httpPart }) => {
    let compiled: ValidateFunction | undefined;
    const found: Pick<ValidateFunction, "errors"> = { errors: null };
    const validate = Object.assign((data: unknown) => {
      compiled ??= (httpPart === "body" ? strict : coercing).compile(schema);
      const valid = compiled(data);
      validate.errors = compiled.errors;
      return valid;
    }, found);
    return validate;
  });

  // 1. The request context.
  app.addHook("onRequest", (request, reply, done) => {
    const requestId = requestIdOf(request.headers["x-request-id"]);
    let log: Logger | undefined;
    const state: RequestState = {
      requestId,
      // Made when something logs (most requests log nothing but the line below).
      get log() {
        return (log ??= logger.child({ requestId }));
      },
      apiVersion: DEFAULT_API_VERSION,
      span: trace.getActiveSpan(),
    };
    request.state = state;
    reply.header("x-request-id", requestId);
    state.span?.setAttribute("borealis.request_id", requestId);
    const started = process.hrtime.bigint();
    const logged = logger.isLevelEnabled("info");
    reply.raw.on("finish", () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const path = pathOf(request);
      o.metrics.observe(state.operationId, request.method, path, reply.raw.statusCode, ms / 1000);
      if (logged) state.log.info({ method: request.method, path, status: reply.raw.statusCode, ms }, "request");
    });
    done();
  });
  // A request no route serves: a page of a browser app, a 405 with the contract's methods, or a 404.
  const miss = async (request: FastifyRequest, reply: FastifyReply) => {
    if (await pages(request, reply)) return reply;
    const path = pathOf(request);
    const methods = allowed(path);
    if (methods.length === 0) throw new ResourceNotFound("No such route.");
    reply.header("Allow", methods.join(", "));
    return reply.code(405).send(errorBody(405, `${request.method} is not allowed on ${path}.`));
  };
  // 2. Security headers; 3. CORS.
  installSecurity(app, { docsHtmlPath: o.docsHtmlPath, methodsOf: allowed });
  // 4. The API version.
  app.addHook("onRequest", async (request, reply) => {
    // A method nothing here serves is a miss before Fastify asks its body for a content type.
    if (!SERVED_METHODS.has(request.method)) return miss(request, reply);
    if (pathOf(request).startsWith("/v1/")) {
      request.state.apiVersion = requestedVersion(request.headers["polar-version"]);
      reply.header(VERSION_HEADER, request.state.apiVersion);
    }
  });

  // 5. The body (server/http/parsers.ts).
  installBodyParsers(app);

  app.setErrorHandler((thrown, request, reply) => {
    const operationId = request.state?.operationId;
    // The OAuth2 endpoints answer their errors in RFC 6749's shape, the pipeline's too.
    const err = asOAuth2Error(operationId, asApiError(thrown, request));
    const [status, body] = errorResponse(err, request.state?.log);
    if (err instanceof ApiError) reply.headers(err.headers());
    // In tests every error body an operation answers is checked too (a 500 is a failure anyway).
    const check = operationId && status < 500 ? responseCheck?.(operationId, status) : null;
    if (check && !check(body)) {
      request.state.log.error({ errors: check.errors, status, body }, "error body breaks the contract");
      return reply.code(500).send({ error: "ResponseContractViolation", detail: JSON.stringify(check.errors?.slice(0, 5)) });
    }
    reply.code(status).send(body);
  });
  app.setNotFoundHandler(miss);

  const callerOf = async (request: FastifyRequest, reply: FastifyReply, operationId: OperationId): Promise<Caller> => {
    const meta = operations[operationId];
    const presented = request.headers.authorization !== undefined;
    const call = { operationId, security: meta.security, presented, address: () => clientIp(request) };
    const [caller, limit] = await limitedAuthentication(o.rateLimits, call, () => resolveCaller(o.callers, operationId, meta, request));
    counted(reply, limit);
    const named = request.headers["polar-organization"];
    checkNamedOrganization(caller, typeof named === "string" ? named : undefined);
    if (caller.kind !== "customer") return caller;
    await requirePortalSection(o.knex, operationId, caller);
    return holdToPurchase(o.knex, operationId, caller);
  };

  for (const op of ops) {
    const operationId = op.operationId;
    const meta = operations[operationId];
    const handler = handlers[operationId] as (input: unknown, ctx: Ctx) => Promise<{ status: number; body: unknown }>;
    const json = jsonOf(operationId);
    app.route<{ Params: Record<string, string> }>({
      method: op.method.toUpperCase(),
      url: op.url,
      schema: op.schema,
      // A batch of 1,000 events with metadata can pass 1 MB: the ingest route takes up to 16 MB.
      bodyLimit: op.path === "/v1/events/ingest" ? 16 * 1024 * 1024 : 1024 * 1024,
      // A path parameter is a whole segment: `/v1/benefits/` is the collection, not an item with an empty id.
      onRequest: (request, reply, done) => {
        if (Object.values(request.params).includes("")) return reply.callNotFound();
        if (op.path.includes("{") && concrete.has(pathOf(request))) return reply.callNotFound();
        // Known before the body is read: an unreadable body is answered in the operation's error shape.
        request.state.operationId = operationId;
        done();
      },
      // 5. The caller, under the rate limits and the portal's sections.
      preValidation: async (request, reply) => {
        request.state.operationId = operationId;
        // With tracing on: the server span is named by its route, as OpenTelemetry's HTTP conventions have it.
        request.state.span?.updateName(`${request.method} ${op.path}`);
        request.state.span?.setAttributes({ "http.route": op.path, "borealis.operation_id": operationId });
        request.state.caller = await callerOf(request, reply, operationId);
      },
      // 7. Input PostgreSQL cannot store.
      preHandler: async (request) => rejectUnstorableInput({ path: request.params, query: request.query, body: request.body }),
      // 8. The handler in the idempotency journal; 9. the answer.
      handler: async (request, reply) => {
        const { state } = request;
        const params = request.params;
        const key = keyOfRequest(request, operationId, state.caller!, params);
        const replayed = () => reply.header(REPLAYED_HEADER, "true");
        const result = await runOnce(
          o.knex,
          key,
          (uow, idempotency) => {
            const ctx: Ctx = {
              db: uow.db,
              uow,
              caller: state.caller!,
              get log() {
                return state.log;
              },
              requestId: state.requestId,
              headers: request.headers,
              apiVersion: state.apiVersion,
              auth: o.auth,
              publicUrl: o.authConfig.baseURL,
              // Worked out only for the operations that count per client.
              get clientIp() {
                return clientAddress(request, o.authConfig) ?? null;
              },
              idempotency,
            };
            return handler({ params, query: request.query, body: request.body }, ctx);
          },
          replayed,
        );
        const check = meta.successContentType === "application/json" ? responseCheck?.(operationId, result.status) : null;
        if (check && !check(result.body)) {
          throw new ResponseContractViolation(
            `${operationId} ${result.status} breaks the contract: ${JSON.stringify(check.errors?.slice(0, 5))}`,
          );
        }
        reply.code(statusFor(operationId, result.status, request.headers["user-agent"]));
        if (result.status === 204) return reply.send();
        if (meta.successContentType === "text/csv") {
          // The official client accepts only JSON (and reads the CSV as a JSON string); anyone else gets the file.
          const accepted = negotiate(request.headers.accept ?? "*/*", ["text/csv", "application/json"]);
          if (accepted === "application/json") return reply.type("application/json; charset=utf-8").send(JSON.stringify(result.body));
          return reply.type("text/csv; charset=utf-8").send(result.body);
        }
        return reply.type("application/json; charset=utf-8").send(json(result.status, state.apiVersion, result.body));
      },
    });
  }
}
