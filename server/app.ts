// The HTTP application: Fastify with the one request pipeline (server/http/pipeline.ts) serving
// the contract's operations, the routes outside the contract as plugins, and the pages beside
// the API (health, metrics, the contract and its docs, the browser apps).
import { readFile } from "node:fs/promises";
import type { Server } from "node:http";
import type { Socket } from "node:net";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerFactory } from "fastify";
import fastifyStatic from "@fastify/static";
import type { Knex } from "knex";
import type { OrganizationTokens } from "./organization-access-tokens/verifier.js";
import type { Health } from "./observability/health.js";
import type { RateLimits } from "./kit/rate-limits.js";
import type { ResponseChecks } from "./kit/contract.js";
import { createMetrics } from "./observability/metrics.js";
import { parseQuery } from "./http/parsers.js";
import { contractRoutes } from "../generated/routes.js";
import { generatedDir } from "./kit/openapi.js";
import { installPipeline } from "./http/pipeline.js";
import { storageRoutes } from "./files/storage.js";
import { checkoutLinkRoutes } from "./checkout-links/routes.js";
import { emailLinkRoutes } from "./emails/invoice-link.js";
import { stripeWebhookRoutes } from "./checkouts/stripe-webhook.js";
import { sandboxRoutes } from "./checkouts/sandbox-authenticate.js";
import { uiAppPages, type UiApp } from "./kit/ui-apps.js";
import { buyerPageHeaders } from "./buyer-pages.js";
import { faviconRoutes } from "./favicon.js";
import { UI_APPS } from "./ui-apps.js";
import { trustedOrigins, type AuthConfig } from "./auth/config.js";
import type { BorealisAuth } from "./auth/instance.js";
import { authRoutes } from "./auth/routes.js";
import { wellKnownRoutes } from "./oauth2/routes.js";
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
  /** The answers' checks to use (tests share one set per process); made from the contract when absent. */
  responseChecks?: ResponseChecks;
  /** The browser apps served beside the API (server/ui-apps.ts unless told). */
  uiApps?: readonly UiApp[];
  /** /healthz and /readyz (server/observability/health.ts), drained by server/main.ts. */
  health: Health;
  rateLimits: RateLimits;
  /** The node:http server to serve on, and what a request it cannot read is answered (server/main.ts). */
  serverFactory: FastifyServerFactory;
  clientErrorHandler: (err: NodeJS.ErrnoException, socket: Socket) => void;
}

/** The application, its routes registered; `await app.ready()` before it serves. */
export function createApp({
  knex,
  auth,
  authConfig,
  tokens,
  validateResponses = false,
  responseChecks,
  uiApps = UI_APPS,
  health,
  rateLimits,
  serverFactory,
  clientErrorHandler,
}: AppOptions): FastifyInstance<Server> {
  const trustProxy = setting("TRUST_PROXY");
  const metrics = createMetrics(knex, { token: setting("METRICS_TOKEN") });
  const app = Fastify<Server>({
    serverFactory,
    clientErrorHandler,
    // A hop count trusts that many proxies in front, as Express counted them.
    trustProxy: typeof trustProxy === "number" ? (_address: string, hop: number) => hop < trustProxy : trustProxy,
    // The contract's collection paths end in "/" exactly as the official client sends them.
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 8192, querystringParser: parseQuery },
    exposeHeadRoutes: false,
    // Every request's line is logged by the pipeline (with its request id): Fastify logs nothing.
    logger: false,
    return503OnClosing: false,
  });
  installPipeline(
    app,
    {
      knex,
      auth,
      authConfig,
      callers: { db: knex, auth, tokens, trusted: trustedOrigins(authConfig) },
      contract: contractRoutes(),
      rateLimits,
      metrics,
      docsHtmlPath: generatedDir + "docs/index.html",
      validateResponses,
      responseChecks,
    },
    // The hosted checkout, the customer portal and the console: built files and their page (the
    // checkout framed by its embed origin alone; the buyer's pages may load Stripe.js).
    uiAppPages(uiApps, buyerPageHeaders(knex)),
  );
  app.register(fastifyStatic, { root: generatedDir, serve: false });
  // Sign-in, sessions, organizations and members (better-auth); OAuth2 discovery and client registration.
  app.register(authRoutes(auth, authConfig));
  app.register(wellKnownRoutes(auth, authConfig.baseURL));
  // File bytes (local storage: part uploads, signed downloads, public media).
  app.register(storageRoutes(knex));
  // Stripe webhooks, verified on the raw body; the sandbox processor's 3-D Secure challenge.
  app.register(stripeWebhookRoutes(knex));
  app.register(sandboxRoutes(knex));
  // A checkout link's url (a fresh checkout, then its page); an email's invoice and download links.
  app.register(checkoutLinkRoutes(knex, rateLimits));
  app.register(emailLinkRoutes(knex));
  // The buyer's pages' default icon (they link the organization's avatar when it has one).
  app.register(faviconRoutes());
  health.routes(app);
  app.get("/metrics", metrics.route);
  // The contract and its docs page, read on each request (a regenerated one is served at once).
  const file = (name: string, type: string) => async (_req: unknown, reply: FastifyReply) =>
    reply.type(type).send(await readFile(generatedDir + name));
  for (const url of ["/openapi.json", "/openapi.json/"]) app.get(url, file("openapi.json", "application/json; charset=utf-8"));
  for (const url of ["/docs", "/docs/"]) app.get(url, file("docs/index.html", "text/html; charset=utf-8"));
  return app;
}
