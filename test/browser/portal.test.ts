// The customer portal in Chromium against the running stack: sign-in by emailed code and by the
// merchant's link; every section (overview, orders and invoices, subscriptions with proration,
// cancel and uncancel, benefits, usage, payment methods, billing details); the link back to the
// merchant; sections switched off; and what an email's link opens. Every page: axe, 375 px, screenshots.
import type { Page } from "playwright-core";
import { Polar as Polar049 } from "polar-sdk-049";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFile, createOrder, createPayment, latestMail } from "../harness/index.js";
import { foldUsage } from "../../server/meters/fold.js";
import { useBrowserStack } from "./harness.js";
import { emailedCode, expectText, openShop, see, type Shop } from "./shop.js";
import { sleep } from "../../server/kit/time.js";

describe("customer portal", { timeout: 180_000 }, () => {
  const stack = useBrowserStack();
  let shop: Shop;
  let basic: { id: string };
  let pro: { id: string };
  const email = "portal.buyer@example.com";
  let customerId = "";
  let sessionToken = "";
  let licenseKey = "";

  const portalUrl = (section = "") => `${stack.url}/${shop.org.slug}/portal${section ? `/${section}` : ""}`;
  const open = async (section = "", allow: Parameters<typeof stack.newPage>[0] = {}) => {
    const page = await stack.newPage(allow);
    await page.goto(`${portalUrl(section)}?customer_session_token=${sessionToken}`);
    await page.getByTestId("signed-in-as").waitFor();
    return page;
  };
  const nav = (page: Page, name: string) => page.getByRole("navigation", { name: "Customer portal" }).getByRole("link", { name });

  beforeAll(async () => {
    shop = await openShop(stack, "Northern Lights Co");
    const { polar } = shop;
    const license = await polar.benefits.create({
      type: "license_keys",
      description: "Desktop app license",
      properties: { prefix: "NL", activations: { limit: 3, enableCustomerAdmin: true } },
    });
    const github = await polar.benefits.create({
      type: "github_repository",
      description: "Access to the private repository",
      properties: { repositoryOwner: "northern-lights", repositoryName: "aurora-sdk", permission: "pull" },
    });
    const file = await createFile(stack.knex, shop.org.id, {
      name: "aurora-handbook.pdf",
      mime_type: "application/pdf",
      service: "downloadable",
    });
    const downloads = await polar.benefits.create({
      type: "downloadables",
      description: "The Aurora handbook (PDF)",
      properties: { files: [file.id] },
    });
    basic = await polar.products.create({
      name: "Aurora Basic",
      recurringInterval: "month",
      prices: [{ amountType: "fixed", priceAmount: 1000, priceCurrency: "usd" }],
    });
    pro = await polar.products.create({
      name: "Aurora Pro",
      recurringInterval: "month",
      prices: [{ amountType: "fixed", priceAmount: 3000, priceCurrency: "usd" }],
    });
    await polar.products.updateBenefits({ id: basic.id, productBenefitsUpdate: { benefits: [license.id, github.id, downloads.id] } });

    const checkout = await polar.checkouts.create({ products: [basic.id], customerEmail: email, customerName: "Portal Buyer" });
    await polar.checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: { customerBillingAddress: { country: "FR" }, confirmationTokenId: "tok_sandbox_success" },
    });
    const customer = await stack.knex("customers").where({ organization_id: shop.org.id, email }).first();
    customerId = customer.id;
    sessionToken = (await polar.customerSessions.create({ customerId })).token;
    // The worker grants the benefits; the license key is made by its grant.
    for (let i = 0; i < 120 && !licenseKey; i++) {
      licenseKey = (await stack.knex("license_keys").where({ customer_id: customerId }).first())?.key ?? "";
      if (!licenseKey) await sleep(250);
    }
    if (!licenseKey) throw new Error("the worker made no license key in 30 s");
    // A device activated the key (the app does this with the key, no session).
    await polar.customerPortal.licenseKeys.activate({ key: licenseKey, organizationId: shop.org.id, label: "Ada's laptop" });
  });
  afterAll(async () => {
    await stack.knex("customer_session_codes").where({ organization_id: shop.org.id }).delete();
  });

  it("signs in with the code emailed through Mailpit", async () => {
    const page = await stack.newPage({ allow: [{ status: 401, url: "/customer-session/authenticate" }] });
    await page.goto(portalUrl());
    await page.getByRole("heading", { name: "Sign in to your customer portal" }).waitFor();
    await stack.check(page, "portal-sign-in");
    const code = await emailedCode(page, email);
    // A wrong code first: the server's message by the field.
    await page.getByLabel("Code").fill("AAAAAA");
    await page.getByRole("button", { name: "Sign in" }).click();
    await see(page, "This code is wrong, was already used, or has expired.");
    await page.getByLabel("Code").fill(code);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expectText(page, "signed-in-as", email);
    await page.getByRole("heading", { name: "Welcome, Portal Buyer" }).waitFor();
    await see(page, "Aurora Basic");
    await stack.check(page, "portal-overview");
    // Signed out: the session is forgotten in this tab.
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "Sign in to your customer portal" }).waitFor();
  });

  it("opens from the merchant's link and takes the token out of the address bar", async () => {
    const page = await open();
    expect(new URL(page.url()).search).toBe("");
    await page.getByRole("heading", { name: "Welcome, Portal Buyer" }).waitFor();
    await page.reload();
    await expectText(page, "signed-in-as", email);
  });

  it("links back to the merchant's app when the session was opened with a return URL, and not otherwise", async () => {
    const session = await new Polar049({ accessToken: shop.token, serverURL: stack.url }).customerSessions.create({
      customerId,
      returnUrl: "https://northern-lights.example/account",
    });
    const page = await stack.newPage();
    await page.goto(`${portalUrl()}?customer_session_token=${session.token}`);
    const back = page.getByRole("link", { name: "← Back to Northern Lights Co" });
    await back.waitFor();
    expect(await back.getAttribute("href")).toBe("https://northern-lights.example/account");
    await stack.check(page, "portal-back-link");
    // The merchant's link without one: no back link.
    const plain = await open();
    await plain.getByRole("heading", { name: "Welcome, Portal Buyer" }).waitFor();
    expect(await plain.getByTestId("back-to-merchant").count()).toBe(0);
  });

  it("shows benefits: the license key with its activation to free, GitHub access to connect, the download", async () => {
    const page = await open("benefits");
    await expectText(page, "license-key", licenseKey);
    await see(page, "Ada's laptop");
    await see(page, "northern-lights/aurora-sdk");
    await page.getByRole("link", { name: "Download aurora-handbook.pdf" }).waitFor();
    await stack.check(page, "portal-benefits");
    await page.getByRole("button", { name: "Deactivate Ada's laptop" }).click();
    await expect.poll(() => page.getByText("Ada's laptop").count(), { timeout: 10_000 }).toBe(0);
    const live = stack
      .knex("license_key_activations")
      .whereNull("deleted_at")
      .whereIn("license_key_id", stack.knex("license_keys").where({ key: licenseKey }).select("id"));
    expect(await live).toHaveLength(0);
    // GitHub access waits for the customer's account (connecting it calls GitHub, which this machine can't reach).
    await page.getByLabel("Your GitHub username").waitFor();
  });

  it("changes plan after the server's proration preview, then cancels with a reason and uncancels", async () => {
    const page = await open("subscriptions");
    await page.getByRole("heading", { name: "Aurora Basic" }).waitFor();
    await page.getByLabel("Change plan").selectOption({ label: "Aurora Pro" });
    await see(page, "Unused time on Aurora Basic");
    await expectText(page, "new-amount", "$30 / month");
    await stack.check(page, "portal-subscription-change");
    // Refused since the page was read (the organization turned plan changes off): Polar's 403 detail, by the field.
    const allowUpdates = (on: boolean) =>
      stack
        .knex("organizations")
        .where({ id: shop.org.id })
        .update({
          subscription_settings: stack.knex.raw("subscription_settings || ?::jsonb", [JSON.stringify({ allow_customer_updates: on })]),
        });
    await allowUpdates(false);
    stack.allow(page, { status: 403, url: "/v1/customer-portal/subscriptions/" });
    await page.getByRole("button", { name: "Confirm plan change" }).click();
    await expect.poll(() => page.getByLabel("Change plan").getAttribute("aria-invalid")).toBe("true");
    await see(page, "Updating subscription plan is not allowed.");
    await allowUpdates(true);
    await page.getByRole("button", { name: "Confirm plan change" }).click();
    await page.getByRole("heading", { name: "Aurora Pro" }).waitFor();
    await expectText(page, "subscription-amount", "$30 / month");

    await page.getByRole("button", { name: "Cancel subscription" }).click();
    await page.getByLabel("Why are you cancelling?").selectOption("too_expensive");
    await page.getByLabel("Anything we could do better? (optional)").fill("A yearly plan, please.");
    await stack.check(page, "portal-subscription-cancel");
    await page.getByRole("button", { name: "Cancel at period end" }).click();
    await see(page, /^Cancels on /);
    const sub = await stack.knex("subscriptions").where({ customer_id: customerId }).first();
    expect(sub).toMatchObject({
      cancel_at_period_end: true,
      customer_cancellation_reason: "too_expensive",
      customer_cancellation_comment: "A yearly plan, please.",
      product_id: pro.id,
    });
    await page.getByRole("button", { name: "Keep my subscription" }).click();
    await page.getByRole("button", { name: "Cancel subscription" }).waitFor();
    expect((await stack.knex("subscriptions").where({ id: sub.id }).first()).cancel_at_period_end).toBe(false);
  });

  it("downloads an invoice, and pays a failed order with a new card", async () => {
    const [product] = await stack.knex("products").where({ id: basic.id });
    const failed = await createOrder(
      stack.knex,
      shop.org.id,
      { customerId, productId: product.id },
      { status: "pending", subtotal_amount: 1500, items: [{ label: "Aurora Basic — overdue", amount: 1500 }] },
    );
    await createPayment(stack.knex, shop.org.id, {
      order_id: failed.id,
      status: "failed",
      amount: 1500,
      decline_reason: "card_declined",
      decline_message: "Your card was declined.",
    });
    const page = await open("orders");
    await see(page, "Payment needed");
    await stack.check(page, "portal-orders");

    // The invoice is made by the worker, then opened in a new tab (a PDF download).
    const popup = page.waitForEvent("popup", { timeout: 45_000 });
    await page
      .getByRole("button", { name: /^Download the invoice of / })
      .last()
      .click();
    await popup;
    const link = await page.getByTestId("invoice-link").getAttribute("href");
    const pdf = await fetch(link!);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toContain("pdf");
    expect((await pdf.arrayBuffer()).byteLength).toBeGreaterThan(500);

    await page.getByRole("button", { name: "Pay with another card" }).click();
    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByLabel("Expiry (MM / YY)").fill("1234");
    await page.getByLabel("Security code").fill("123");
    await page.getByRole("button", { name: "Pay $15", exact: true }).click();
    await see(page, "Paid. Thank you!");
    expect((await stack.knex("orders").where({ id: failed.id }).first()).status).toBe("paid");
    // The list reloads with the order paid (no payment asked for any more), and the thanks stay.
    await expect.poll(() => page.getByText("Payment needed").count(), { timeout: 10_000 }).toBe(0);
    await see(page, "Paid. Thank you!");
  });

  it("adds a card, makes it the default, and removes the old one once it no longer pays the subscription", async () => {
    const page = await open("payment-methods", { allow: [{ status: 400, url: "/payment-methods/" }] });
    await page.getByTestId("payment-method").first().waitFor();
    // The card from the checkout pays the subscription: removing it says why not.
    await page.getByRole("button", { name: /^Remove Visa ending in 4242/ }).click();
    await see(page, "This payment method pays an active subscription; add another one first.");
    await stack.check(page, "portal-payment-methods");

    await page.getByRole("button", { name: "Add a card" }).click();
    await page.getByLabel("Card number").fill("5555 5555 5555 4444");
    await page.getByLabel("Expiry (MM / YY)").fill("1234");
    await page.getByLabel("Security code").fill("123");
    await page.getByLabel("Use this card for my subscriptions from now on").uncheck();
    await page.getByRole("button", { name: "Save card" }).click();
    await page.getByRole("button", { name: /^Make Mastercard ending in 4444 the default/ }).click();
    await see(page, /Mastercard ending in 4444\s*Default/);
    await page.getByRole("button", { name: /^Remove Visa ending in 4242/ }).click();
    await expect.poll(() => page.getByTestId("payment-method").count(), { timeout: 10_000 }).toBe(1);
  });

  it("saves billing details, with the server's message by a wrong tax id", async () => {
    const page = await open("billing", { allow: [{ status: 422, url: "/customers/me" }] });
    await page.getByLabel("Country").selectOption("DE");
    await page.getByLabel("Address", { exact: true }).fill("Unter den Linden 1");
    await page.getByLabel("City").fill("Berlin");
    await page.getByLabel("Postal code").fill("10117");
    await page.getByLabel("Tax ID").fill("not a tax id");
    await page.getByRole("button", { name: "Save billing details" }).click();
    await see(page, "Invalid tax ID.");
    await page.getByLabel("Tax ID").fill("DE136695976");
    await page.getByRole("button", { name: "Save billing details" }).click();
    await see(page, "Saved.");
    await stack.check(page, "portal-billing");
    const row = await stack.knex("customers").where({ id: customerId }).first();
    expect(row.billing_address).toMatchObject({ country: "DE", city: "Berlin", postal_code: "10117" });
    expect(row.tax_id).toEqual(["DE136695976", "eu_vat"]);
  });

  it("shows usage meters in their units: tokens per million, a custom unit by its label", async () => {
    const newer = new Polar049({ accessToken: shop.token, serverURL: stack.url });
    const filter = { conjunction: "and" as const, clauses: [{ property: "name", operator: "eq" as const, value: "llm_call" }] };
    await newer.meters.create({ name: "Tokens", unit: "token", filter, aggregation: { func: "sum", property: "tokens" } });
    await newer.meters.create({
      name: "Storage",
      unit: "custom",
      customLabel: "gigabyte",
      filter,
      aggregation: { func: "sum", property: "gb" },
    });
    await shop.polar.events.ingest({ events: [{ name: "llm_call", customerId, metadata: { tokens: 2_500_000, gb: 12 } }] });
    await foldUsage(stack.knex);
    const page = await open("usage");
    const table = page.getByRole("table");
    await table.getByRole("row", { name: /Tokens/ }).waitFor();
    expect(await table.getByRole("row", { name: /Tokens/ }).textContent()).toContain("2.5 × 1M tokens");
    expect(await table.getByRole("row", { name: /Storage/ }).textContent()).toContain("12 gigabyte");
    await stack.check(page, "portal-usage");
  });

  it("hides the sections the organization switched off, and their API refuses", async () => {
    await stack
      .knex("organizations")
      .where({ id: shop.org.id })
      .update({
        customer_portal_settings: JSON.stringify({
          orders: true,
          subscriptions: true,
          benefits: true,
          usage: false,
          payment_methods: false,
          billing_details: true,
        }),
      });
    try {
      const page = await open();
      await nav(page, "Orders").waitFor();
      expect(await nav(page, "Payment methods").count()).toBe(0);
      // The API shows usage as `{ show: false }`: hidden too.
      expect(await nav(page, "Usage").count()).toBe(0);
      await page.goto(portalUrl("payment-methods"));
      await see(page, "Payment methods are not available here.");
      const res = await fetch(`${stack.url}/v1/customer-portal/customers/me/payment-methods`, {
        headers: { authorization: `Bearer ${sessionToken}` },
      });
      expect(res.status).toBe(403);
    } finally {
      await stack
        .knex("organizations")
        .where({ id: shop.org.id })
        .update({
          customer_portal_settings: JSON.stringify({
            orders: true,
            subscriptions: true,
            benefits: true,
            usage: true,
            payment_methods: true,
            billing_details: true,
          }),
        });
    }
  });

  it("opens the order and the subscription an email links to, even one past the list's first page", async () => {
    const first = await stack.knex("orders").where({ customer_id: customerId }).orderBy("created_at").first("id");
    for (let i = 1; i <= 10; i++)
      await createOrder(
        stack.knex,
        shop.org.id,
        { customerId, productId: basic.id },
        { items: [{ label: `Aurora Basic — extra ${i}`, amount: 2500 }] },
      );
    const page = await stack.newPage();
    await page.goto(`${portalUrl("orders")}?order=${first.id}&customer_session_token=${sessionToken}`);
    await page.getByRole("heading", { name: "Your order" }).waitFor();
    await page.locator(`article:has(h3[id="order-${first.id}"])`).waitFor();
    expect(await page.locator("article.order").count()).toBe(1);
    await stack.check(page, "portal-opened-order");
    await page.getByRole("link", { name: "All orders" }).click();
    await page.getByRole("navigation", { name: "Pages of orders" }).waitFor();
    expect(await page.locator("article.order").count()).toBe(10);

    const sub = await stack.knex("subscriptions").where({ customer_id: customerId }).first("id");
    await page.goto(`${portalUrl("subscriptions")}?subscription=${sub.id}`);
    await page.getByRole("heading", { name: "Your subscription" }).waitFor();
    await page.locator(`article:has(h3[id="sub-${sub.id}"])`).waitFor();
    await page.getByRole("link", { name: "All subscriptions" }).waitFor();
  });

  it("asks which account when the email is a member of several, then signs in to the one chosen", async () => {
    const merchant = (method: string, path: string, body: unknown) =>
      fetch(`${stack.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${shop.token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      }).then((r) => r.json() as Promise<{ id: string }>);
    await merchant("PATCH", `/v1/organizations/${shop.org.id}`, { feature_settings: { member_model_enabled: true } });
    try {
      const shared = "shared.member@example.com";
      const teams = [];
      for (const name of ["Aurora Labs", "Borealis Studio"]) {
        const team = await merchant("POST", "/v1/customers/", {
          type: "team",
          name,
          email: `${name.split(" ")[0]!.toLowerCase()}@example.com`,
        });
        await merchant("POST", `/v1/customers/${team.id}/members`, { email: shared, name: "Sam Shared" });
        teams.push(team);
      }
      const page = await stack.newPage({ allow: [{ status: 409, url: "/customer-session/request" }] });
      await page.goto(portalUrl());
      await page.getByLabel("Email").fill(shared);
      await page.getByRole("button", { name: "Email me a code" }).click();
      await see(page, "This email belongs to several accounts with Northern Lights Co.");
      const account = page.getByLabel("Account");
      expect(await account.locator("option").allTextContents()).toEqual(["Choose an account", "Aurora Labs", "Borealis Studio"]);
      // Sent without a choice: the reason by the field.
      await page.getByRole("button", { name: "Email me a code" }).click();
      await see(page, "Choose the account to sign in to.");
      await stack.check(page, "portal-sign-in-account");
      await account.selectOption({ label: "Borealis Studio" });
      const asked = new Date(Date.now() - 1000);
      await page.getByRole("button", { name: "Email me a code" }).click();
      await see(page, "a code is on its way");
      const code = /sign-in code: ([A-Z0-9]{6})$/.exec((await latestMail(shared, { subject: /sign-in code/, after: asked })).subject)![1]!;
      await page.getByLabel("Code").fill(code);
      await page.getByRole("button", { name: "Sign in" }).click();
      // Signed in as the member (the team's own email is another).
      await expectText(page, "signed-in-as", shared);
      const session = await stack
        .knex("customer_sessions")
        .whereIn(
          "customer_id",
          teams.map((t) => t.id),
        )
        .orderBy("created_at", "desc")
        .first("customer_id", "member_id");
      const member = await stack.knex("customer_members").where({ customer_id: teams[1]!.id, email: shared }).first("id");
      expect(session).toEqual({ customer_id: teams[1]!.id, member_id: member.id });
      expect(stack.takeProblems(page)).toEqual([]);
    } finally {
      await merchant("PATCH", `/v1/organizations/${shop.org.id}`, { feature_settings: { member_model_enabled: false } });
    }
  });
});
