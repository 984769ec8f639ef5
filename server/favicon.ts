// GET /favicon.ico: the default icon of the buyer's pages (portal/public/favicon.ico), for the
// browsers that ask for it by that name. The pages themselves link the organization's avatar
// when it has one (portal/src/ui/favicon.ts).
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";

const ICON = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "portal", "public", "favicon.ico");

export function faviconRoutes() {
  let icon: Promise<Buffer> | undefined;
  return async (app: FastifyInstance) =>
    void app.route({
      method: ["GET", "HEAD"],
      url: "/favicon.ico",
      handler: async (_req, reply) =>
        reply
          .header("cache-control", "public, max-age=86400")
          .type("image/x-icon")
          .send(await (icon ??= readFile(ICON))),
    });
}
