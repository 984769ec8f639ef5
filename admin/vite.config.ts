// The console's build: static files under dist/, served by the API at /dashboard/ (history
// fallback there). `npm run dev` serves it with hot reload and proxies the API's paths to a running
// API (BOREALIS_API_URL, default http://127.0.0.1:8000, what `make run` starts).
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";

const api = process.env.BOREALIS_API_URL ?? "http://127.0.0.1:8000";
const root = fileURLToPath(new URL("..", import.meta.url));

export default defineConfig({
  base: "/dashboard/",
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 2000,
  },
  server: {
    port: 5173,
    strictPort: false,
    // generated/ (the typed client, the resource metadata) and shared/ (the country codes) are beside admin/
    fs: { allow: [root] },
    proxy: Object.fromEntries(["/v1", "/api", "/files", "/checkout", "/portal"].map((p) => [p, { target: api, changeOrigin: false }])),
  },
});
