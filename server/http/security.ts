// Security headers (@fastify/helmet) and CORS (@fastify/cors) on everything the API serves: a CSP
// allowing our own assets only, never framed (but a checkout by its embed origin); /v1 answers get
// the headers that matter for JSON (nosniff, HSTS, no referrer, an empty CSP) and `no-store`. CORS
// only on the public and portal calls, without credentials; the merchant API answers none.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import fastifyCors, { type FastifyCorsOptions, type FastifyCorsOptionsDelegateCallback } from "@fastify/cors";
import fastifyHelmet, { type FastifyHelmetOptions } from "@fastify/helmet";
import Fastify, { type FastifyInstance } from "fastify";

/** Paths any origin may call, without credentials. */
const CORS_PREFIXES = ["/v1/customer-portal/", "/v1/checkouts/client/"];
const CORS: FastifyCorsOptions = {
  origin: "*",
  allowedHeaders: "authorization, content-type, idempotency-key, polar-version, x-request-id",
  exposedHeaders: "ratelimit, ratelimit-policy, retry-after, idempotent-replayed, polar-version, x-request-id",
  maxAge: 600,
  // A preflight without Origin (a tool's, a test's) is answered like a browser's.
  strictPreflight: false,
};
const NO_CORS: FastifyCorsOptions = { origin: false };

/** The SHA-256 CSP sources of a page's inline scripts. */
function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    (m) => `'sha256-${createHash("sha256").update(m[1], "utf8").digest("base64")}'`,
  );
}

/** Helmet's options: a CSP allowing our own assets and the docs page's inline scripts, framed by nobody. */
function helmetOptions(docsHtmlPath: string): FastifyHelmetOptions {
  let docsScripts: string[] = [];
  try {
    docsScripts = inlineScriptHashes(readFileSync(docsHtmlPath, "utf8"));
  } catch {
    /* no docs page: nothing to allow */
  }
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...docsScripts],
        // Redoc (the docs page) styles itself inline.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:"],
        fontSrc: ["'self'", "data:"],
        workerSrc: ["'self'", "blob:"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    // frame-ancestors says it; X-Frame-Options could not name one origin for the checkout.
    frameguard: false,
    crossOriginResourcePolicy: { policy: "cross-origin" },
    referrerPolicy: { policy: "no-referrer" },
  };
}

/** Headers to set, by name. */
type Headers = Record<string, string>;

/** Of helmet's headers, those a JSON answer needs (the others only govern documents). */
const API_ANSWER_HEADERS = [
  "content-security-policy",
  "cross-origin-resource-policy",
  "referrer-policy",
  "strict-transport-security",
  "x-content-type-options",
];
/** A JSON answer loads nothing and is framed by nobody. */
const API_CSP = "default-src 'none';frame-ancestors 'none'";

/**
 * Helmet's headers for a document and for a /v1 answer. They depend on nothing of the request (no
 * nonces), and @fastify/helmet rebuilds them on every request (12–15 µs of CPU a request, measured):
 * so they are read once, off a request to an instance of their own.
 */
async function securityHeaders(docsHtmlPath: string): Promise<{ page: Headers; api: Headers }> {
  const probe = Fastify();
  await probe.register(fastifyHelmet, helmetOptions(docsHtmlPath));
  probe.get("/", (_request, reply) => reply.send(reply.getHeaders()));
  const page = (await probe.inject("/")).json<Headers>();
  await probe.close();
  const api: Headers = { "cache-control": "no-store" };
  for (const name of API_ANSWER_HEADERS) api[name] = name === "content-security-policy" ? API_CSP : page[name];
  return { page, api };
}

/**
 * Steps 2 and 3 of the pipeline: the security headers of every answer, and CORS on the public and
 * portal calls, whose preflights are answered with `methodsOf(path)` (the contract's at that path).
 */
export function installSecurity(app: FastifyInstance, o: { docsHtmlPath: string; methodsOf: (path: string) => string[] }): void {
  let headers: { page: Headers; api: Headers } = { page: {}, api: {} };
  app.addHook("onReady", async () => {
    headers = await securityHeaders(o.docsHtmlPath);
  });
  app.addHook("onRequest", (request, reply, done) => {
    reply.headers(request.url.startsWith("/v1/") ? headers.api : headers.page);
    done();
  });
  const delegator: FastifyCorsOptionsDelegateCallback = (request, cb) => {
    const path = request.url.split("?", 1)[0];
    if (!CORS_PREFIXES.some((p) => path.startsWith(p))) return cb(null, NO_CORS);
    if (request.method !== "OPTIONS") return cb(null, CORS);
    const methods = o.methodsOf(path);
    // No operation here: the request goes on to its 404.
    cb(null, Object.assign({}, CORS, methods.length ? { methods } : { preflight: false }));
  };
  app.register(fastifyCors, { delegator });
}
