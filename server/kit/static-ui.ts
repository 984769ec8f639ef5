// A built single-page UI (admin/dist, the console at /dashboard/) served by the API: its files as
// they are (hashed assets cached for a year), and index.html for every other path under the
// prefix (history fallback: /dashboard/orders/123/show reloads into the app). Without a build it
// answers 503 saying how to make one.
import { existsSync } from "node:fs";
import path from "node:path";
import express, { type RequestHandler } from "express";

export function staticUi(opts: { prefix: string; dir: string; buildHint: string }): RequestHandler {
  const { prefix, dir } = opts;
  const index = path.join(dir, "index.html");
  const files = express.static(dir, {
    index: false,
    redirect: false,
    fallthrough: true,
    setHeaders: (res, file) => {
      // Vite names assets by their content hash: they never change under the same name
      if (file.includes(`${path.sep}assets${path.sep}`)) res.setHeader("cache-control", "public, max-age=31536000, immutable");
    },
  });
  const router = express.Router();
  router.use(prefix, (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    // "/dashboard" → "/dashboard/", so the app's URLs resolve under it
    const [pathname, search] = req.originalUrl.split("?", 2);
    if (pathname === prefix) return void res.redirect(301, `${prefix}/${search ? `?${search}` : ""}`);
    if (!existsSync(index)) {
      res.status(503).type("text/plain").send(`This UI is not built yet: ${opts.buildHint}\n`);
      return;
    }
    files(req, res, () => {
      // a missing asset is a 404, not the app (a stale tab asking for an old chunk must fail loudly)
      if (req.path.startsWith("/assets/")) return void res.status(404).type("text/plain").send("Not found\n");
      res.setHeader("cache-control", "no-cache");
      res.sendFile(index);
    });
  });
  return router;
}
