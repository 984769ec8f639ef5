// Test suites: test/**/*.test.ts, in three projects run one after the other on one Postgres,
// Temporal dev server and Mailpit (test/setup/global.ts): the API and workflow suites, the
// Chromium suites, the suites that must run alone. Each worker runs on a database and a
// Temporal namespace of its own (test/setup/each-file.ts), so files run in parallel; `make test`
// runs the projects 3, 2 and 1 files at once.
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

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

/** The files that take minutes, slowest first: started first, so that none of them is a run's tail. */
const SLOW_FIRST = [
  "test/browser/console.test.ts",
  "test/browser/emails.test.ts",
  "test/chaos/chaos.test.ts",
  "test/browser/console-usage.test.ts",
  "test/browser/checkout.test.ts",
  "test/webhooks/delivery.test.ts",
  "test/integrations/better-auth.test.ts",
  "test/browser/portal.test.ts",
  "test/browser/console-tax.test.ts",
  "test/browser/console-narrow.test.ts",
  "test/browser/trials.test.ts",
  "test/contract/sdk-walk.test.ts",
  "test/observability/tracing.test.ts",
  "test/kit/token-cli.test.ts",
];

/** Vitest's order (its cache's durations when it has them, else file size), the known slow files first. */
class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      const i = SLOW_FIRST.findIndex((file) => spec.moduleId.endsWith(file));
      return i < 0 ? SLOW_FIRST.length : i;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

/** Files at once (`make test` gives each project its own: scripts/test-all.sh); set it here, not with --maxWorkers. */
const workers = Number(process.env.VITEST_MAX_WORKERS ?? 2);

export default defineConfig({
  test: {
    globalSetup: ["test/setup/global.ts"],
    pool: "forks",
    // A worker runs file after file in one process, node_modules loaded once (the official clients
    // alone take 4 s to import), and our modules too; test/setup/each-file.ts says what each file gets anew.
    isolate: false,
    fileParallelism: workers > 1,
    maxWorkers: workers,
    // Every worker from the start: with isolate off, a worker tinypool adds late is torn down mid-task.
    minWorkers: workers,
    setupFiles: ["test/setup/each-file.ts"],
    sequence: { sequencer: SlowFirstSequencer },
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
