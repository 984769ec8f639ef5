// `make bench-portal`: the hosted checkout's budgets, in Chromium against a real API: the page's
// initial JavaScript gzipped under 150 KiB; navigation to an interactive pay button, median of
// RUNS cold loads, as a ratio to the harness' one-button fixture page served the same way; and
// the API calls of a scripted purchase (one load, one update per change, one confirm).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import type { Browser, Page } from "playwright-core";
import { buildUiApps } from "../scripts/build-ui.js";
import { freePort, ROOT, startPostgres } from "../scripts/services.js";
import { createKnex, migrateLatest } from "../server/kit/db.js";
import { distDir, type UiApp } from "../server/kit/ui-apps.js";
import { startApi } from "../server/main.js";
import { UI_APPS } from "../server/ui-apps.js";
import { launchChromium } from "../test/browser/chromium.js";
import { createCheckoutProduct, orgWithToken } from "../test/harness/factories.js";

const RUNS = Number(process.env.BENCH_PORTAL_RUNS ?? 15);
const BUDGET_BYTES = 150 * 1024;
const portal = UI_APPS.find((a) => a.name === "portal")!;
const fixture: UiApp = { name: "fixture", dir: "test/browser/fixture", base: "/_fixture/", routes: ["/fixture/:id/*"] };

/** The JS files index.html loads at once (entry script and module preloads), with their gzipped sizes. */
function initialScripts(app: UiApp): { file: string; raw: number; gzip: number }[] {
  const html = readFileSync(path.join(distDir(app), "index.html"), "utf8");
  const refs = [...html.matchAll(/(?:src|href)="([^"]+\.js)"/g)].map((m) => m[1]);
  return refs.map((ref) => {
    const bytes = readFileSync(path.join(distDir(app), ref.slice(app.base.length)));
    return { file: ref, raw: bytes.length, gzip: gzipSync(bytes).length };
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Milliseconds from navigation start until `ready` holds, in a fresh (cold) browser context. */
async function timeToReady(browser: Browser, url: string, ready: (page: Page) => Promise<void>): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: "commit" });
    await ready(page);
    return await page.evaluate(() => performance.now());
  } finally {
    await context.close();
  }
}

async function main() {
  console.log("building the apps…");
  await buildUiApps([portal, fixture], { force: true });
  const scripts = initialScripts(portal);
  const jsGzip = scripts.reduce((n, s) => n + s.gzip, 0);

  const dataDir = mkdtempSync(path.join(os.tmpdir(), "bench-portal-pg-"));
  const pg = await startPostgres({ dataDir, persistent: false });
  const knex = createKnex(pg.url);
  const browser = await launchChromium();
  let api: Awaited<ReturnType<typeof startApi>> | undefined;
  try {
    await migrateLatest(knex);
    api = await startApi({ knex, port: await freePort(), uiApps: [portal, fixture] });
    process.env.PUBLIC_API_URL = api.url;
    const { org, token } = await orgWithToken(knex);
    const { product } = await createCheckoutProduct(knex, org.id, { name: "Bench guide" });
    const newCheckout = async () => {
      const res = await fetch(`${api!.url}/v1/checkouts/`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ products: [product.id] }),
      });
      return (await res.json()) as { url: string; client_secret: string };
    };

    // 2. Navigation → interactive, checkout and baseline interleaved so both see the same machine.
    const payButton = async (page: Page) => {
      const button = page.getByRole("button", { name: /^Pay / });
      await button.waitFor({ state: "visible" });
      await page.waitForFunction(() =>
        [...document.querySelectorAll("button")].some((b) => b.textContent?.startsWith("Pay ") && !b.disabled),
      );
    };
    const baselineButton = async (page: Page) => {
      await page.getByRole("button", { name: "Check health" }).waitFor({ state: "visible" });
    };
    await timeToReady(browser, (await newCheckout()).url, payButton); // warm the server's first request paths
    const checkoutTimes: number[] = [];
    const baselineTimes: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      baselineTimes.push(await timeToReady(browser, `${api.url}/fixture/${i}`, baselineButton));
      checkoutTimes.push(await timeToReady(browser, (await newCheckout()).url, payButton));
    }

    // 3. API calls of one purchase: load, 3 changes, confirm.
    const context = await browser.newContext();
    const page = await context.newPage();
    const calls = { get: 0, patch: 0, confirm: 0, other: 0 };
    page.on("request", (req) => {
      const p = new URL(req.url()).pathname;
      if (!p.startsWith("/v1/")) return;
      if (p.startsWith("/v1/checkouts/client/")) {
        if (p.endsWith("/confirm")) calls.confirm++;
        else if (req.method() === "PATCH") calls.patch++;
        else calls.get++;
      } else if (!p.startsWith("/v1/customer-portal/")) calls.other++;
    });
    const checkout = await newCheckout();
    await page.goto(checkout.url);
    await payButton(page);
    const changes = 3;
    await page.getByRole("textbox", { name: "Email", exact: true }).fill("bench@example.com");
    await page.getByRole("textbox", { name: "Name", exact: true }).fill("Bench Buyer");
    await page.getByLabel("Country").selectOption("FR");
    await page.getByLabel("Card number").fill("4242424242424242");
    await page.getByLabel("Expiry (MM / YY)").fill("1234");
    await page.getByLabel("Security code").fill("123");
    await page.getByRole("button", { name: /^Pay / }).click();
    await page.getByRole("heading", { name: /^Thank you/ }).waitFor({ timeout: 30_000 });
    await context.close();
    // The confirmation page reads the checkout again (and the customer's order and benefits through the portal API).
    const purchaseGets = calls.get;

    const m = { checkout: median(checkoutTimes), baseline: median(baselineTimes) };
    console.log("");
    console.log(`| hosted checkout | value | budget |`);
    console.log(`|---|---:|---|`);
    console.log(
      `| JavaScript loaded at once, gzipped (${scripts.map((s) => path.basename(s.file)).join(", ")}) | ${(jsGzip / 1024).toFixed(1)} KiB (${(scripts.reduce((n, s) => n + s.raw, 0) / 1024).toFixed(0)} KiB raw) | < 150 KiB (${jsGzip < BUDGET_BYTES ? "met" : "missed"}) |`,
    );
    console.log(`| navigation → interactive pay button, median of ${RUNS} cold loads | ${m.checkout.toFixed(0)} ms | |`);
    console.log(`| baseline: navigation → the fixture page's button, same server, same runs | ${m.baseline.toFixed(0)} ms | |`);
    console.log(`| ratio checkout / baseline | ${(m.checkout / m.baseline).toFixed(2)}× | |`);
    console.log(
      `| API calls of a purchase with ${changes} changes: checkout GET / PATCH / confirm / other | ${purchaseGets} / ${calls.patch} / ${calls.confirm} / ${calls.other} | 1 load (+1 on the confirmation) / 1 per change / 1 / 0 (${calls.patch === changes && calls.confirm === 1 && calls.other === 0 && purchaseGets <= 2 ? "met" : "missed"}) |`,
    );
    console.log("");
    console.log(
      `runs (ms): checkout ${checkoutTimes.map((t) => t.toFixed(0)).join(" ")}; baseline ${baselineTimes.map((t) => t.toFixed(0)).join(" ")}`,
    );
  } finally {
    await browser.close();
    await api?.close();
    await knex.destroy();
    await pg.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

process.chdir(ROOT);
main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
