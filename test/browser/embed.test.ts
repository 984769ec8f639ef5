// The checkout embedded with @polar-sh/checkout's own script, in Chromium: a merchant's page opens
// a checkout link in an iframe and receives `loaded`, `confirmed` and `success`. The script accepts
// messages only from polar.sh hosts, so the stack is served at https://sandbox.polar.sh through a
// local HTTPS server Chromium resolves that name to (test/browser/public-hosts.ts), which also
// serves the merchant's page at https://merchant.example.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useBrowserStack } from "./harness.js";
import { startPublicHosts, type PublicHosts } from "./public-hosts.js";
import { openShop, type Shop } from "./shop.js";

const PUBLIC = "https://sandbox.polar.sh";
const MERCHANT = "https://merchant.example";
const require = createRequire(import.meta.url);
const embedScript = readFileSync(path.join(path.dirname(require.resolve("@polar-sh/checkout/embed")), "embed.global.js"), "utf8");

const merchantPage = (linkUrl: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Merchant store</title><script>${embedScript}</script></head>
<body><main><h1>Merchant store</h1><button id="buy" type="button">Buy the guide</button></main>
<script>
  window.events = [];
  document.getElementById("buy").addEventListener("click", async () => {
    const checkout = await window.Polar.EmbedCheckout.create(${JSON.stringify(linkUrl)}, { onLoaded: () => window.events.push("loaded") });
    for (const name of ["confirmed", "success", "close"]) checkout.addEventListener(name, (e) => window.events.push(name + (e.detail.successURL ? " " + e.detail.successURL : "")));
  });
</script></body></html>`;

describe("embedded checkout (@polar-sh/checkout)", { timeout: 180_000 }, () => {
  let hosts: PublicHosts;
  let linkUrl = "";
  // Before the stack's own beforeAll: Chromium starts with the hosts' resolver rules.
  beforeAll(async () => {
    hosts = await startPublicHosts({
      forward: { "sandbox.polar.sh": () => stack.url },
      pages: { "merchant.example": () => merchantPage(linkUrl) },
    });
  });
  afterAll(() => hosts?.close());
  const stack = useBrowserStack({ chromiumArgs: () => hosts.chromiumArgs() });
  let shop: Shop;
  let saved: string | undefined;

  beforeAll(async () => {
    shop = await openShop(stack, "Embedded Co");
    // The links and checkouts the API writes point at the public address the browser uses.
    saved = process.env.PUBLIC_API_URL;
    process.env.PUBLIC_API_URL = PUBLIC;
  });
  afterAll(() => {
    process.env.PUBLIC_API_URL = saved;
  });

  const events = (page: Page) => page.evaluate(() => (window as unknown as { events: string[] }).events);

  it("opens from a checkout link in an iframe and tells the parent loaded, confirmed and success", async () => {
    const product = await shop.polar.products.create({
      name: "Embedded guide",
      recurringInterval: null,
      prices: [{ amountType: "fixed", priceAmount: 900, priceCurrency: "usd" }],
    });
    const link = await shop.polar.checkoutLinks.create({ paymentProcessor: "stripe", productId: product.id });
    expect(link.url.startsWith(`${PUBLIC}/`)).toBe(true);
    linkUrl = link.url;
    const page = await stack.newPage();
    await page.goto(`${MERCHANT}/store`);
    await page.getByRole("button", { name: "Buy the guide" }).click();
    await expect.poll(() => events(page), { timeout: 15_000 }).toEqual(["loaded"]);

    const frame = page.frameLocator("iframe");
    await frame.getByRole("heading", { name: "Embedded guide" }).waitFor();
    const checkout = await stack.knex("checkouts").where({ checkout_link_id: link.id }).first();
    expect(checkout.embed_origin).toBe(MERCHANT);
    // The iframe element is @polar-sh/checkout's (it gives it no title), not ours: axe's frame-title
    // rule judges that script; everything inside the frame is checked.
    await stack.check(page, "checkout-embedded", { disableRules: ["frame-title"] });

    const email = frame.getByRole("textbox", { name: "Email", exact: true });
    await email.fill("embedded@example.com");
    await email.blur();
    await frame.getByLabel("Country").selectOption("FR");
    await frame.getByLabel("Card number").fill("4242424242424242");
    await frame.getByLabel("Expiry (MM / YY)").fill("1234");
    await frame.getByLabel("Security code").fill("123");
    await frame.getByRole("button", { name: "Pay $9" }).click();
    // The confirm, the confirmation page's reads and the grants all go through the HTTPS forwarder
    // in this process; late in a full run (a database and Temporal history full of other suites'
    // work) that took more than 30 s on a loaded 2-core machine, so the wait is generous.
    await frame.getByRole("heading", { name: /^Thank you/ }).waitFor({ timeout: 75_000 });
    const confirmation = `${PUBLIC}/checkout/${checkout.client_secret}/confirmation`;
    await expect.poll(() => events(page), { timeout: 15_000 }).toEqual(["loaded", "confirmed", `success ${confirmation}`]);
    // The merchant's page stays where it is (no success_url of the merchant's: nothing to redirect to).
    expect(page.url()).toBe(`${MERCHANT}/store`);

    // The buyer closes it: the parent is told, and the script takes the iframe away.
    await frame.getByRole("button", { name: "Close", exact: true }).click();
    await expect.poll(() => events(page), { timeout: 15_000 }).toContain("close");
    await expect.poll(() => page.locator("iframe").count(), { timeout: 15_000 }).toBe(0);
  });

  it("keeps the card form usable at 375 px inside the iframe", async () => {
    const product = await shop.polar.products.create({
      name: "Small screen",
      recurringInterval: null,
      prices: [{ amountType: "fixed", priceAmount: 500, priceCurrency: "usd" }],
    });
    const link = await shop.polar.checkoutLinks.create({ paymentProcessor: "stripe", productId: product.id });
    linkUrl = link.url;
    const page = await stack.newPage({ viewport: { width: 375, height: 812 } });
    await page.goto(`${MERCHANT}/store`);
    await page.getByRole("button", { name: "Buy the guide" }).click();
    const frame = page.frameLocator("iframe");
    await frame.getByRole("button", { name: "Pay $5" }).waitFor();
    const inner = page.frames().find((f) => f.url().startsWith(`${PUBLIC}/checkout/`))!;
    expect(await inner.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    expect(await inner.evaluate(() => window.innerWidth)).toBe(375);
  });
});
