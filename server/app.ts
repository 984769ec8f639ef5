// The HTTP application: Express in front, openapi-backend routing by operationId against the
// bundled contract (server/http/contract.ts, routing.ts), authentication and scope checks per
// operation, errors as their documented bodies (server/http/errors.ts), and a request id on every log line.
import { randomUUID } from "node:crypto";
import express, { type Request, type Response, type NextFunction, type RequestHandler } from "express";
import { trace, type Span } from "@opentelemetry/api";
import type { Context as OpenApiContext } from "openapi-backend";
import type { ErrorObject } from "ajv";
import type { Knex } from "knex";
import { operations } from "../generated/operations.js";
import type { OperationId } from "../generated/handlers.js";
import type { OrganizationTokens } from "./organization-access-tokens/verifier.js";
import { ApiError, RequestValidationError, ResourceNotFound } from "./kit/errors.js";
import { rejectUnstorableInput } from "./kit/input.js";
import { logger, type Logger } from "./kit/logger.js";
import type { Ctx } from "./kit/context.js";
import { handlers } from "./handlers.js";
import { createHealth, HEALTH_PATHS, type Health } from "./http/health.js";
import { keyOf, runIdempotent } from "./http/idempotency.js";
import { createRateLimits, limitedAuthentication, type RateLimits } from "./http/rate-limit.js";
import { publicCors, securityHeaders, trustProxySetting } from "./http/security.js";
import { buyerPageHeaders } from "./http/buyer-pages.js";
import { createMetrics, type Metrics } from "./http/metrics.js";
import { createBackend, generatedDir, readContract } from "./http/contract.js";
import { apiVersion, statusFor, versionedShapes, versionOf } from "./http/api-versions.js";
import { errorBody, errorResponse, ResponseContractViolation, toIssues } from "./http/errors.js";
import {
  allowedMethods,
  dispatch,
  installFastParsing,
  installFastRouting,
  parseQuery,
  sequence,
  under,
  type RouteMisses,
} from "./http/routing.js";
import { matchedOperation, operationLane, type ExpressBorn, type RequestListener } from "./http/lane.js";
import { storageRoutes } from "./files/storage.js";
import { checkoutLinkRoutes } from "./checkout-links/routes.js";
import { emailLinkRoutes } from "./emails/invoice-link.js";
import { stripeWebhookRoutes } from "./checkouts/stripe-webhook.js";
import { sandboxRoutes } from "./checkouts/sandbox-authenticate.js";
import { uiAppRoutes, type UiApp } from "./kit/ui-apps.js";
import { UI_APPS } from "./ui-apps.js";
import { requirePortalSection } from "./customer-portal/sections.js";
import { holdToPurchase } from "./customer-portal/purchase.js";
import { trustedOrigins, type AuthConfig } from "./auth/config.js";
import type { BorealisAuth } from "./auth/instance.js";
import { AUTH_BASE_PATH, authRoutes, clientAddress } from "./auth/routes.js";
import { checkNamedOrganization, resolveCaller } from "./auth/callers.js";
import { asOAuth2Error } from "./oauth2/errors.js";
import { clientRegistrationRoutes, wellKnownRoutes } from "./oauth2/routes.js";
import { setting } from "./config.js";

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
  /** The server's request and response classes (server/http/lane.ts), led to this app's Express prototypes. */
  born?: ExpressBorn;
}

/** An operation's JSON answer, written as is: no ETag hashing, no content-type re-parsing. */
function sendJson(res: Response, body: unknown): void {
  const text = JSON.stringify(body) ?? "null";
  res.setHeader("content-type", "application/json; charset=utf-8");
  res.setHeader("content-length", Buffer.byteLength(text));
  res.end(text);
}

/** Whether a request has a body, as body-parser decides it (type-is's hasBody): a length or a chunked encoding. */
function hasBody(req: Request): boolean {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && !Number.isNaN(Number(length)));
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
  metrics = createMetrics(knex, { token: setting("METRICS_TOKEN") }),
  born,
}: AppOptions): RequestListener {
  const callers = { db: knex, auth, tokens, trusted: trustedOrigins(authConfig) };
  const contract = readContract();
  const api = createBackend(contract);
  // Where API versions differ, the answer's shape is the version's (Polar-Version).
  const shape = versionedShapes(contract);

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
      const caller = await limitedAuthentication(rateLimits, operationId, meta, req, res, () =>
        resolveCaller(callers, operationId, meta, req),
      );
      checkNamedOrganization(caller, req.header("polar-organization"));
      res.locals.caller = caller;
      if (caller.kind === "customer") {
        await requirePortalSection(knex, operationId, caller);
        res.locals.caller = await holdToPurchase(knex, operationId, caller);
      }
    },
    preOperationHandler: (c: OpenApiContext) => {
      rejectUnstorableInput({ path: c.request.params, query: c.request.query, body: c.request.requestBody });
    },
    validationFail: (c: OpenApiContext) => {
      throw new RequestValidationError(toIssues((c.validation.errors ?? []) as ErrorObject[]));
    },
  });
  for (const [operationId, handler] of Object.entries(handlers)) {
    const meta = operations[operationId as OperationId];
    api.register(operationId, async (c: OpenApiContext, _req: Request, res: Response) => {
      const input = { params: c.request.params, query: c.request.query, body: c.request.requestBody };
      const key = keyOf(_req, operationId, res.locals.caller, c.request.params);
      const result = await runIdempotent(knex, key, res, (uow, idempotency) => {
        const ctx: Ctx = {
          db: uow.db,
          uow,
          caller: res.locals.caller,
          get log() {
            return res.locals.log as Logger;
          },
          requestId: res.locals.requestId,
          headers: _req.headers,
          apiVersion: versionOf(res),
          auth,
          publicUrl: authConfig.baseURL,
          // Worked out only for the operations that count per client.
          get clientIp() {
            return clientAddress(_req, authConfig) ?? null;
          },
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
      res.status(statusFor(operationId, result.status, _req.header("user-agent")));
      if (result.status === 204) return void res.end();
      if (meta.successContentType === "text/csv") {
        // The official client accepts only JSON (and reads the CSV as a JSON string); anyone else gets the file.
        if (_req.accepts(["text/csv", "application/json"]) === "application/json") return void res.json(result.body);
        return void res.type("text/csv").send(result.body);
      }
      sendJson(res, shape(operationId, result.status, versionOf(res), result.body));
    });
  }
  api.init();
  installFastRouting(api);
  const allowed = (path: string) => allowedMethods(api, path);
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

  // A request the contract has no operation for.
  const misses: RouteMisses<[Request, Response]> = {
    notFound: () => {
      throw new ResourceNotFound("No such route.");
    },
    methodNotAllowed: (req, res) => {
      res.setHeader("Allow", allowed(req.path).join(", "));
      res.status(405).json(errorBody(405, `${req.method} is not allowed on ${req.path}.`));
    },
  };
  const operation: RequestHandler = async (req, res, next) => {
    try {
      const rawQuery = req.originalUrl.includes("?") ? req.originalUrl.slice(req.originalUrl.indexOf("?") + 1) : "";
      await dispatch(
        api,
        {
          method: req.method,
          path: req.path,
          query: parseQuery(rawQuery) as Record<string, string | string[]>,
          body: req.body,
          headers: req.headers as Record<string, string>,
        },
        misses,
        matchedOperation(res),
        req,
        res,
      );
    } catch (err) {
      next(err);
    }
  };

  // A batch of 1,000 events with metadata can pass 1 MB: the ingest route takes up to 16 MB.
  const ingestJson = under("/v1/events/ingest", express.json({ limit: "16mb", type: ["application/json", "application/*+json"] }));
  const json = express.json({ limit: "1mb", type: ["application/json", "application/*+json"] });
  const urlencoded = express.urlencoded({ extended: false });
  const bodies = sequence([ingestJson, json, urlencoded]);
  const security = securityHeaders({ docsHtmlPath: generatedDir + "docs/index.html" });
  const cors = publicCors(allowed);
  const versions = apiVersion();
  // The prefixes of the routes outside the contract (each an `under` below): the operation lane (server/http/lane.ts) leaves them to Express.
  const OUTSIDE_CONTRACT = {
    auth: AUTH_BASE_PATH,
    wellKnown: "/.well-known/",
    register: "/v1/oauth2/register",
    files: "/files",
    stripe: "/v1/integrations/stripe",
    sandbox: "/v1/integrations/sandbox",
    links: "/v1/checkout-links/",
    emails: "/emails/",
  } as const;
  // One middleware for every request, its steps in order, instead of an Express layer each: the
  // router's per-layer matching was a good part of a small request's CPU and allocations.
  app.use(
    sequence([
      requestContext,
      security,
      cors,
      versions,
      // Sign-in, sessions, organizations and members (better-auth): it reads its own bodies.
      under(OUTSIDE_CONTRACT.auth, authRoutes(auth, authConfig)),
      // OAuth2: discovery at the issuer (our root), client registration (server/oauth2/routes.ts).
      under(OUTSIDE_CONTRACT.wellKnown, wellKnownRoutes(auth, authConfig.baseURL)),
      under(OUTSIDE_CONTRACT.register, clientRegistrationRoutes(auth, authConfig)),
      // File bytes (local storage: part uploads, signed downloads, public media), outside the
      // contract. Before the body parsers: a part is raw bytes whatever its content type.
      under(OUTSIDE_CONTRACT.files, storageRoutes(knex)),
      // Stripe webhooks, outside the contract: verified on the raw body, so before the JSON parser.
      under(OUTSIDE_CONTRACT.stripe, stripeWebhookRoutes(knex)),
      // The sandbox processor's 3-D Secure challenge, outside the contract.
      under(OUTSIDE_CONTRACT.sandbox, sandboxRoutes(knex)),
      // A checkout link's url: opens a fresh checkout and redirects to the hosted checkout page.
      under(OUTSIDE_CONTRACT.links, checkoutLinkRoutes(knex, rateLimits)),
      // An email's invoice link: the signed order's invoice PDF.
      under(OUTSIDE_CONTRACT.emails, emailLinkRoutes(knex)),
      // The hosted checkout, the customer portal and the console: built files and their page (the
      // checkout framed by its embed origin alone; the buyer's pages may load Stripe.js).
      buyerPageHeaders(knex),
      uiAppRoutes(uiApps),
      ingestJson,
      json,
      urlencoded,
      (req, res, next) => (pagePaths.has(req.path.toLowerCase()) ? pages(req, res, next) : next()),
      operation,
    ]),
  );

  const onError = (thrown: unknown, _req: Request, res: Response) => {
    // The OAuth2 endpoints answer their errors in RFC 6749's shape, the pipeline's too.
    const err = asOAuth2Error(res.locals.operation?.operationId, thrown);
    const [status, body] = errorResponse(err, res.locals.log);
    if (err instanceof ApiError) for (const [name, value] of Object.entries(err.headers())) res.setHeader(name, value);
    // In tests every error body an operation answers is checked too (a 500 is a failure anyway).
    if (validateResponses && res.locals.operation && status < 500) {
      const check = api.validateResponse(body, res.locals.operation, status);
      if (check.errors) {
        res.locals.log?.error({ errors: check.errors, status, body }, "error body breaks the contract");
        res.status(500).json({ error: "ResponseContractViolation", detail: JSON.stringify(check.errors.slice(0, 5)) });
        return;
      }
    }
    if (err instanceof ApiError) res.set(err.headers());
    res.status(status).json(body);
  };
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => onError(err, req, res));
  born?.adopt(app);
  // The contract's operations skip the routes above that are not theirs (server/http/lane.ts).
  return operationLane({
    app,
    claimed: Object.values(OUTSIDE_CONTRACT).map((p) => p.toLowerCase()),
    operationOf: (method, path) => api.router.matchOperation({ method, path, headers: {} }),
    // The body parsers only for a request that has a body (their own first test, made once).
    steps: [requestContext, security, cors, versions, (req, res, next) => (hasBody(req) ? bodies(req, res, next) : next()), operation],
    onError,
  });
}
