// Free trials and billing every N intervals on every screen that shows them, in Chromium against
// the running stack: the console's product form and page, the hosted checkout ("14-day free trial,
// then $45 / 3 months", nothing due today), its confirmation, and the trialing subscription in the
// console and the portal. Every page: axe, 375 px, screenshots.
import { beforeAll, describe, expect, it } from "vitest";
import { signIn } from "./console-helpers.js";
import { useBrowserStack } from "./harness.js";
import { card, expectText, fill, openShop, see, type Shop } from "./shop.js";

describe("free trials, interval counts and visibility", { timeout: 240_000 }, () => {
  const stack = useBrowserStack();
  let shop: Shop;
  let productId = "";
  let subscriptionId = "";
  let customerId = "";

  beforeAll(async () => {
    shop = await openShop(stack, "Polaris Labs");
  });

  it("makes a private product billed every 3 months with a 14-day trial in the console, then makes it public", async () => {
    const page = await stack.newPage();
    await signIn(stack, page, shop.token);
    await page.goto(`${stack.url}/dashboard/products/create`);
    await page.getByLabel("Name").first().fill("Observatory plan");
    await page.getByLabel("Billing").click();
    await page.getByRole("option", { name: "Month" }).click();
    await page.getByRole("spinbutton", { name: /^Bill every/ }).fill("3");
    await page.getByRole("spinbutton", { name: /^Free trial/ }).fill("14");
    await page.getByLabel("Visibility").click();
    await page.getByRole("option", { name: "Private", exact: true }).click();
    await page.getByRole("spinbutton", { name: /^Price/ }).fill("45");
    await stack.check(page, "console-product-trial-form", { mobile: false });
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("$45.00 / 3 months").waitFor();
    await expectText(page, "billing", "Every 3 months");
    await expectText(page, "trial", "14 days");
    await see(page, "Private");
    productId = page.url().match(/products\/([^/]+)\/show/)![1];
    const made = await fetch(`${stack.url}/v1/products/${productId}`, { headers: { authorization: `Bearer ${shop.token}` } }).then((r) =>
      r.json(),
    );
    expect(made).toMatchObject({
      recurring_interval: "month",
      recurring_interval_count: 3,
      trial_interval: "day",
      trial_interval_count: 14,
      visibility: "private",
    });
    await stack.check(page, "console-product-trial");

    // Not on the storefront while private; public after the edit.
    const storefront = async () =>
      (await fetch(`${stack.url}/v1/customer-portal/organizations/${shop.org.slug}`).then((r) => r.json())).products.map(
        (p: { id: string }) => p.id,
      );
    expect(await storefront()).toEqual([]);
    await page.goto(`${stack.url}/dashboard/products/${productId}`);
    await page.getByLabel("Visibility").click();
    await page.getByRole("option", { name: "Public", exact: true }).click();
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Public").first().waitFor();
    await expectText(page, "billing", "Every 3 months");
    expect(await storefront()).toEqual([productId]);
  });

  it("sells it with its trial: nothing due today, the price from the trial's end, the card saved", async () => {
    const checkout = await shop.polar.checkouts.create({ products: [productId] });
    const page = await stack.newPage();
    await page.goto(checkout.url);
    await page.getByRole("heading", { name: "Observatory plan" }).waitFor();
    await expectText(page, "trial", /^14-day free trial, then \$45 \/ 3 months\. Cancel before .+ and you pay nothing\.$/);
    await expectText(page, "total", "$0");
    await expectText(page, "after-trial", "$45 / 3 months");
    await stack.check(page, "checkout-trial");
    await fill(page, "Email", "vera@example.com");
    await page.getByLabel("Country").selectOption("SE");
    await card(page, "4242424242424242");
    await page.getByRole("button", { name: "Start 14-day free trial" }).click();
    await page.getByRole("heading", { name: /^Thank you/ }).waitFor({ timeout: 30_000 });
    await page.getByTestId("trial-ends").waitFor();
    await stack.check(page, "checkout-trial-confirmation");
    const [sub] = (await shop.polar.subscriptions.list({ productId })).result.items;
    expect(sub).toMatchObject({ status: "trialing", amount: 4500 });
    subscriptionId = sub.id;
    customerId = sub.customerId;
    expect(await stack.knex("payments").where({ checkout_id: checkout.id })).toHaveLength(0);
    expect(await stack.knex("payment_methods").where({ customer_id: customerId })).toHaveLength(1);
  });

  it("shows the trial on the console's subscription page and in the portal", async () => {
    const page = await stack.newPage();
    await signIn(stack, page, shop.token);
    await page.goto(`${stack.url}/dashboard/subscriptions/${subscriptionId}/show`);
    await page.getByTestId("trial-dates").waitFor();
    await expectText(page, "trial-dates", /→ .+ \(then the first charge\)$/);
    await see(page, "Trialing");
    await see(page, "$45.00 / 3 months");
    await stack.check(page, "console-subscription-trial");

    const token = (await shop.polar.customerSessions.create({ customerId })).token;
    const portal = await stack.newPage();
    await portal.goto(`${stack.url}/${shop.org.slug}/portal/subscriptions?customer_session_token=${token}`);
    await portal.getByRole("heading", { name: "Observatory plan" }).waitFor();
    await see(portal, "free trial");
    await expectText(portal, "subscription-amount", "$45 / 3 months");
    await expectText(
      portal,
      "trial-note",
      /^Free trial until .+\. Then \$45 \/ 3 months, charged to your saved card; cancel before then and you pay nothing\.$/,
    );
    await see(portal, "First charge");
    await stack.check(portal, "portal-subscription-trial");
  });
});
