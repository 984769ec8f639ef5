// Test suites: test/**/*.test.ts, in two groups run one after the other. Each group's global
// setup (test/setup/global.ts) starts a Postgres, a Temporal dev server and Mailpit for it and
// migrates; each of its workers runs on a database and a Temporal namespace of its own
// (test/setup/each-file.ts), so files run in parallel: the API and workflow suites three at
// once, then the Chromium and process-killing suites two at once (they load the 2 cores most).
import { defineConfig } from "vitest/config";

/** Suites that drive Chromium or start, kill and time processes. */
const HEAVY = [
  "test/browser/**/*.test.ts",
  "test/chaos/**/*.test.ts",
  "test/run/**/*.test.ts",
  "test/subscriptions/worker-kill.test.ts",
  "test/checkouts/recover-crash.test.ts",
];

/** Files at once per group; VITEST_MAX_WORKERS caps both (1: every file alone). */
const cap = Number(process.env.VITEST_MAX_WORKERS ?? 3);
const workers = (n: number) => Math.max(1, Math.min(n, cap));

export default defineConfig({
  test: {
    globalSetup: ["test/setup/global.ts"],
    pool: "forks",
    setupFiles: ["test/setup/each-file.ts"],
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
    projects: [
      {
        extends: true,
        test: {
          name: "api",
          include: ["test/**/*.test.ts"],
          exclude: [...HEAVY, "**/node_modules/**"],
          maxWorkers: workers(3),
          sequence: { groupOrder: 0 },
        },
      },
      { extends: true, test: { name: "heavy", include: HEAVY, maxWorkers: workers(2), sequence: { groupOrder: 1 } } },
    ],
  },
});
