// The portal app: the hosted checkout (/checkout/<client secret>) and the customer portal
// (/<organization slug>/portal), one React build served by the API (server/ui-apps.ts) with its
// files under /_portal/. JSX by esbuild (no Babel); Stripe's Payment Element is its own chunk,
// loaded only when a publishable key is configured.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const here = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root: here,
  base: "/_portal/",
  esbuild: { jsx: "automatic" },
  build: {
    outDir: path.join(here, "dist"),
    emptyOutDir: true,
    target: "es2022",
    sourcemap: false,
    // The budget is checked by bench/portal.ts; this only stops a build from hiding a blow-up.
    chunkSizeWarningLimit: 400,
  },
  server: { fs: { allow: [path.join(here, "..")] } },
});
