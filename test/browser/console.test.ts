// The merchant console in Chromium against the running stack: every screen of every resource
// opens with no console error and no failed request, passes axe (no serious or critical
// violation) at desktop width and at 375 px, a 422 from the server lands on its form field, and the
// orders list filters by status; the customer's state tab names what the customer has.
import { beforeAll, describe, expect, it } from "vitest";
import { foldUsage } from "../../server/meters/fold.js";
import { createCustomer, createEvent, createOrder } from "../harness/index.js";
import { useBrowserStack } from "./harness.js";
import { seedOrganization, signIn, type Seeded } from "./console-helpers.js";

describe("merchant console: every screen", { timeout: 240_000 }, () => {
  const stack = useBrowserStack();
  let s: Seeded;
  beforeAll(async () => {
    s = await seedOrganization(stack);
  }, 120_000);

  // [path, text that shows the screen has its data, screenshot name (main screens only)], by section
  const sections: Record<string, (s: Seeded) => [string, string, string?][]> = {
    catalogue: (s) => [
      ["/products", "Team plan", "console-products"],
      [`/products/${s.productId}/show`, "$29.00 / month", "console-product"],
      [`/products/${s.productId}/show/benefits`, "Benefits granted with this product"],
      [`/products/${s.productId}/show/fields`, "company"],
      [`/products/${s.productId}/show/links`, "Website"],
      [`/products/${s.productId}/show/orders`, "buyer@example.com"],
      [`/products/${s.productId}`, "Prices", "console-product-edit"],
      ["/products/create", "Amount type"],
      ["/checkout-links", "Website", "console-checkout-links"],
      [`/checkout-links/${s.linkId}/show`, "Team plan"],
      ["/checkout-links/create", "Buyers may enter discount codes"],
      ["/discounts", "LAUNCH", "console-discounts"],
      [`/discounts/${s.discountId}/show`, "10% off, once"],
      ["/discounts/create", "Redemption limit"],
    ],
    benefits: (s) => [
      ["/benefits", "Priority support", "console-benefits"],
      [`/benefits/${s.benefitId}/show`, "Note: Email us any time."],
      [`/benefits/${s.benefitId}/show/grants`, "buyer@example.com"],
      ["/benefits/create", "What the customer sees"],
      ["/license-keys", "No license keys yet"],
      ["/custom-fields", "company", "console-custom-fields"],
      [`/custom-fields/${s.customFieldId}/show`, "Company"],
      ["/custom-fields/create", "Label at checkout"],
      ["/meters", "API calls", "console-meters"],
      [`/meters/${s.meterId}/show`, "Total:", "console-meter"],
      ["/meters/create", "How they add up"],
    ],
    customers: (s) => [
      ["/customers", "buyer@example.com", "console-customers"],
      [`/customers/${s.customerId}/show`, "Ada Buyer", "console-customer"],
      [`/customers/${s.customerId}/show/state`, "Active subscriptions"],
      [`/customers/${s.customerId}/show/orders`, "Team plan"],
      [`/customers/${s.customerId}/show/subscriptions`, "Team plan"],
      ["/customers/create", "Billing address"],
    ],
    sales: (s) => [
      ["/orders", "buyer@example.com", "console-orders"],
      [`/orders/${s.orderId}/show`, "Subscription create", "console-order"],
      ["/subscriptions", "buyer@example.com", "console-subscriptions"],
      [`/subscriptions/${s.subscriptionId}/show`, "Period end", "console-subscription"],
      ["/checkouts", "buyer@example.com", "console-checkouts"],
      [`/checkouts/${s.checkoutId}/show`, "company: Acme"],
      ["/refunds", "No refunds yet"],
      ["/payments", "visa •••• 4242", "console-payments"],
    ],
    developers: (s) => [
      ["/webhooks-endpoints", "https://example.com/hooks", "console-webhooks"],
      [`/webhooks-endpoints/${s.endpointId}/show`, "Replay failed", "console-webhook-deliveries"],
      ["/webhooks-endpoints/create", "Benefit grant"],
      ["/test-clocks", "Renewals", "console-test-clocks"],
      [`/test-clocks/${s.clockId}/show`, "+1 month"],
      ["/test-clocks/create", "Start at"],
      ["/settings", "Subscriptions", "console-settings"],
    ],
  };

  it("opens Home with the metrics charts", async () => {
    const page = await stack.newPage();
    await signIn(stack, page, s.token);
    await page.getByTestId("metrics-ready").waitFor();
    await stack.check(page, "console-home");
  });

  it("shows on Home the message of a metrics request that fails, whatever its status", async () => {
    const page = await stack.newPage({ allow: [{ status: 501, url: "/v1/metrics/" }] });
    const body = { error: "NotImplemented", detail: "Metrics are switched off." };
    await page.route(
      (url) => url.pathname === "/v1/metrics/",
      (route) => route.fulfill({ status: 501, contentType: "application/json", body: JSON.stringify(body) }),
    );
    await signIn(stack, page, s.token);
    await page.getByRole("alert").filter({ hasText: "NotImplemented: Metrics are switched off." }).waitFor();
    await stack.check(page, "console-home-metrics-error", { screenshot: false });
  });

  it.each(Object.keys(sections))("opens every %s screen with its data, accessibly, at 1280 and 375 px", async (section) => {
    const page = await stack.newPage();
    await signIn(stack, page, s.token);
    for (const [path, text, shot] of sections[section](s)) {
      await page.goto(`${stack.url}/dashboard${path}`);
      await page.getByText(text, { exact: false }).first().waitFor({ timeout: 15_000 });
      await page.waitForLoadState("networkidle");
      await stack.check(page, shot ?? `console${path.replace(/[^a-z0-9]+/gi, "-")}`, { screenshot: !!shot });
      expect(stack.takeProblems(page), path).toEqual([]);
    }
  });

  it("shows a 422 from the server on the field it names", async () => {
    const page = await stack.newPage({ allow: [{ status: 422, url: "/v1/checkout-links/" }] });
    await signIn(stack, page, s.token);
    await page.goto(`${stack.url}/dashboard/checkout-links/create`);
    await page.getByLabel("Products").fill("Team");
    await page.getByRole("option", { name: "Team plan" }).click();
    await page.getByLabel("Success URL").fill("not a url");
    await page.getByRole("button", { name: "Save" }).click();
    // the server's message, under the Success URL field (its helper text), and the form stays open
    const field = page.getByRole("textbox", { name: "Success URL" });
    await expect.poll(async () => field.getAttribute("aria-invalid")).toBe("true");
    const describedBy = (await field.getAttribute("aria-describedby")) ?? "";
    const helper = await page.locator(`[id="${describedBy.split(" ")[0]}"]`).textContent();
    expect(helper).toMatch(/uri|url/i);
    expect(page.url()).toContain("/checkout-links/create");
    await stack.check(page, "console-422", { mobile: false });
  });

  it("disables a webhook endpoint from its page and enables it again; the list says which", async () => {
    const page = await stack.newPage();
    await signIn(stack, page, s.token);
    const enabled = async () => (await stack.knex("webhook_endpoints").where({ id: s.endpointId }).first()).enabled as boolean;
    await page.goto(`${stack.url}/dashboard/webhooks-endpoints/${s.endpointId}/show`);
    await page.getByRole("button", { name: "Disable" }).click();
    await page.getByText(/Its events are still recorded, as not delivered/).waitFor();
    await stack.check(page, "console-webhook-disable", { screenshot: false });
    await page.getByRole("button", { name: "Confirm" }).click();
    await page.getByText("Endpoint disabled").waitFor();
    await expect.poll(enabled).toBe(false);
    await page.getByRole("button", { name: "Enable" }).waitFor();

    await page.goto(`${stack.url}/dashboard/webhooks-endpoints`);
    await page.getByText("Disabled", { exact: true }).first().waitFor();
    await page.waitForLoadState("networkidle");
    await stack.check(page, "console-webhooks-disabled");

    await page.goto(`${stack.url}/dashboard/webhooks-endpoints/${s.endpointId}/show`);
    await page.getByRole("button", { name: "Enable" }).click();
    await page.getByRole("button", { name: "Confirm" }).click();
    await page.getByText("Endpoint enabled").waitFor();
    await expect.poll(enabled).toBe(true);
    expect(stack.takeProblems(page)).toEqual([]);
  });

  it("saves the organization's prices and trial settings", async () => {
    const page = await stack.newPage();
    await signIn(stack, page, s.token);
    await page.goto(`${stack.url}/dashboard/settings`);
    await page.getByText("kept 21 days, through the payment retries").waitFor();
    await page.getByRole("combobox", { name: /^Default currency/ }).click();
    await page.getByRole("option", { name: "EUR", exact: true }).click();
    await page.getByRole("combobox", { name: /^Tax/ }).click();
    await page.getByRole("option", { name: "Included in prices" }).click();
    await page.getByLabel("One free trial per customer").check();
    await page.waitForLoadState("networkidle");
    await stack.check(page, "console-settings-prices-emails", { screenshot: false });
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Settings saved").waitFor();
    const org = await stack.knex("organizations").where({ id: s.orgId }).first();
    expect(org).toMatchObject({ default_presentment_currency: "eur", default_tax_behavior: "inclusive" });
    expect(org.subscription_settings).toMatchObject({ prevent_trial_abuse: true });
    expect(stack.takeProblems(page)).toEqual([]);
  });

  it("filters the orders list by status", async () => {
    // a second order, pending, of another customer (after the screens above: they count on one order)
    const other = await createCustomer(stack.knex, s.orgId, { email: "pending-buyer@example.com" });
    await createOrder(stack.knex, s.orgId, { customerId: other.id, productId: s.productId }, { status: "pending" });
    const page = await stack.newPage();
    await signIn(stack, page, s.token);
    await page.goto(`${stack.url}/dashboard/orders?filter=${encodeURIComponent("{}")}`);
    const rows = page.locator(".RaDatagrid-tbody tr");
    const texts = () => expect.poll(async () => (await rows.allTextContents()).join(" | "), { timeout: 15_000 });
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(2);
    await page.getByRole("combobox", { name: "Status" }).click();
    await page.getByRole("option", { name: "Pending" }).click();
    await page.keyboard.press("Escape");
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(1);
    await texts().toContain("pending-buyer@example.com");
    expect(decodeURIComponent(page.url())).toContain('"status":["pending"]');
    // a second status: either one
    await page.getByRole("combobox", { name: "Status" }).click();
    await page.getByRole("option", { name: "Paid" }).click();
    await page.keyboard.press("Escape");
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(2);
    await page.waitForLoadState("networkidle");
    await stack.check(page, "console-orders-filtered", { screenshot: false });
    expect(stack.takeProblems(page)).toEqual([]);
  });

  it("names the customer's state: the product, benefit and meter by name, each linked, the ids only to copy", async () => {
    // a call the meter counts: the customer now has a meter in their state (the fold makes it now)
    await createEvent(stack.knex, s.orgId, { customer_id: s.customerId });
    await foldUsage(stack.knex);
    // the benefit is granted by a workflow after the purchase: wait for it in the state itself
    await expect
      .poll(
        async () => {
          const res = await fetch(`${stack.url}/v1/customers/${s.customerId}/state`, { headers: { authorization: `Bearer ${s.token}` } });
          const state = (await res.json()) as { active_subscriptions: unknown[]; granted_benefits: unknown[]; active_meters: unknown[] };
          return [state.active_subscriptions.length, state.granted_benefits.length, state.active_meters.length];
        },
        { timeout: 30_000 },
      )
      .toEqual([1, 1, 1]);
    const page = await stack.newPage();
    await signIn(stack, page, s.token);
    await page.goto(`${stack.url}/dashboard/customers/${s.customerId}/show/state`);
    const links: [string, string][] = [
      ["Team plan", `/products/${s.productId}/show`],
      ["Priority support", `/benefits/${s.benefitId}/show`],
      ["API calls", `/meters/${s.meterId}/show`],
    ];
    for (const [name, href] of links) {
      const link = page.getByRole("link", { name, exact: true });
      await link.waitFor({ timeout: 15_000 });
      expect(await link.getAttribute("href"), name).toContain(href);
    }
    // each id is there to copy, and nowhere as text
    for (const what of ["product", "benefit", "meter"]) await page.getByRole("button", { name: `Copy ${what} id` }).waitFor();
    const tables = page.locator(".RaDatagrid-table");
    await expect.poll(() => tables.count()).toBe(3);
    const text = (await tables.allTextContents()).join(" | ");
    expect(text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i);
    for (const id of [s.productId, s.benefitId, s.meterId]) expect(text).not.toContain(id);
    await page.waitForLoadState("networkidle");
    await stack.check(page, "console-customer-state");
    // a subscription's row opens the subscription
    await page
      .getByRole("cell", { name: /cancels at period end|Active/ })
      .first()
      .click();
    await page.waitForURL(new RegExp(`/subscriptions/${s.subscriptionId}/show$`));
    expect(stack.takeProblems(page)).toEqual([]);
  });
});
