// Test suites: test/**/*.test.ts. test/setup/global.ts starts one Postgres, one Temporal dev
// server and Mailpit for the whole run (throwaway data) and migrates. Each vitest worker runs on a
// database and a Temporal namespace of its own (test/setup/each-file.ts sets DATABASE_URL and
// TEMPORAL_NAMESPACE), so files can run in parallel; Mailpit is shared (reads go by recipient).
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/setup/global.ts"],
    pool: "forks",
    setupFiles: ["test/setup/each-file.ts"],
    // One file at a time unless VITEST_MAX_WORKERS says more: three at once on this loaded 2-core
    // machine still times out a few Chromium and worker tests (docs/DEVELOPMENT.md, "Tests").
    fileParallelism: Number(process.env.VITEST_MAX_WORKERS ?? 1) > 1,
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS ?? 1),
    testTimeout: 30_000,
    hookTimeout: 120_000,
    teardownTimeout: 60_000,
    restoreMocks: true,
    // Rate limits off for the suites (they share one client address and one database): the
    // rate limit tests (test/http/rate-limit.test.ts) give their APIs policies of their own.
    // @polar-sh/nextjs imports `next/server` without its `.js` (Next's bundler finds it, Node's
    // ESM loader does not): vite resolves the imports of a package it inlines.
    server: { deps: { inline: ["@polar-sh/nextjs"] } },
    env: { RATE_LIMIT_PUBLIC: "off", RATE_LIMIT_AUTH_FAILURE: "off", RATE_LIMIT_TOKEN: "off", RATE_LIMIT_CUSTOMER: "off" },
  },
});
