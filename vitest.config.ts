// Test suites: test/**/*.test.ts, in three projects run one after the other on one Postgres,
// Temporal dev server and Mailpit (test/setup/global.ts): the API and workflow suites, the
// Chromium suites, the suites that must run alone. Each worker runs on a database and a
// Temporal namespace of its own (test/setup/each-file.ts), so files run in parallel; `make test`
// runs the projects 3, 2 and 1 files at once.
import { defineConfig } from "vitest/config";

/** Suites that drive Chromium, and the chaos run (it starts and kills its own stack; it has passed beside Chromium). */
const BROWSER = ["test/browser/**/*.test.ts", "test/chaos/**/*.test.ts"];
/** Suites run alone: those that start, kill and time processes (a loaded machine makes them miss their timing). */
const ALONE = [
  "test/run/**/*.test.ts",
  "test/subscriptions/worker-kill.test.ts",
  "test/checkouts/recover-crash.test.ts",
  // Describes schedules on the shared Temporal dev server, which three files at once slowed past its deadline.
  "test/workflows/schedules.test.ts",
];

/** Files at once (`make test` gives each project its own: scripts/test-all.sh). */
const workers = Number(process.env.VITEST_MAX_WORKERS ?? 2);

export default defineConfig({
  test: {
    globalSetup: ["test/setup/global.ts"],
    pool: "forks",
    fileParallelism: workers > 1,
    maxWorkers: workers,
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
          exclude: [...BROWSER, ...ALONE, "**/node_modules/**"],
          sequence: { groupOrder: 0 },
        },
      },
      { extends: true, test: { name: "browser", include: BROWSER, sequence: { groupOrder: 1 } } },
      { extends: true, test: { name: "alone", include: ALONE, sequence: { groupOrder: 2 } } },
    ],
  },
});
