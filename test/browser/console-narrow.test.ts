// The console on a phone (375 px), in Chromium against the running stack: the app bar shows the
// page's title whole, and every list shows a row per record (react-admin's SimpleList) with what
// identifies it, its status and its amount, in place of a table cut to its first columns.
import { beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { MOBILE, useBrowserStack } from "./harness.js";
import { seedOrganization, signIn, type Seeded } from "./console-helpers.js";

/** The app bar's title: its text, and whether it is cut (an ellipsis). */
async function title(page: Page): Promise<{ text: string; cut: boolean }> {
  return page.locator("#react-admin-title").evaluate((el) => ({
    text: (el.textContent ?? "").trim(),
    cut: el.scrollWidth > el.clientWidth,
  }));
}

describe("merchant console: at 375 px", { timeout: 240_000 }, () => {
  const stack = useBrowserStack();
  let s: Seeded;
  beforeAll(async () => {
    s = await seedOrganization(stack);
  }, 120_000);

  // [list, its title, what one row of it shows on a phone (identity, status, amount…)]
  const lists: [string, string, RegExp][] = [
    ["orders", "Orders", /buyer@example\.com\s*\$[\d.,]+\s*Team plan · Paid · FR · /],
    ["subscriptions", "Subscriptions", /buyer@example\.com\s*\$29\.00 \/ month\s*Team plan · Active · renews /],
    ["customers", "Customers", /buyer@example\.com\s*Ada Buyer · FR · /],
    ["products", "Products", /Team plan\s*\$29\.00 \/ month\s*Monthly · Public/],
    ["checkouts", "Checkouts", /buyer@example\.com\s*\$[\d.,]+\s*Team plan · Succeeded · /],
    ["payments", "Payments", /visa •••• 4242\s*\$[\d.,]+\s*Succeeded · /],
    ["checkout-links", "Checkout links", /Website\s*Team plan · /],
    ["discounts", "Discounts", /Launch\s*10% off, once\s*LAUNCH · \d redeemed/],
    ["benefits", "Benefits", /Priority support\s*Custom · /],
    ["custom-fields", "Custom fields", /Company\s*company · Text/],
    ["meters", "Meters", /API calls\s*/],
    ["webhooks-endpoints", "Webhooks", /https:\/\/example\.com\/hooks\s*Enabled · 2 event types/],
    ["test-clocks", "Test clocks", /Renewals\s*.*· 0 customers/],
  ];

  it("titles each page whole and lists each resource as rows with their key facts", async () => {
    const page = await stack.newPage();
    await signIn(stack, page, s.token);
    await page.setViewportSize(MOBILE);
    for (const [resource, name, row] of lists) {
      await page.goto(`${stack.url}/dashboard/${resource}`);
      const first = page.locator("#main-content li").first();
      await first.waitFor({ timeout: 15_000 });
      await page.waitForLoadState("networkidle");
      expect(await first.innerText(), resource).toMatch(row);
      // no table at this width: the rows are the list
      expect(await page.locator("table").count(), resource).toBe(0);
      await expect.poll(() => title(page)).toEqual({ text: name, cut: false });
    }
    expect(stack.takeProblems(page)).toEqual([]);
  });

  it("passes axe with the phone rows, and opens a record from its row", async () => {
    const page = await stack.newPage();
    await signIn(stack, page, s.token);
    for (const resource of ["orders", "subscriptions", "customers", "products"]) {
      await page.goto(`${stack.url}/dashboard/${resource}`);
      await page.getByText("buyer@example.com").or(page.getByText("Team plan")).first().waitFor();
      await page.waitForLoadState("networkidle");
      await stack.check(page, `console-narrow-${resource}`);
    }
    await page.setViewportSize(MOBILE);
    await page.goto(`${stack.url}/dashboard/orders`);
    await page.locator("#main-content li").first().click();
    await page.waitForURL(new RegExp(`/orders/${s.orderId}/show`));
    await page.getByText("Subscription create").first().waitFor();
    expect(stack.takeProblems(page)).toEqual([]);
  });
});
