// Security headers and CORS for everything the API serves: helmet's headers and a CSP allowing
// our own assets only, never framed (but a checkout by its embed origin); /v1 answers get the
// headers that matter for JSON (nosniff, HSTS, no referrer, an empty CSP) and `no-store`. CORS only
// on the public and portal calls, without credentials; the merchant API answers none.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import helmet from "helmet";
import { setting, type Env } from "../config.js";

/** Paths any origin may call, without credentials. */
const CORS_PREFIXES = ["/v1/customer-portal/", "/v1/checkouts/client/"];
const CORS_ALLOW_HEADERS = "authorization, content-type, idempotency-key, polar-version, x-request-id";
const CORS_EXPOSE_HEADERS = "ratelimit, ratelimit-policy, retry-after, idempotent-replayed, polar-version, x-request-id";

/** The SHA-256 CSP sources of a page's inline scripts. */
function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    (m) => `'sha256-${createHash("sha256").update(m[1], "utf8").digest("base64")}'`,
  );
}

/** Headers to set, by name. */
export type HeaderList = readonly (readonly [string, number | string | readonly string[]])[];

/** The security headers of an answer on a path: a JSON answer's under /v1, a document's elsewhere. */
export function securityHeaders(opts: { docsHtmlPath: string }): (path: string) => HeaderList {
  let docsScripts: string[] = [];
  try {
    docsScripts = inlineScriptHashes(readFileSync(opts.docsHtmlPath, "utf8"));
  } catch {
    /* no docs page: nothing to allow */
  }
  const base = helmet({
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
  });
  // Helmet's headers depend on nothing of the request here (no nonces, no per-request
  // directives): they are recorded once from a run on a stand-in and set as such on every
  // request, instead of helmet rebuilding the CSP and walking its eleven middlewares each time.
  const stand = new IncomingMessage(new Socket());
  stand.method = "GET";
  const recorder = new HeaderRecorder(stand);
  let failed: unknown;
  base(stand, recorder, (err?: unknown) => void (failed = err));
  if (failed) throw failed;
  const { headers } = recorder;
  const api: [string, number | string | readonly string[]][] = [
    ...headers
      .filter(([name]) => API_ANSWER_HEADERS.has(name.toLowerCase()))
      .map(([name, value]): [string, number | string | readonly string[]] =>
        name.toLowerCase() === "content-security-policy" ? [name, API_CSP] : [name, value],
      ),
    ["Cache-Control", "no-store"],
  ];
  return (path) => (path.startsWith("/v1/") ? api : headers);
}

/** Of helmet's headers, those a JSON answer needs (the others only govern documents). */
const API_ANSWER_HEADERS = new Set([
  "content-security-policy",
  "cross-origin-resource-policy",
  "referrer-policy",
  "strict-transport-security",
  "x-content-type-options",
]);
/** A JSON answer loads nothing and is framed by nobody. */
const API_CSP = "default-src 'none';frame-ancestors 'none'";

/** A response nobody receives, which keeps the headers set on it (as named). */
class HeaderRecorder extends ServerResponse {
  readonly headers: [string, number | string | readonly string[]][] = [];
  override setHeader(name: string, value: number | string | readonly string[]): this {
    this.headers.push([name, value]);
    return super.setHeader(name, value);
  }
}

/** An answer being written: a Fastify reply. */
interface Answer {
  getHeader(name: string): unknown;
  header(name: string, value: string): unknown;
}

/** Lets the page being answered be framed by `origin` alone (the hosted checkout, by its embed_origin). */
export function frameableBy(res: Answer, origin: string | null): void {
  const csp = String(res.getHeader("Content-Security-Policy") ?? "");
  const ancestors = origin ? `frame-ancestors ${origin}` : "frame-ancestors 'none'";
  res.header(
    "Content-Security-Policy",
    csp.includes("frame-ancestors") ? csp.replace(/frame-ancestors [^;]*/, ancestors) : `${csp};${ancestors}`,
  );
}

/** Stripe.js and its Payment Element (the checkout's and the portal's card fields), as Stripe documents them for a CSP. */
const STRIPE_SOURCES: Record<string, string[]> = {
  "script-src": ["https://js.stripe.com"],
  "frame-src": ["https://js.stripe.com", "https://hooks.stripe.com"],
  "connect-src": ["https://api.stripe.com"],
};

/** Lets the page being answered load Stripe.js, its frames and its API (and nothing else beyond our own). */
export function allowStripe(res: Answer): void {
  const directives = String(res.getHeader("Content-Security-Policy") ?? "")
    .split(";")
    .map((d) => d.trim())
    .filter(Boolean);
  for (const [name, sources] of Object.entries(STRIPE_SOURCES)) {
    const at = directives.findIndex((d) => d.split(/\s+/)[0] === name);
    if (at >= 0) directives[at] = `${directives[at]} ${sources.join(" ")}`;
    else directives.push(`${name} 'self' ${sources.join(" ")}`);
  }
  res.header("Content-Security-Policy", directives.join(";"));
}

/**
 * CORS on the public and portal calls: any origin, no credentials. True for a preflight to answer
 * 204 (its methods: the contract's at that path, `methodsOf(path)`).
 */
export function publicCors(methodsOf: (path: string) => string[]) {
  return (method: string, path: string, res: Answer): boolean => {
    if (!CORS_PREFIXES.some((p) => path.startsWith(p))) return false;
    res.header("Access-Control-Allow-Origin", "*");
    res.header("Access-Control-Expose-Headers", CORS_EXPOSE_HEADERS);
    res.header("Vary", "Origin");
    if (method !== "OPTIONS") return false;
    const methods = methodsOf(path);
    if (methods.length === 0) return false;
    res.header("Access-Control-Allow-Methods", methods.join(", "));
    res.header("Access-Control-Allow-Headers", CORS_ALLOW_HEADERS);
    res.header("Access-Control-Max-Age", "600");
    return true;
  };
}

/** TRUST_PROXY: a hop count ("1"), "true", or addresses / subnets (Fastify's `trustProxy`); unset: the socket's address is the client's. */
export function trustProxySetting(env?: Env): boolean | number | string | undefined {
  const v = setting("TRUST_PROXY", env);
  if (v === undefined) return undefined;
  if (/^\d+$/.test(v)) return Number(v);
  if (v === "true" || v === "false") return v === "true";
  return v;
}
