// `make bench-console`: the console's budgets, counted (not timed): the built JavaScript, gzipped,
// against its budget; and, for each list page, the API calls the page makes when it opens (one
// list call, plus at most one batched call per reference column), counted in Chromium against the
// real API over a seeded organization. Prints a Markdown table for docs/BENCHMARKS.md.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { buildUiApps } from "../scripts/build-ui.js";
import { ROOT, startPostgres } from "../scripts/services.js";
import { createKnex, migrateLatest } from "../server/kit/db.js";
import { mintOrganizationToken } from "../server/organization-access-tokens/service.js";
import { startApi } from "../server/main.js";
import { UI_APPS } from "../server/ui-apps.js";
import { setting } from "../server/config.js";
import { adminResourcesByName } from "../generated/admin-resources.js";
import {
  createCustomer,
  createEvent,
  createMeter,
  createOrder,
  createOrganization,
  createPayment,
  createProductWithPrice,
} from "../test/harness/factories.js";

/** The budget of the console's JavaScript, gzipped (react-admin + MUI + recharts). */
const JS_BUDGET_KB = 600;
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];
/**
 * List pages and the calls each may make besides its list call: one batched call per reference
 * column, and one per filter whose choices come from the API (the events page's name filter asks
 * `/v1/events/names` once).
 */
const LISTS: [string, number][] = [
  ["products", 0],
  ["checkout-links", 0],
  ["discounts", 0],
  ["benefits", 0],
  ["license-keys", 0],
  ["custom-fields", 0],
  ["meters", 0],
  ["customers", 0],
  ["orders", 0],
  ["subscriptions", 0],
  ["checkouts", 0],
  ["refunds", 0],
  ["payments", 0],
  ["webhooks-endpoints", 0],
  ["test-clocks", 0],
  ["events", 1],
  ["customer-meters", 0],
];

function jsGzipKb(): { raw: number; gz: number; files: number } {
  const dir = path.join(ROOT, "admin", "dist", "assets");
  let raw = 0;
  let gz = 0;
  let files = 0;
  for (const f of readdirSync(dir)) {
    if (!f.endsWith(".js")) continue;
    const data = readFileSync(path.join(dir, f));
    raw += data.length;
    gz += gzipSync(data, { level: 9 }).length;
    files++;
  }
  return { raw: raw / 1024, gz: gz / 1024, files };
}

async function main() {
  const admin = UI_APPS.filter((a) => a.name === "admin");
  await buildUiApps(admin, { log: (m) => console.log(m) });
  const js = jsGzipKb();

  const pg = await startPostgres({ dataDir: `.data/bench-console-pg-${process.pid}`, persistent: false });
  const knex = createKnex(pg.url);
  await migrateLatest(knex);
  const api = await startApi({ knex, port: 0, uiApps: admin }).catch(async (err) => {
    await knex.destroy();
    await pg.stop();
    throw err;
  });
  const browser = await chromium.launch({ executablePath: setting("CHROMIUM_PATH"), headless: true, args: CHROMIUM_ARGS });
  const rows: string[] = [];
  try {
    const org = await createOrganization(knex, { name: "Bench console" });
    const token = await mintOrganizationToken(knex, org.id);
    // a full first page everywhere it matters: 25 customers, each with an order, a payment and a
    // usage event (which gives each customer a customer meter of the meter counting it)
    const product = await createProductWithPrice(knex, org.id);
    await createMeter(knex, org.id);
    for (let i = 0; i < 25; i++) {
      const customer = await createCustomer(knex, org.id, { email: `buyer${i}@example.com` });
      const order = await createOrder(knex, org.id, {
        customerId: customer.id,
        productId: product.product.id,
        productPriceId: product.price.id,
      });
      await createPayment(knex, org.id, { order_id: order.id });
      await createEvent(knex, org.id, { customer_id: customer.id });
    }
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${api.url}/dashboard/`);
    await page.getByRole("button", { name: "Use an access token" }).click({ timeout: 60_000 });
    await page.getByLabel("Access token").fill(token);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByRole("heading", { name: "Last 30 days" }).waitFor();
    await page.waitForLoadState("networkidle");
    for (const [resource, references] of LISTS) {
      const calls: string[] = [];
      const listen = (req: { url(): string }) => {
        const u = new URL(req.url());
        // who is signed in (the token's organization) is asked once per load, not by the list
        if (u.pathname.startsWith("/v1/") && u.pathname !== "/v1/organizations/") calls.push(`${u.pathname}${u.search}`);
      };
      page.on("request", listen);
      const listPath = adminResourcesByName[resource].path;
      const listed = page.waitForResponse((r) => new URL(r.url()).pathname === listPath, { timeout: 60_000 });
      await page.goto(`${api.url}/dashboard/${resource}`);
      await listed;
      // the reference columns' batched calls follow the list's answer
      await page.waitForLoadState("networkidle");
      await page.waitForTimeout(1000);
      page.off("request", listen);
      const budget = 1 + references;
      rows.push(
        `| ${resource} | ${calls.length} | ${budget} | ${calls.length <= budget ? "met" : "**over**"} | ${calls.map((c) => `\`${c.split("?")[0]}\``).join(", ")} |`,
      );
    }
  } finally {
    await browser.close();
    await api.close();
    await knex.destroy();
    await pg.stop();
  }
  console.log("\n| measure | value | budget | |\n| --- | --- | --- | --- |");
  console.log(
    `| console JavaScript, gzipped (${js.files} file${js.files === 1 ? "" : "s"}; ${js.raw.toFixed(0)} KiB raw) | ${js.gz.toFixed(1)} KiB | ${JS_BUDGET_KB} KiB | ${js.gz <= JS_BUDGET_KB ? "met" : "**over**"} |`,
  );
  console.log(
    "\n| list page | API calls on opening | budget (1 + reference columns + filter choices) | | calls |\n| --- | --- | --- | --- | --- |",
  );
  for (const r of rows) console.log(r);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
