// Test suites: test/**/*.test.ts. test/setup/global.ts starts one Postgres and one Temporal dev
// server for the whole run (throwaway data), migrates, and hands DATABASE_URL / TEMPORAL_ADDRESS
// to every test file (process.env, and inject("databaseUrl") / inject("temporalAddress")).
// The database is shared: each test file creates its own organizations.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/setup/global.ts"],
    pool: "forks",
    // One test file at a time: files share the database and the Temporal namespace (and would
    // share task queues). VITEST_MAX_WORKERS=2 runs two at once where that is known to be safe.
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
