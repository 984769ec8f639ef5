// Test suites: test/**/*.test.ts, in three projects run one after the other on one Postgres,
// Temporal dev server and Mailpit (test/setup/global.ts). Each worker runs on a database and a
// Temporal namespace of its own (test/setup/each-file.ts), so files run in parallel: the API and
// workflow suites three at once, the Chromium suites two at once, then the suites that kill and
// time processes one at a time.
import { defineConfig } from "vitest/config";

/** Suites that drive Chromium. */
const BROWSER = ["test/browser/**/*.test.ts"];
/** Suites that start, kill and time processes: alone, as a loaded machine would make them miss their timing. */
const PROCESSES = [
  "test/chaos/**/*.test.ts",
  "test/run/**/*.test.ts",
  "test/subscriptions/worker-kill.test.ts",
  "test/checkouts/recover-crash.test.ts",
];

/** Files at once per project; VITEST_MAX_WORKERS caps them (1: every file alone). */
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
          exclude: [...BROWSER, ...PROCESSES, "**/node_modules/**"],
          maxWorkers: workers(3),
          sequence: { groupOrder: 0 },
        },
      },
      { extends: true, test: { name: "browser", include: BROWSER, maxWorkers: workers(2), sequence: { groupOrder: 1 } } },
      { extends: true, test: { name: "processes", include: PROCESSES, maxWorkers: 1, sequence: { groupOrder: 2 } } },
    ],
  },
});
