// Browser tests against the real stack (the suite's Postgres and Temporal, the worker, the API
// serving the built apps), in Debian's Chromium through playwright-core: `useBrowserStack()` gives
// `newPage()` and `check(page, name)`. A guarded page fails its test on a console error, a failed
// request or an answer >= 400 unless `stack.allow` expects it; check() runs axe, checks 375 px has
// no sideways scroll and writes docs/screenshots/<name>.png (SCREENSHOTS_DIR, SCREENSHOTS=0).
import { mkdirSync } from "node:fs";
import path from "node:path";
import { AxeBuilder } from "@axe-core/playwright";
import { Polar } from "@polar-sh/sdk";
import type { Knex } from "knex";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll } from "vitest";
import { buildUiApps } from "../../scripts/build-ui.js";
import { ROOT } from "../../scripts/services.js";
import { createKnex, migrateLatest } from "../../server/kit/db.js";
import type { UiApp } from "../../server/kit/ui-apps.js";
import { startApi, type ApiHandle } from "../../server/main.js";
import { UI_APPS } from "../../server/ui-apps.js";
import { startWorker, type WorkerHandle } from "../../workflows/worker.js";
import { sharedResponseChecks } from "../harness/response-checks.js";
import { launchChromium } from "./chromium.js";

export { CHROMIUM_ARGS, CHROMIUM_PATH, launchChromium } from "./chromium.js";

/** Where check() writes screenshots: SCREENSHOTS_DIR, else docs/screenshots/. */
export function screenshotsDir(): string {
  return process.env.SCREENSHOTS_DIR ? path.resolve(process.env.SCREENSHOTS_DIR) : path.join(ROOT, "docs", "screenshots");
}

export const DESKTOP = { width: 1280, height: 900 };
export const MOBILE = { width: 375, height: 812 };

/** Something a test expects to go wrong on a page, so the guard lets it pass. */
export interface AllowRule {
  /** The request URL (a substring or a pattern); any URL when absent. */
  url?: string | RegExp;
  /** An HTTP status answered (e.g. 422 for a field the test leaves invalid on purpose). */
  status?: number;
  /** A failed request's error text (e.g. /ERR_ABORTED/ for a request cut by a navigation). */
  failure?: string | RegExp;
  /** A console error's text. */
  console?: string | RegExp;
}

export interface NewPageOptions {
  viewport?: { width: number; height: number };
  /** Expected failures, from the start (stack.allow adds more later). */
  allow?: AllowRule[];
  /** Browser context options (locale, timezone…): each page has its own context. */
  locale?: string;
  timezoneId?: string;
}

export interface CheckOptions {
  /** Run axe (default true). */
  axe?: boolean;
  /** Write the screenshots (default true; SCREENSHOTS=0 turns them off everywhere). */
  screenshot?: boolean;
  /** Also check and shoot at 375 px wide (default true). */
  mobile?: boolean;
  /** Axe rules to leave out, with the reason in the test (e.g. a third-party iframe's own markup). */
  disableRules?: string[];
  /** A CSS selector axe leaves out (e.g. a third party's iframe). */
  exclude?: string;
}

export interface BrowserStackOptions {
  /** The browser apps built and served (server/ui-apps.ts unless told). */
  apps?: readonly UiApp[];
  /** Start the Temporal worker (default true): grants, webhooks, subscriptions, invoices happen. */
  worker?: boolean;
  /** More Chromium flags, read when the browser starts (e.g. --host-resolver-rules for a test's own hosts). */
  chromiumArgs?: () => string[];
}

export interface BrowserStack {
  /** The API's URL, which also serves the apps (`/checkout/…`, `/{slug}/portal`, `/dashboard/`). */
  readonly url: string;
  readonly knex: Knex;
  readonly browser: Browser;
  /** An official client for a token, pointed at the stack. */
  polar(token: string): Polar;
  /** A new page in a new browser context, guarded until the end of the current test. */
  newPage(opts?: NewPageOptions): Promise<Page>;
  /** Declares an expected failure on a page opened with newPage(). */
  allow(page: Page, rule: AllowRule): void;
  /** What the guard saw go wrong on a page so far, taken: the guard forgets them (the harness' own tests). */
  takeProblems(page: Page): string[];
  /** Axe, no sideways scroll at 375 px, and screenshots `<name>.png` / `<name>-375.png`. Throws on a finding. */
  check(page: Page, name: string, opts?: CheckOptions): Promise<void>;
}

interface Guarded {
  context: BrowserContext;
  allow: AllowRule[];
  problems: string[];
}

const matches = (value: string, pattern: string | RegExp | undefined) =>
  pattern === undefined || (typeof pattern === "string" ? value.includes(pattern) : pattern.test(value));

/**
 * Axe's serious and critical violations on the page as it is, one line each. Only violations are
 * gathered; a page without frames runs axe.run in place (the same rules, a third of the time) rather
 * than per-frame partial runs finished in a blank page.
 */
export async function axeViolations(page: Page, opts: Pick<CheckOptions, "disableRules" | "exclude"> = {}): Promise<string[]> {
  let builder = new AxeBuilder({ page }).options({ resultTypes: ["violations"] }).setLegacyMode(page.frames().length === 1);
  if (opts.disableRules?.length) builder = builder.disableRules(opts.disableRules);
  if (opts.exclude) builder = builder.exclude(opts.exclude);
  const result = await builder.analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `axe ${v.impact} ${v.id}: ${v.help} — ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(" "))
          .join(" | ")}`,
    );
}

/**
 * Waits (up to 5 s) until no finite CSS animation or transition runs on the page: axe judges
 * what is on screen, and a menu still fading out after its option was picked (MUI's Select) is
 * text at part opacity, which it rightly calls low contrast. Endless ones (spinners) don't count.
 */
export async function transitionsSettled(page: Page): Promise<void> {
  await page
    .waitForFunction(
      () => document.getAnimations().every((a) => a.playState !== "running" || a.effect?.getComputedTiming().iterations === Infinity),
      undefined,
      { timeout: 5_000, polling: 50 },
    )
    .catch(() => undefined);
}

/** How far the page scrolls sideways beyond the viewport (0 when it fits). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body?.scrollWidth ?? 0) - window.innerWidth);
}

/** Screenshots and frame texts of a failed test's pages, written under .cache/test-results/browser-failures/. */
async function keepFailure(testName: string, pages: Page[]): Promise<void> {
  const dir = path.join(ROOT, ".cache", "test-results", "browser-failures");
  mkdirSync(dir, { recursive: true });
  const base = testName.replace(/[^a-z0-9]+/gi, "-").slice(0, 80);
  const lines: string[] = [];
  for (const [i, page] of pages.entries()) {
    if (page.isClosed()) continue;
    const file = path.join(dir, `${base}-${i}.png`);
    await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
    lines.push(`page ${i}: ${page.url()} (screenshot ${file})`);
    for (const frame of page.frames()) {
      const text = await frame.evaluate(() => document.body?.innerText ?? "").catch((err: unknown) => `(unreadable: ${String(err)})`);
      lines.push(`  frame ${frame.url()}:\n    ${text.replace(/\s*\n\s*/g, " | ").slice(0, 1500)}`);
    }
  }
  if (lines.length) console.error(`[browser] "${testName}" failed; what its pages showed:\n${lines.join("\n")}`);
}

export function useBrowserStack(options: BrowserStackOptions = {}): BrowserStack {
  const apps = options.apps ?? UI_APPS;
  const state = {} as { knex: Knex; api: ApiHandle; worker?: WorkerHandle; browser: Browser };
  const guarded = new Map<Page, Guarded>();
  const savedEnv = { PUBLIC_API_URL: process.env.PUBLIC_API_URL };

  const guardOf = (page: Page): Guarded => {
    const g = guarded.get(page);
    if (!g) throw new Error("this page was not opened with stack.newPage()");
    return g;
  };

  beforeAll(async () => {
    const databaseUrl = process.env.DATABASE_URL;
    const temporalAddress = process.env.TEMPORAL_ADDRESS;
    if (!databaseUrl || !temporalAddress)
      throw new Error("DATABASE_URL / TEMPORAL_ADDRESS are not set: run through vitest (test/setup/global.ts starts them).");
    // The build first: nothing is started yet if it fails.
    await buildUiApps(apps);
    state.knex = createKnex(databaseUrl);
    await migrateLatest(state.knex);
    if (options.worker !== false) state.worker = await startWorker({ knex: state.knex, temporalAddress });
    state.api = await startApi({
      knex: state.knex,
      port: 0,
      temporalAddress,
      validateResponses: true,
      responseChecks: sharedResponseChecks(),
      uiApps: apps,
    });
    // The URLs the API writes (a checkout's url, a link's url, the portal's) point at this server.
    process.env.PUBLIC_API_URL = state.api.url;
    state.browser = await launchChromium(options.chromiumArgs?.() ?? []);
  }, 300_000);

  afterEach(async (ctx) => {
    // A failed test leaves what its pages showed: a screenshot and the text of every frame, in
    // .cache/test-results/browser-failures/ (the log says where), so a failure on CI can be read.
    if (ctx.task.result?.state === "fail") await keepFailure(ctx.task.name, [...guarded.keys()]);
    const found: string[] = [];
    for (const [page, g] of guarded) {
      if (g.problems.length) found.push(`${page.url()}:\n  ${g.problems.join("\n  ")}`);
      await g.context.close().catch(() => undefined);
    }
    guarded.clear();
    if (found.length) throw new Error(`the browser saw problems:\n${found.join("\n")}`);
  });

  afterAll(async () => {
    await state.browser?.close().catch(() => undefined);
    await state.api?.close();
    await state.worker?.shutdown();
    await state.knex?.destroy();
    if (savedEnv.PUBLIC_API_URL === undefined) delete process.env.PUBLIC_API_URL;
    else process.env.PUBLIC_API_URL = savedEnv.PUBLIC_API_URL;
  }, 60_000);

  return {
    get url() {
      return state.api.url;
    },
    get knex() {
      return state.knex;
    },
    get browser() {
      return state.browser;
    },
    polar: (token) => new Polar({ accessToken: token, serverURL: state.api.url }),

    async newPage(opts = {}) {
      const context = await state.browser.newContext({
        viewport: opts.viewport ?? DESKTOP,
        locale: opts.locale ?? "en-US",
        timezoneId: opts.timezoneId ?? "UTC",
      });
      const page = await context.newPage();
      // A missing element fails fast; waits for the server's work (grants, redirects) say so themselves.
      page.setDefaultTimeout(10_000);
      const g: Guarded = { context, allow: [...(opts.allow ?? [])], problems: [] };
      guarded.set(page, g);
      const allowed = (pred: (r: AllowRule) => boolean) => g.allow.some(pred);
      page.on("console", (msg) => {
        if (msg.type() !== "error") return;
        const text = msg.text();
        // Chromium logs every HTTP error answer as a console error too; the response listener
        // below judges those by URL and status.
        if (/^Failed to load resource: the server responded with a status of \d+/.test(text)) return;
        if (allowed((r) => r.console !== undefined && matches(text, r.console))) return;
        g.problems.push(`console error: ${text}${msg.location().url ? ` (${msg.location().url}:${msg.location().lineNumber})` : ""}`);
      });
      page.on("pageerror", (err) => {
        if (allowed((r) => r.console !== undefined && matches(err.message, r.console))) return;
        g.problems.push(`uncaught exception: ${err.message}`);
      });
      page.on("requestfailed", (req) => {
        const failure = req.failure()?.errorText ?? "failed";
        // Cancelled by the page itself (a navigation or reload leaving a fetch behind), not failed.
        if (failure === "net::ERR_ABORTED") return;
        if (allowed((r) => r.failure !== undefined && matches(failure, r.failure) && matches(req.url(), r.url))) return;
        g.problems.push(`request failed: ${req.method()} ${req.url()}: ${failure}`);
      });
      page.on("response", (res) => {
        const status = res.status();
        if (status < 400) return;
        if (allowed((r) => r.status === status && matches(res.url(), r.url))) return;
        g.problems.push(`HTTP ${status}: ${res.request().method()} ${res.url()}`);
      });
      return page;
    },

    allow(page, rule) {
      guardOf(page).allow.push(rule);
    },

    takeProblems(page) {
      return guardOf(page).problems.splice(0);
    },

    async check(page, name, opts = {}) {
      const findings: string[] = [];
      const shoot = opts.screenshot !== false && process.env.SCREENSHOTS !== "0";
      const dir = screenshotsDir();
      if (shoot) mkdirSync(dir, { recursive: true });
      const original = page.viewportSize() ?? DESKTOP;
      const pass = async (suffix: string, label: string) => {
        await transitionsSettled(page);
        if (opts.axe !== false) findings.push(...(await axeViolations(page, opts)).map((f) => `${label}: ${f}`));
        if (shoot) await page.screenshot({ path: path.join(dir, `${name}${suffix}.png`), fullPage: true, animations: "disabled" });
      };
      await pass("", `${original.width} px`);
      if (opts.mobile !== false) {
        await page.setViewportSize(MOBILE);
        try {
          // Let layout settle at the new width (two frames).
          await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
          const overflow = await horizontalOverflow(page);
          if (overflow > 0) findings.push(`375 px: the page scrolls sideways by ${overflow} px`);
          await pass("-375", "375 px");
        } finally {
          await page.setViewportSize(original);
        }
      }
      const problems = guardOf(page).problems;
      if (problems.length) findings.push(...problems.map((p) => `guard: ${p}`));
      if (findings.length) throw new Error(`${name}: ${findings.length} finding(s):\n  ${findings.join("\n  ")}`);
    },
  };
}
