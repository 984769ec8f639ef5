// The HTTP application: Express in front, openapi-backend routing by operationId against the
// bundled contract, authentication and scope checks per operation, validation errors as 422,
// typed domain errors as their documented bodies, and a request id on every log line.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { STATUS_CODES } from "node:http";
import { fileURLToPath } from "node:url";
import express, { type Request, type RequestHandler, type Response, type NextFunction } from "express";
import { trace, type Span } from "@opentelemetry/api";
import { OpenAPIBackend, type Context as OpenApiContext } from "openapi-backend";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { ErrorObject, Options as AjvOptions } from "ajv";
import type { Knex } from "knex";
import { operations } from "../generated/operations.js";
import type { OperationId } from "../generated/handlers.js";
import type { OrganizationTokens } from "./kit/org-tokens.js";
import { ApiError, RequestValidationError, ResourceNotFound, type ValidationIssue } from "./kit/errors.js";
import { INPUT_ERROR_CODES, rejectNulCharacters } from "./kit/input.js";
import { logger, type Logger } from "./kit/logger.js";
import type { Ctx } from "./kit/context.js";
import { handlers } from "./handlers.js";
import { createHealth, HEALTH_PATHS, type Health } from "./http/health.js";
import { keyOf, runIdempotent } from "./http/idempotency.js";
import { createRateLimits, limitedAuthentication, type RateLimits } from "./http/rate-limit.js";
import { publicCors, securityHeaders, trustProxySetting } from "./http/security.js";
import { buyerPageHeaders } from "./http/buyer-pages.js";
import { createMetrics, type Metrics } from "./http/metrics.js";
import { storageRoutes } from "./files/storage.js";
import { checkoutLinkRoutes } from "./checkout-links/routes.js";
import { stripeWebhookRoutes } from "./processors/webhook.js";
import { sandboxRoutes } from "./processors/sandbox-routes.js";
import { uiAppRoutes, type UiApp } from "./kit/ui-apps.js";
import { UI_APPS } from "./ui-apps.js";
import { requirePortalSection } from "./customer-portal/sections.js";
import { trustedOrigins, type AuthConfig } from "./auth/config.js";
import type { BorealisAuth } from "./auth/instance.js";
import { AUTH_BASE_PATH, authRoutes } from "./auth/routes.js";
import { resolveCaller } from "./auth/callers.js";
import { clientRegistrationRoutes, wellKnownRoutes } from "./oauth2/routes.js";

const generatedDir = fileURLToPath(new URL("../generated/", import.meta.url));

export interface AppOptions {
  knex: Knex;
  /** better-auth, served at /api/auth; /v1 also accepts its session cookie. */
  auth: BorealisAuth;
  authConfig: AuthConfig;
  /** Verifies organization access tokens (and keeps its cache right across processes). */
  tokens: OrganizationTokens;
  /** Validate every response against the contract; a violation becomes a 500 (tests turn this on). */
  validateResponses?: boolean;
  /** The browser apps served beside the API (server/ui-apps.ts unless told). */
  uiApps?: readonly UiApp[];
  /** /healthz and /readyz (server/http/health.ts); one over `knex` unless given. */
  health?: Health;
  /** Rate limits (server/http/rate-limit.ts); the environment's policies unless given. */
  rateLimits?: RateLimits;
  /** Express's `trust proxy` (TRUST_PROXY): which proxies' X-Forwarded-For give the client address. */
  trustProxy?: boolean | number | string;
  /** Prometheus metrics at /metrics (server/http/metrics.ts); METRICS_TOKEN asks for a bearer token. */
  metrics?: Metrics;
}

// openapi-backend builds an Ajv per operation on its first request (quick: true); checking each
// schema against the meta-schema there compiled the meta-schema every time (half of a first
// request's cost). The contract is linted when it is bundled (codegen), not at run time.
function ajvFactory(_orig: unknown, opts: AjvOptions) {
  // discriminator: a tagged union (prices by amount_type, benefits by type) is checked against the
  // variant its tag names only, so a 422 lists that variant's complaints, not one per variant.
  const ajv = new Ajv2020.default({ ...opts, strict: false, allErrors: true, validateFormats: true, validateSchema: false, discriminator: true });
  addFormats.default(ajv);
  // openapi-backend's customizer is typed with ajv's draft-07 class; the 2020-12 class is the same
  // engine at run time but a different class to the compiler (private members).
  // eslint-disable-next-line no-restricted-syntax -- third-party class typing, not the contract edge
  return ajv as never;
}

/**
 * The contract as Ajv validates it: a discriminator's `mapping` (which codegen reads) removed,
 * since Ajv picks the variant by the tag's `const` in each of the union's schemas instead; and
 * the union typed as an object, since Ajv's discriminator lets anything else (a string, null, a
 * list) through without looking at a variant.
 */
function forValidation<T>(node: T): T {
  if (Array.isArray(node)) return node.map(forValidation) as T;
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "discriminator" && value && typeof value === "object") {
      const { mapping: _mapping, ...rest } = value as Record<string, unknown>;
      out[key] = rest;
    } else out[key] = forValidation(value);
  }
  if (out.discriminator && out.type === undefined) out.type = "object";
  return out as T;
}

/** Ajv errors of the request → FastAPI-style issues with `loc` starting at body/query/path. */
export function toIssues(errors: ErrorObject[]): ValidationIssue[] {
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  for (const e of errors) {
    const parts = e.instancePath.split("/").slice(1).map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
    const where = parts.shift();
    const head = where === "requestBody" ? "body" : where === "path" ? "path" : where ?? "body";
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

/**
 * The query string as the contract reads it: a repeated key is a list (`id=a&id=b`, however many),
 * `key[sub]=v` is a deepObject entry (`metadata[tier]=pro`), nested as deep as the brackets go
 * (`metadata[a][b]=v` is an object inside `metadata`, which the validator then refuses like a
 * body's). A key given both as a value and as an object (`customer_id=a&customer_id[x]=b`) keeps
 * both in an object, which no scalar or list parameter accepts. Keys that would reach
 * Object.prototype are dropped.
 */
const UNSAFE_KEYS = new Set(["__proto__", "constructor", "prototype"]);
const QUERY_KEY = /^([^[\]]+)((?:\[[^\]]*\])*)$/;
export function parseQuery(raw: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const add = (target: Record<string, unknown>, key: string, value: string) => {
    const cur = Object.hasOwn(target, key) ? target[key] : undefined;
    if (cur && typeof cur === "object" && !Array.isArray(cur)) add(cur as Record<string, unknown>, "", value);
    else target[key] = cur === undefined ? value : Array.isArray(cur) ? [...cur, value] : [cur, value];
  };
  for (const [key, value] of new URLSearchParams(raw)) {
    const m = QUERY_KEY.exec(key);
    const path = m ? [m[1], ...Array.from(m[2].matchAll(/\[([^\]]*)\]/g), (x) => x[1])] : [key];
    if (path.some((k) => UNSAFE_KEYS.has(k))) continue;
    let target = out;
    for (const k of path.slice(0, -1)) {
      const cur = Object.hasOwn(target, k) ? target[k] : undefined;
      if (cur && typeof cur === "object" && !Array.isArray(cur)) target = cur as Record<string, unknown>;
      else target = target[k] = cur === undefined ? {} : { "": cur };
    }
    add(target, path[path.length - 1], value);
  }
  return out;
}

/**
 * openapi-backend rebuilds its whole operation list, and a RegExp per path template, on every
 * request (router.getOperations / matchOperation). The contract is fixed once loaded, so build the
 * list and the matchers once; matching keeps the library's rules (exact path first, then the most
 * specific template, 404 / 405 errors as it throws them).
 */
function installFastRouting(api: OpenAPIBackend): void {
  const router = api.router;
  const operations = router.getOperations();
  router.getOperations = () => operations;
  const byId = new Map(operations.map((op) => [op.operationId, op]));
  router.getOperation = (operationId: string) => byId.get(operationId);
  const templates = operations
    .filter((op) => op.path.includes("{"))
    .map((op) => ({ op, re: new RegExp(`^${op.path.replace(/\{.*?\}/g, "[^/]+")}$`), specificity: op.path.replace(/\{.*?\}/g, "").length }))
    .sort((a, b) => b.specificity - a.specificity);
  const exact = new Map<string, (typeof operations)[number][]>();
  for (const op of operations) exact.set(op.path, [...(exact.get(op.path) ?? []), op]);
  router.matchOperation = ((req: { path: string; method: string }, strict?: boolean) => {
    const path = (req.path.trim().startsWith("/") ? req.path.trim() : `/${req.path.trim()}`).split("?")[0];
    const method = req.method.trim().toLowerCase();
    const hit = exact.get(path)?.find((op) => op.method === method);
    if (hit) return hit;
    const candidates = templates.filter((t) => t.re.test(path));
    const match = candidates.find((t) => t.op.method === method)?.op;
    if (match) return match;
    if (!strict) return undefined;
    if (candidates.length || exact.has(path)) throw new Error("405-methodNotAllowed: this method is not registered for the route");
    throw new Error("404-notFound: no route matches request");
  }) as typeof router.matchOperation;
}

/** A copy of a parsed query (strings, lists, one level of objects): the validator coerces its copy in place. */
function cloneQuery(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cloneQuery);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) out[key] = cloneQuery((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

/**
 * openapi-backend parses each request four times (before routing, after, for validation, after
 * coercion), each time deep-cloning the query with lodash and compiling the operation's path
 * template anew. The same parse, with the templates compiled once, for the requests this app
 * hands it (a parsed query object, a parsed or absent body); anything else (cookies, a raw body)
 * goes the library's own way.
 */
function installFastParsing(api: OpenAPIBackend): void {
  const router = api.router;
  const original = router.parseRequest.bind(router);
  const templates = new Map<string, { re: RegExp; names: string[] }>();
  const pathParams = (template: string, path: string): Record<string, string> => {
    let t = templates.get(template);
    if (!t) {
      // As bath-es5 (the library's matcher) builds it: each {name} matches one segment, decoded.
      t = {
        re: new RegExp("^" + template.replace(/\{[A-Za-z0-9_-]+\}/g, "([^\\/]*)") + "$"),
        names: (template.match(/\{[A-Za-z0-9_-]+\}/g) ?? []).map((x) => x.slice(1, -1)),
      };
      templates.set(template, t);
    }
    const m = t.re.exec(path);
    const out: Record<string, string> = {};
    if (m) t.names.forEach((name, i) => (out[name] = decodeURIComponent(m[i + 1])));
    return out;
  };
  router.parseRequest = ((req: Parameters<typeof original>[0], operation?: Parameters<typeof original>[1]) => {
    const rawHeaders = (req.headers ?? {}) as Record<string, string | string[]>;
    if (rawHeaders.cookie !== undefined || typeof req.query !== "object" || (req.body && typeof req.body !== "object")) {
      return original(req, operation);
    }
    const headers: Record<string, string | string[]> = {};
    for (const key of Object.keys(rawHeaders)) headers[key.toLowerCase()] = rawHeaders[key];
    const query = cloneQuery(req.query) as Record<string, unknown>;
    const normalized = router.normalizeRequest(req);
    let params: Record<string, string> = {};
    if (operation) {
      params = pathParams(operation.path, router.normalizePath(normalized.path));
      // The library's handling of query parameters with a style of their own, unchanged.
      for (const name in query) {
        if (!query[name]) continue;
        const parameter = operation.parameters?.find((p) => !("$ref" in p) && p?.in === "query" && p?.name === name) as
          | { content?: Record<string, unknown>; explode?: boolean; style?: string }
          | undefined;
        if (!parameter) continue;
        if (parameter.content?.["application/json"]) query[name] = JSON.parse(query[name] as string);
        else if (parameter.explode === false) {
          const value = (Array.isArray(query[name]) ? (query[name] as string[])[0] : query[name]) as string;
          let decoded = value.replace(/%2C/g, ",");
          if (parameter.style === "spaceDelimited") decoded = decoded.replace(/ /g, ",").replace(/%20/g, ",");
          if (parameter.style === "pipeDelimited") decoded = decoded.replace(/\|/g, ",").replace(/%7C/g, ",");
          query[name] = decoded.split(",");
        }
      }
    }
    return { ...normalized, params, headers, query, cookies: {}, requestBody: req.body };
  }) as typeof router.parseRequest;
}

export class ResponseContractViolation extends Error {}

/** A router consulted only for paths under `prefix` (the others skip its layers); case-insensitive like Express routing. */
function under(prefix: string, router: RequestHandler): RequestHandler {
  return (req, res, next) => (req.path.toLowerCase().startsWith(prefix) ? router(req, res, next) : next());
}

/** Runs the steps one after the other as one middleware; an error skips the rest. */
function sequence(steps: RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    let i = 0;
    const step = (err?: unknown): void => {
      // "route" / "router" (a sub-router done with the request) go on like a plain next().
      if (err && err !== "route" && err !== "router") return next(err);
      const handler = steps[i++];
      if (!handler) return next();
      void handler(req, res, step);
    };
    step();
  };
}

/** An operation's JSON answer, written as is: no ETag hashing, no content-type re-parsing. */
function sendJson(res: Response, body: unknown): void {
  const text = JSON.stringify(body) ?? "null";
  res.setHeader("content-type", "application/json; charset=utf-8");
  res.setHeader("content-length", Buffer.byteLength(text));
  res.end(text);
}

/** The status and body an error answers: typed errors as the contract documents them, bad input as 4xx, the rest 500. */
function errorResponse(err: unknown, log: Logger | undefined): [number, unknown] {
  if (err instanceof ApiError) return [err.status, err.body()];
  if (err instanceof ResponseContractViolation) {
    log?.error({ err }, "response breaks the contract");
    return [500, { error: "ResponseContractViolation", detail: err.message }];
  }
  const e = err as { type?: string; status?: number; message?: string; code?: string };
  if (e?.code && INPUT_ERROR_CODES.has(e.code)) {
    log?.warn({ err }, "input rejected by the database");
    return [422, { detail: [{ loc: ["body"], msg: "Invalid value", type: "value_error" }] }];
  }
  if (e?.type === "entity.parse.failed") {
    return [422, { detail: [{ loc: ["body"], msg: `JSON decode error: ${e.message}`, type: "json_invalid" }] }];
  }
  // Express's body parsers (413 too large, 415 charset, 400 aborted or bad encoding) and the like.
  if (e?.status && e.status >= 400 && e.status < 500) return [e.status, errorBody(e.status, e.message ?? STATUS_CODES[e.status] ?? "Bad request")];
  log?.error({ err }, "unhandled error");
  return [500, errorBody(500, "An unexpected error occurred.")];
}

/** The contract's body for an error without a typed name of its own: the status's name and a detail. */
export function errorBody(status: number, detail: string): { error: string; detail: string } {
  return { error: (STATUS_CODES[status] ?? "Error").replace(/[^A-Za-z]/g, ""), detail };
}

/** A client's request id is kept when short and plain (so it can be logged and echoed safely), else ours replaces it. */
const PLAIN_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
export function requestIdOf(given: string | undefined): string {
  return given !== undefined && PLAIN_REQUEST_ID.test(given) ? given : randomUUID();
}

export function createApp({
  knex,
  auth,
  authConfig,
  tokens,
  validateResponses = false,
  uiApps = UI_APPS,
  health = createHealth(knex),
  rateLimits = createRateLimits(knex),
  trustProxy = trustProxySetting(),
  metrics = createMetrics(knex, { token: process.env.METRICS_TOKEN || undefined }),
}: AppOptions): express.Express {
  const callers = { db: knex, auth, tokens, trusted: trustedOrigins(authConfig) };
  const definition = forValidation(JSON.parse(readFileSync(generatedDir + "openapi.json", "utf8")));
  const api = new OpenAPIBackend({
    definition,
    quick: true,
    validate: true,
    // The contract's collection paths end in "/" exactly as the official client sends them.
    ignoreTrailingSlashes: false,
    coerceTypes: true,
    ajvOpts: { strict: false },
    customizeAjv: ajvFactory,
  });

  api.register({
    postRoutingHandler: async (c: OpenApiContext, req: Request, res: Response) => {
      if (!c.operation) return; // also called when routing failed; notFound answers then
      res.locals.operation = c.operation;
      const operationId = c.operation.operationId as OperationId;
      // With tracing on: the request's server span is named by its route, as OpenTelemetry's
      // HTTP conventions have it, and says which operation it ran.
      const span = res.locals.span as Span | undefined;
      if (span) {
        const route = c.operation.path;
        span.updateName(`${req.method} ${route}`);
        span.setAttributes({ "http.route": route, "borealis.operation_id": operationId });
      }
      const meta = operations[operationId];
      const caller = await limitedAuthentication(rateLimits, operationId, meta, req, res, () => resolveCaller(callers, operationId, meta, req));
      res.locals.caller = caller;
      if (caller.kind === "customer") await requirePortalSection(knex, operationId, caller);
    },
    preOperationHandler: (c: OpenApiContext) => {
      rejectNulCharacters({ path: c.request.params, query: c.request.query, body: c.request.requestBody });
    },
    validationFail: (c: OpenApiContext) => {
      throw new RequestValidationError(toIssues((c.validation.errors ?? []) as ErrorObject[]));
    },
    notFound: () => {
      throw new ResourceNotFound("No such route.");
    },
    methodNotAllowed: (_c: OpenApiContext, req: Request, res: Response) => {
      res.setHeader("Allow", allowedMethods(req.path).join(", "));
      res.status(405).json(errorBody(405, `${req.method} is not allowed on ${req.path}.`));
    },
  });
  for (const [operationId, handler] of Object.entries(handlers)) {
    const meta = operations[operationId as OperationId];
    api.register(operationId, async (c: OpenApiContext, _req: Request, res: Response) => {
      const input = { params: c.request.params, query: c.request.query, body: c.request.requestBody };
      const key = keyOf(_req, operationId, res.locals.caller, c.request.params);
      const result = await runIdempotent(knex, key, res, (db, idempotency) => {
        const ctx: Ctx = {
          db,
          caller: res.locals.caller,
          get log() {
            return res.locals.log as Logger;
          },
          requestId: res.locals.requestId,
          headers: _req.headers,
          auth,
          publicUrl: authConfig.baseURL,
          clientIp: _req.ip ?? null,
          idempotency,
        };
        return (handler as (i: unknown, ctx: Ctx) => Promise<{ status: number; body: unknown }>)(input, ctx);
      });
      if (validateResponses && meta.successContentType === "application/json") {
        const check = api.validateResponse(result.body, c.operation, result.status);
        if (check.errors) {
          throw new ResponseContractViolation(
            `${operationId} ${result.status} breaks the contract: ${JSON.stringify(check.errors.slice(0, 5))}`,
          );
        }
      }
      res.status(result.status);
      if (result.status === 204) return void res.end();
      if (meta.successContentType === "text/csv") {
        // The official client accepts only JSON (and reads the CSV as a JSON string); anyone else gets the file.
        if (_req.accepts(["text/csv", "application/json"]) === "application/json") return void res.json(result.body);
        return void res.type("text/csv").send(result.body);
      }
      sendJson(res, result.body);
    });
  }
  api.init();
  installFastRouting(api);
  // The methods of the path the URL names: a concrete path (`/v1/license-keys/activate`) over
  // the templates it also fits (`/v1/license-keys/{id}`), as the contract reads it.
  function allowedMethods(path: string): string[] {
    const fitting = api.router.getOperations().filter((op) => new RegExp(`^${op.path.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(path));
    const concrete = fitting.filter((op) => op.path === path);
    return [...new Set((concrete.length ? concrete : fitting).map((op) => op.method.toUpperCase()))];
  }
  installFastParsing(api);

  const app = express();
  app.disable("x-powered-by");
  app.set("query parser", "simple");
  app.set("etag", false); // nothing here answers conditional requests; hashing every body costs
  if (trustProxy !== undefined) app.set("trust proxy", trustProxy);
  const requestContext: RequestHandler = (req, res, next) => {
    const requestId = requestIdOf(req.header("x-request-id"));
    res.locals.requestId = requestId;
    // The request's logger is made when something logs (most requests log nothing but the line below).
    let log: Logger | undefined;
    Object.defineProperty(res.locals, "log", { get: () => (log ??= logger.child({ requestId })), enumerable: true });
    res.setHeader("x-request-id", requestId);
    // The HTTP server span (only when tracing is on, server/kit/telemetry.ts).
    const span = trace.getActiveSpan();
    if (span) {
      span.setAttribute("borealis.request_id", requestId);
      res.locals.span = span;
    }
    const started = process.hrtime.bigint();
    const logged = logger.isLevelEnabled("info");
    res.on("finish", () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      metrics.observe(req, res, ms / 1000);
      if (logged) res.locals.log.info({ method: req.method, path: req.path, status: res.statusCode, ms }, "request");
    });
    next();
  };

  const pages = express.Router();
  pages.use(health.routes);
  pages.get("/metrics", metrics.route);
  pages.get("/openapi.json", (_req, res) => void res.sendFile(generatedDir + "openapi.json"));
  pages.get(["/docs", "/docs/"], (_req, res) => void res.sendFile(generatedDir + "docs/index.html"));
  const pagePaths = new Set([...HEALTH_PATHS, "/metrics", "/openapi.json", "/openapi.json/", "/docs", "/docs/"]);

  const operation: RequestHandler = async (req, res, next) => {
    try {
      const rawQuery = req.originalUrl.includes("?") ? req.originalUrl.slice(req.originalUrl.indexOf("?") + 1) : "";
      await api.handleRequest(
        { method: req.method, path: req.path, query: parseQuery(rawQuery) as Record<string, string | string[]>, body: req.body, headers: req.headers as Record<string, string> },
        req,
        res,
      );
    } catch (err) {
      next(err);
    }
  };

  // One middleware for every request, its steps in order, instead of an Express layer each: the
  // router's per-layer matching was a good part of a small request's CPU and allocations.
  app.use(
    sequence([
      requestContext,
      securityHeaders({ docsHtmlPath: generatedDir + "docs/index.html" }),
      publicCors(allowedMethods),
      // Sign-in, sessions, organizations and members (better-auth): it reads its own bodies.
      under(AUTH_BASE_PATH, authRoutes(auth, authConfig)),
      // OAuth2: discovery at the issuer (our root), client registration (server/oauth2/routes.ts).
      under("/.well-known/", wellKnownRoutes(auth, authConfig.baseURL)),
      under("/v1/oauth2/register", clientRegistrationRoutes(auth, authConfig.baseURL)),
      // File bytes (local storage: part uploads, signed downloads, public media), outside the
      // contract. Before the body parsers: a part is raw bytes whatever its content type.
      under("/files", storageRoutes(knex)),
      // Stripe webhooks, outside the contract: verified on the raw body, so before the JSON parser.
      under("/v1/integrations/stripe", stripeWebhookRoutes(knex)),
      // The sandbox processor's 3-D Secure challenge, outside the contract.
      under("/v1/integrations/sandbox", sandboxRoutes(knex)),
      // A checkout link's url: opens a fresh checkout and redirects to the hosted checkout page.
      under("/v1/checkout-links/", checkoutLinkRoutes(knex, rateLimits)),
      // The hosted checkout, the customer portal and the console: built files and their page (the
      // checkout framed by its embed origin alone; the buyer's pages may load Stripe.js).
      buyerPageHeaders(knex),
      uiAppRoutes(uiApps),
      // A batch of 1,000 events with metadata can pass 1 MB: the ingest route takes up to 16 MB.
      under("/v1/events/ingest", express.json({ limit: "16mb", type: ["application/json", "application/*+json"] })),
      express.json({ limit: "1mb", type: ["application/json", "application/*+json"] }),
      express.urlencoded({ extended: false }),
      (req, res, next) => (pagePaths.has(req.path.toLowerCase()) ? pages(req, res, next) : next()),
      operation,
    ]),
  );

  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const [status, body] = errorResponse(err, res.locals.log);
    // In tests every error body an operation answers is checked too (a 500 is a failure anyway).
    if (validateResponses && res.locals.operation && status < 500) {
      const check = api.validateResponse(body, res.locals.operation, status);
      if (check.errors) {
        res.locals.log?.error({ errors: check.errors, status, body }, "error body breaks the contract");
        res.status(500).json({ error: "ResponseContractViolation", detail: JSON.stringify(check.errors.slice(0, 5)) });
        return;
      }
    }
    res.status(status).json(body);
  });
  return app;
}
