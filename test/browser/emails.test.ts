// Every email template in Chromium, as a mail client that renders HTML would show it: the sample
// message of each kind (emails/src/samples.ts) at desktop width and at 375 px, checked with axe
// (no serious or critical violation) and for sideways scroll at 375 px, with its desktop
// screenshot written to docs/screenshots/email-<kind>.png (SCREENSHOTS=0: none).
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMAIL_KINDS, renderEmail, sampleMessage, type Brand } from "../../emails/src/index.js";
import { axeViolations, DESKTOP, horizontalOverflow, launchChromium, MOBILE, screenshotsDir } from "./harness.js";

// A logo inline (the machine has no network), in a colour light enough that buttons need dark text.
const LOGO = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><rect width="40" height="40" rx="8" fill="#0b6e4f"/><path d="M10 30 20 10 30 30z" fill="#fff"/></svg>',
)}`;
const BRANDS: Brand[] = [
  { name: "Acme", logo_url: LOGO, color: "#0b6e4f" },
  { name: "Sunny Days Studio", logo_url: null, color: "#ffd23f" },
];

/** What is wrong with the page as it is: axe's findings and, at 375 px, sideways scroll. */
async function findings(page: Page, label: string): Promise<string[]> {
  const found = (await axeViolations(page)).map((f) => `${label}: ${f}`);
  const overflow = await horizontalOverflow(page);
  if (overflow > 0) found.push(`${label}: the email scrolls sideways by ${overflow} px`);
  return found;
}

describe("email templates in Chromium", { timeout: 60_000 }, () => {
  let browser: Browser;
  const shoot = process.env.SCREENSHOTS !== "0";
  beforeAll(async () => {
    browser = await launchChromium();
    if (shoot) mkdirSync(screenshotsDir(), { recursive: true });
  });
  afterAll(() => browser?.close());

  it.each(EMAIL_KINDS)("%s reads well at desktop width and at 375 px", async (kind) => {
    // One page for both brands: each one's HTML replaces the last.
    const context = await browser.newContext({ viewport: DESKTOP });
    try {
      const page = await context.newPage();
      // Nothing leaves the page: an email that loads something from elsewhere fails here.
      const requests: string[] = [];
      page.on("request", (request) => {
        if (!request.url().startsWith("data:")) requests.push(request.url());
      });
      for (const [i, brand] of BRANDS.entries()) {
        const { html } = await renderEmail(sampleMessage(kind, brand));
        await page.setViewportSize(DESKTOP);
        await page.setContent(html, { waitUntil: "load" });
        const found = await findings(page, `${brand.name}, ${DESKTOP.width} px`);
        if (shoot && i === 0) await page.screenshot({ path: path.join(screenshotsDir(), `email-${kind}.png`), fullPage: true });
        await page.setViewportSize(MOBILE);
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        found.push(...(await findings(page, `${brand.name}, 375 px`)));
        expect(found).toEqual([]);
      }
      expect(requests).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
