// Home and the metrics page in Chromium against the running stack: a new organization's owner
// sees the onboarding checklist tick itself off and hides it; a range typed into the date fields
// changes the charts; range, interval and product narrow Home's charts and its cancellations by
// reason; the metrics page charts a metric against the previous period. Axe at 1280 and 375 px.
import { describe, expect, it } from "vitest";
import type { Knex } from "knex";
import { createCustomer, createOrder, createProductWithPrice, orgWithToken, ownerWithOrganization } from "../harness/index.js";
import { useBrowserStack } from "./harness.js";
import { signIn } from "./console-helpers.js";

async function canceledSubscription(
  knex: Knex,
  orgId: string,
  customerId: string,
  productId: string,
  canceledAt: string,
  reason: string | null,
) {
  await knex("subscriptions").insert({
    organization_id: orgId,
    customer_id: customerId,
    product_id: productId,
    status: "active",
    amount: 1000,
    currency: "usd",
    recurring_interval: "month",
    billing_anchor: "2025-01-05T00:00:00Z",
    current_period_start: "2025-03-05T00:00:00Z",
    current_period_end: "2025-04-05T00:00:00Z",
    started_at: "2025-01-05T00:00:00Z",
    canceled_at: canceledAt,
    cancel_at_period_end: true,
    customer_cancellation_reason: reason,
  });
}

describe("merchant console: Home and metrics", { timeout: 300_000 }, () => {
  const stack = useBrowserStack();

  it("ticks the onboarding steps off from what the organization has, and hides the list", async () => {
    const owner = await ownerWithOrganization(stack.url, "Nadia");
    const page = await stack.newPage();
    const url = new URL(stack.url);
    await page.context().addCookies(
      owner.browser
        .cookie()
        .split("; ")
        .map((pair) => {
          const eq = pair.indexOf("=");
          return { name: pair.slice(0, eq), value: pair.slice(eq + 1), domain: url.hostname, path: "/" };
        }),
    );
    await page.goto(`${stack.url}/dashboard/`);
    const checklist = page.getByRole("region", { name: "Get started" });
    await checklist.waitFor({ timeout: 60_000 });
    await checklist.getByText("0 of 4 steps done").waitFor();
    await checklist.getByLabel("SDK snippet").getByText(`serverURL: "${url.origin}"`).waitFor();
    await page.getByTestId("metrics-ready").waitFor();
    await page.waitForLoadState("networkidle");
    await stack.check(page, "console-onboarding");

    // the first step's button opens the product form
    await checklist.getByRole("link", { name: "Create a product" }).click();
    await page.waitForURL(/\/dashboard\/products\/create$/);

    // made through the API with the owner's session (no access token is used)
    const polar = owner.browser.polar();
    const product = await polar.products.create({
      name: "Starter",
      recurringInterval: null,
      prices: [{ amountType: "fixed", priceAmount: 1500, priceCurrency: "usd" }],
    });
    await polar.checkoutLinks.create({ paymentProcessor: "stripe", productId: product.id });
    await page.goto(`${stack.url}/dashboard/`);
    await checklist.getByText("2 of 4 steps done").waitFor({ timeout: 60_000 });
    const done = () => checklist.getByTestId("onboarding-step").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-done")));
    expect(await done()).toEqual(["true", "true", "false", "false"]);
    await polar.webhooks.createWebhookEndpoint({ url: "https://example.com/hooks", format: "raw", events: ["order.paid"] });
    await page.reload();
    await checklist.getByText("3 of 4 steps done").waitFor({ timeout: 60_000 });
    expect(await done()).toEqual(["true", "true", "true", "false"]);
    // the sandbox takes no real payments: going live stays to do
    await checklist.getByText(/Payments run on the sandbox processor/).waitFor();

    await checklist.getByRole("button", { name: "Hide checklist" }).click();
    await expect.poll(() => checklist.count()).toBe(0);
    await page.reload();
    await page.getByTestId("metrics-ready").waitFor({ timeout: 60_000 });
    expect(await checklist.count()).toBe(0);
    expect(stack.takeProblems(page)).toEqual([]);
  });

  it("a range typed into From and To changes the charts", async () => {
    const { org, token } = await orgWithToken(stack.knex);
    const buyer = await createCustomer(stack.knex, org.id);
    const { product } = await createProductWithPrice(stack.knex, org.id, { name: "Atlas" });
    for (const [amount, at] of [
      [2000, "2025-03-03T12:00:00Z"],
      [3000, "2025-03-20T12:00:00Z"],
      [4000, "2025-02-10T12:00:00Z"],
    ] as const) {
      await createOrder(stack.knex, org.id, { customerId: buyer.id, productId: product.id }, { subtotal_amount: amount, created_at: at });
    }
    const page = await stack.newPage();
    await signIn(stack, page, token);
    const card = (title: string) => page.locator(".MuiCard-root").filter({ has: page.getByRole("heading", { name: title, exact: true }) });
    const total = (title: string) => card(title).locator("p").first().textContent();
    expect(await total("Revenue")).toBe("$0.00");

    // typed as a person types a date (month, day, year), not set
    const type = async (label: string, digits: string) => {
      await page.getByLabel(label, { exact: true }).focus();
      await page.keyboard.type(digits, { delay: 30 });
    };
    await type("From", "03012025");
    // The address takes the start before the end is typed (its re-render can cut the typing short).
    await expect.poll(() => new URL(page.url()).searchParams.get("from")).toBe("2025-03-01");
    await type("To", "03312025");
    await page.getByRole("heading", { name: /^Mar 1, 2025 – Mar 31, 2025$/ }).waitFor();
    const search = new URL(page.url()).searchParams;
    expect([search.get("from"), search.get("to"), search.get("interval")]).toEqual(["2025-03-01", "2025-03-31", "day"]);
    await expect.poll(() => total("Revenue"), { timeout: 15_000 }).toBe("$50.00");
    expect(await total("Orders")).toBe("2");

    await type("From", "02012025");
    await page.getByRole("heading", { name: /^Feb 1, 2025 – Mar 31, 2025$/ }).waitFor();
    await expect.poll(() => total("Revenue"), { timeout: 15_000 }).toBe("$90.00");
    expect(await total("Orders")).toBe("3");
    await page.waitForLoadState("networkidle");
    expect(stack.takeProblems(page)).toEqual([]);
  });

  it("narrows Home by range, interval and product, and compares a metric with the previous period", async () => {
    const { org, token } = await orgWithToken(stack.knex);
    const buyer = await createCustomer(stack.knex, org.id);
    const { product: ebook } = await createProductWithPrice(stack.knex, org.id, { name: "Ebook" });
    const { product: plan } = await createProductWithPrice(stack.knex, org.id, { name: "Plan", recurring_interval: "month" });
    const order = (productId: string, amount: number, at: string) =>
      createOrder(stack.knex, org.id, { customerId: buyer.id, productId }, { subtotal_amount: amount, created_at: at });
    await order(ebook.id, 2000, "2025-03-03T12:00:00Z");
    await order(ebook.id, 3000, "2025-03-20T12:00:00Z");
    await order(plan.id, 1000, "2025-03-10T12:00:00Z");
    await order(ebook.id, 4000, "2025-02-10T12:00:00Z"); // the previous period
    for (const [at, reason] of [
      ["2025-03-04T10:00:00Z", "too_expensive"],
      ["2025-03-12T10:00:00Z", "too_expensive"],
      ["2025-03-15T10:00:00Z", "missing_features"],
      ["2025-03-16T10:00:00Z", null],
    ] as const) {
      await canceledSubscription(stack.knex, org.id, buyer.id, plan.id, at, reason);
    }

    const page = await stack.newPage();
    await signIn(stack, page, token);
    // an access token acts as the organization, and one is in use: the checklist shows the rest
    await page.getByRole("region", { name: "Get started" }).getByText("2 of 4 steps done").waitFor();
    // the range lives in the URL: a shared link opens the same view
    await page.goto(`${stack.url}/dashboard/?from=2025-03-01&to=2025-03-31`);
    expect(await page.getByLabel("From", { exact: true }).inputValue()).toBe("2025-03-01");
    await page.getByRole("heading", { name: /^Mar 1, 2025 – Mar 31, 2025$/ }).waitFor();
    await page.getByRole("combobox", { name: "Interval" }).click();
    await page.getByRole("option", { name: "Weekly" }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get("interval")).toBe("week");
    const card = (title: string) => page.locator(".MuiCard-root").filter({ has: page.getByRole("heading", { name: title, exact: true }) });
    await card("Revenue").getByText("$60.00").waitFor();
    await card("Orders").getByText("3", { exact: true }).waitFor();
    const reasons = page.getByRole("list", { name: "Cancellations by reason" });
    // Polled: a refetch (the interval just changed) may render the list anew while it is read.
    const rows = async () => (await reasons.getByRole("listitem").allInnerTexts()).map((r) => r.replace(/\s+/g, " "));
    await expect.poll(rows).toEqual(["Too expensive 2 (50%)", "Missing features 1 (25%)", "No reason given 1 (25%)"]);

    await page.getByRole("combobox", { name: "Products" }).click();
    await page.getByRole("option", { name: "Ebook" }).click();
    await page.keyboard.press("Escape");
    await card("Revenue").getByText("$50.00").waitFor();
    await card("Cancellations by reason").getByText("No subscription was canceled in this range.").waitFor();
    await page.getByTestId("metrics-ready").waitFor();
    await page.waitForLoadState("networkidle");
    await stack.check(page, "console-home-analytics");

    // the metrics page keeps the filters, and compares with Jan 29 – Feb 28
    await page.getByRole("link", { name: "All metrics" }).click();
    await page.getByRole("heading", { name: "Metrics: Mar 1, 2025 – Mar 31, 2025" }).waitFor();
    await page.getByTestId("metrics-ready").waitFor();
    await page.getByTestId("metric-previous").getByText("$40.00 in Jan 29, 2025 – Feb 28, 2025 (+25.0%)").waitFor();
    // every metric in the table; a row's button charts it
    const table = page.getByRole("table", { name: "Every metric" });
    expect(await table.getByRole("row").count()).toBe(1 + 31);
    await table.getByRole("button", { name: "Orders", exact: true }).click();
    await page.getByRole("heading", { name: "Orders", exact: true }).waitFor();
    await page.getByTestId("metric-previous").getByText("1 in Jan 29, 2025 – Feb 28, 2025 (+100.0%)").waitFor();
    await page.getByRole("combobox", { name: "Metric" }).click();
    await page.getByRole("option", { name: "Canceled Subscriptions", exact: true }).click();
    await page.getByRole("heading", { name: "Canceled Subscriptions", exact: true }).waitFor();
    await page.waitForLoadState("networkidle");
    await stack.check(page, "console-metrics");
    expect(stack.takeProblems(page)).toEqual([]);
  });
});
