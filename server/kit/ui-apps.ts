// Browser apps (Vite builds) served by the API: each app's built files under its `base`, and its
// client-side routes answered with its index.html (history fallback), so a deep link or a reload
// of `/checkout/<secret>` or `/dashboard/#/products` opens the app. The apps are listed in
// server/ui-apps.ts; scripts/build-ui.ts builds them (`make ui`, and the browser tests).
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyReply, FastifyRequest } from "fastify";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

export interface UiApp {
  /** Short name, used in messages and lock files ("portal", "admin"). */
  name: string;
  /** The app's folder from the repository root; it holds vite.config.ts, and the build goes to <dir>/dist. */
  dir: string;
  /** URL prefix of the built files: Vite's `base`, with a slash at both ends ("/dashboard/"). */
  base: string;
  /**
   * Client-side routes answered with index.html: `:name` is one path segment, a trailing `*` is
   * any rest (also none). Paths under `base` that are not files are routes too.
   */
  routes: string[];
  /** Folders besides `dir` whose changes call for a new build (e.g. "generated/client"). */
  sources?: string[];
  /**
   * Settings the page needs from the server (e.g. a publishable key), read on each page load and
   * written into index.html as `<script id="app-config" type="application/json">` (data, not code).
   */
  config?: () => Record<string, unknown>;
}

/** JSON safe inside a <script> element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

export function distDir(app: UiApp): string {
  return path.join(ROOT, app.dir, "dist");
}

/** A matcher for one route pattern ("/:slug/portal/*"). */
export function routeMatcher(pattern: string): (p: string) => boolean {
  const parts = pattern.replace(/^\/+/, "").split("/");
  const rest = parts[parts.length - 1] === "*";
  if (rest) parts.pop();
  const source = parts.map((part) => (part.startsWith(":") ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("/");
  const re = new RegExp(`^/${source}${rest ? "(?:/.*)?" : "/?"}$`, "i");
  return (p) => re.test(p);
}

/** Whether `rel` (a URL path, still encoded) names a file inside `dir`. */
function fileIn(dir: string, rel: string): boolean {
  try {
    const file = path.join(dir, decodeURIComponent(rel));
    return file.startsWith(dir + path.sep) && statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * The pages of every app: GET/HEAD of a built file under an app's base, or of one of its routes
 * (index.html, never cached, so a new build is picked up). False for anything else. `before`
 * sets a page's own headers (server/buyer-pages.ts). Files are sent by @fastify/static.
 */
export function uiAppPages(apps: readonly UiApp[], before: (path: string, reply: FastifyReply) => Promise<void>) {
  const served = apps.map((app) => {
    const dist = distDir(app);
    const base = app.base.toLowerCase();
    const matchers = [...app.routes.map(routeMatcher), (p: string) => p.toLowerCase().startsWith(base) || `${p.toLowerCase()}/` === base];
    // Read on each page load (a few hundred bytes), so a new build is served without a restart.
    const indexFile = path.join(dist, "index.html");
    const index = (): string | undefined => {
      if (!existsSync(indexFile)) return undefined;
      const html = readFileSync(indexFile, "utf8");
      if (!app.config) return html;
      return html.replace("</head>", `<script id="app-config" type="application/json">${scriptJson(app.config())}</script></head>`);
    };
    return { app, base, dist, matchers, index };
  });
  return async (req: FastifyRequest, reply: FastifyReply): Promise<boolean> => {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    const p = req.url.split("?", 1)[0];
    const entry = served.find((s) => s.matchers.some((m) => m(p)));
    if (!entry) return false;
    await before(p, reply);
    const sendIndex = () => {
      const html = entry.index();
      if (!html) reply.code(503).type("text/plain; charset=utf-8").send(`The ${entry.app.name} app is not built: run \`make ui\`.\n`);
      else reply.header("cache-control", "no-cache").type("text/html; charset=utf-8").send(html);
      return true;
    };
    if (!p.toLowerCase().startsWith(entry.base)) return sendIndex();
    // Under the base: a file if there is one (served relative to the base), else the app's page;
    // a missing asset (a stale page asking for an old hash) is a 404, not the page.
    const rel = p.slice(entry.base.length - 1);
    if (fileIn(entry.dist, rel)) {
      // Hashed assets never change under their name; everything else is revalidated.
      reply.header("cache-control", rel.startsWith("/assets/") ? "public, max-age=31536000, immutable" : "no-cache");
      reply.sendFile(decodeURIComponent(rel), entry.dist, { cacheControl: false });
      return true;
    }
    if (/\.[a-z0-9]+$/i.test(rel) && rel !== "/index.html") {
      reply.code(404).type("text/plain; charset=utf-8").send("Not found\n");
      return true;
    }
    return sendIndex();
  };
}
