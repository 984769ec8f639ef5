// Test suites: test/**/*.test.ts. test/setup/global.ts starts one Postgres, one Temporal dev
// server and Mailpit for the whole run (throwaway data) and migrates. Files run in parallel, each
// vitest worker on a database and a Temporal namespace of its own (test/setup/each-file.ts sets
// DATABASE_URL and TEMPORAL_NAMESPACE); Mailpit is shared (reads go by recipient).
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/setup/global.ts"],
    pool: "forks",
    setupFiles: ["test/setup/each-file.ts"],
    // Three files at once on two cores: most of a file's time is spent waiting on timers, Temporal
    // and I/O. VITEST_MAX_WORKERS=1 runs them one at a time.
    fileParallelism: Number(process.env.VITEST_MAX_WORKERS ?? 3) > 1,
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS ?? 3),
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
