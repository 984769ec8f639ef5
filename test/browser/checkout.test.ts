// The hosted checkout in Chromium against the running stack: custom fields and a discount code,
// a declined card then a good one, 3-D Secure, a subscription with its license key, free checkouts
// with no card, the success_url redirect, the expired, paid and error pages, and a confirm whose
// API dies mid-charge. Every page: axe, 375 px, screenshots.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { setProcessor } from "../../server/processors/index.js";
import type { ConfirmPaymentInput } from "../../server/processors/processor.js";
import { readSandboxLedger, SandboxProcessor } from "../../server/processors/sandbox.js";
import { startProcess } from "../harness/index.js";
import { useBrowserStack } from "./harness.js";
import { card, countCheckoutCalls, expectText, fill, openShop, see, type Shop } from "./shop.js";
import { sleep } from "../../server/kit/time.js";

const CLIENT = "/v1/checkouts/client/";

/** The guide's required fields, a billing country and a card, then Pay. */
async function payForGuide(page: Page, company: string, country: string, cardNumber: string): Promise<void> {
  await fill(page, "Company", company);
  await page.getByLabel("I accept the terms").check();
  await page.getByLabel("Country").selectOption(country);
  await card(page, cardNumber);
  await page.getByRole("button", { name: "Pay $40" }).click();
}

describe("hosted checkout", { timeout: 120_000 }, () => {
  const stack = useBrowserStack();
  let shop: Shop;
  let ebook: { id: string };

  beforeAll(async () => {
    shop = await openShop(stack);
    const { polar } = shop;
    const company = await polar.customFields.create({
      type: "text",
      slug: "company",
      name: "Company",
      properties: { formLabel: "Company", minLength: 3, maxLength: 40 },
    });
    const seats = await polar.customFields.create({
      type: "number",
      slug: "seats",
      name: "Seats",
      properties: { formLabel: "Seats", ge: 1, le: 50 },
    });
    const start = await polar.customFields.create({
      type: "date",
      slug: "start",
      name: "Start date",
      properties: { formLabel: "Start date" },
    });
    const terms = await polar.customFields.create({
      type: "checkbox",
      slug: "terms",
      name: "Terms",
      properties: { formLabel: "I accept the terms" },
    });
    const plan = await polar.customFields.create({
      type: "select",
      slug: "plan",
      name: "Plan",
      properties: {
        formLabel: "Team size",
        options: [
          { value: "solo", label: "Just me" },
          { value: "team", label: "A team" },
        ],
      },
    });
    ebook = await polar.products.create({
      name: "Field Guide to Auroras",
      description: "A 240-page guide to seeing and photographing the northern lights.",
      recurringInterval: null,
      prices: [{ amountType: "fixed", priceAmount: 4000, priceCurrency: "usd" }],
      attachedCustomFields: [
        { customFieldId: company.id, required: true },
        { customFieldId: seats.id, required: false },
        { customFieldId: start.id, required: false },
        { customFieldId: terms.id, required: true },
        { customFieldId: plan.id, required: false },
      ],
    });
    await polar.discounts.create({ name: "Launch", type: "percentage", basisPoints: 2500, duration: "once", code: "LAUNCH" });
  });

  it("buys a one-time product with custom fields and a discount code; errors show by their fields, totals are the server's", async () => {
    const checkout = await shop.polar.checkouts.create({ products: [ebook.id] });
    const page = await stack.newPage({ allow: [{ status: 422, url: CLIENT }] });
    const calls = countCheckoutCalls(page);
    await page.goto(checkout.url);
    await page.getByRole("heading", { name: "Field Guide to Auroras" }).waitFor();
    await expectText(page, "total", "$40");
    await stack.check(page, "checkout");

    let changes = 0;
    await fill(page, "Email", "ada@example.com");
    changes++;
    await fill(page, "Name", "Ada Lovelace");
    changes++;
    // Too short for the server (min 3): its message under the field, then fixed.
    await fill(page, "Company", "AB");
    changes++;
    await see(page, "String should have at least 3 characters");
    await fill(page, "Company", "Analytical Engines Ltd");
    changes++;
    await expect.poll(() => page.getByText("String should have at least 3 characters").count(), { timeout: 10_000 }).toBe(0);
    await fill(page, "Seats", "500");
    changes++;
    await see(page, "Input should be less than or equal to 50");
    await fill(page, "Seats", "12");
    changes++;
    await fill(page, "Start date", "2031-03-01");
    changes++;
    await page.getByLabel("I accept the terms").check();
    changes++;
    await page.getByLabel("Team size").selectOption("team");
    changes++;
    await page.getByLabel("Country").selectOption("FR");
    changes++;

    // A code that does not exist, then the real one: 25% off, as the server computes it.
    await page.getByLabel("Discount code").fill("NOPE");
    await page.getByRole("button", { name: "Apply" }).click();
    changes++;
    await see(page, "Discount does not exist.");
    await page.getByLabel("Discount code").fill("launch");
    await page.getByRole("button", { name: "Apply" }).click();
    changes++;
    await expectText(page, "discount", "−$10");
    await expectText(page, "total", "$30");
    await stack.check(page, "checkout-filled");

    await card(page, "4242 4242 4242 4242");
    await page.getByRole("button", { name: "Pay $30" }).click();
    await page.getByRole("heading", { name: "Thank you, Ada Lovelace!" }).waitFor({ timeout: 30_000 });
    await expectText(page, "order-total", "$30");
    await stack.check(page, "checkout-confirmation");

    const [order] = await stack.knex("orders").where({ checkout_id: checkout.id });
    expect(order).toMatchObject({ status: "paid", discount_amount: 1000 });
    expect(order.custom_field_data).toEqual({
      company: "Analytical Engines Ltd",
      seats: 12,
      start: "2031-03-01",
      terms: true,
      plan: "team",
    });
    // The budget: one load, one update per change, one confirm.
    expect(calls).toEqual({ get: 2, patch: changes, confirm: 1 });
  });

  it("shows a declined card's message by the card, then pays with a good card on the same checkout", async () => {
    const checkout = await shop.polar.checkouts.create({ products: [ebook.id], customerEmail: "grace@example.com" });
    const page = await stack.newPage({ allow: [{ status: 400, url: `${CLIENT}` }] });
    await page.goto(checkout.url);
    await fill(page, "Company", "Hopper & Co");
    await page.getByLabel("I accept the terms").check();
    await page.getByLabel("Country").selectOption("US");
    // A US address needs its state and postal code: the server asks for them by name.
    await page.getByLabel("Postal code").waitFor();
    await fill(page, "State / province", "US-NY");
    await fill(page, "Postal code", "10001");
    await card(page, "4000 0000 0000 0002");
    await page.getByRole("button", { name: "Pay $40" }).click();
    await see(page, "Your card was declined.");
    await stack.check(page, "checkout-declined");
    await card(page, "4000 0000 0000 9995");
    await page.getByRole("button", { name: "Pay $40" }).click();
    await see(page, "Your card has insufficient funds.");
    await card(page, "5555 5555 5555 4444");
    await page.getByRole("button", { name: "Pay $40" }).click();
    await page.getByRole("heading", { name: /^Thank you/ }).waitFor({ timeout: 30_000 });
    const payments = await stack.knex("payments").where({ checkout_id: checkout.id }).orderBy("created_at");
    expect(payments.map((p: { status: string; decline_reason: string | null }) => [p.status, p.decline_reason])).toEqual([
      ["failed", "card_declined"],
      ["failed", "insufficient_funds"],
      ["succeeded", null],
    ]);
  });

  it("asks for 3-D Secure with the authentication card, and completes after the challenge", async () => {
    const checkout = await shop.polar.checkouts.create({ products: [ebook.id], customerEmail: "katherine@example.com" });
    const page = await stack.newPage();
    await page.goto(checkout.url);
    await payForGuide(page, "Langley", "DE", "4000 0025 0000 3155");
    await page.getByRole("heading", { name: "Sandbox bank: 3-D Secure" }).waitFor({ timeout: 30_000 });
    await stack.check(page, "checkout-3ds");
    await page.getByRole("button", { name: "Complete authentication" }).click();
    await page.getByRole("heading", { name: /^Thank you/ }).waitFor({ timeout: 30_000 });
    expect((await stack.knex("checkouts").where({ id: checkout.id }).first()).status).toBe("succeeded");
  });

  it("buys a subscription and shows its license key on the confirmation", async () => {
    const license = await shop.polar.benefits.create({
      type: "license_keys",
      description: "Aurora Pro license",
      properties: { prefix: "AURORA" },
    });
    const pro = await shop.polar.products.create({
      name: "Aurora Pro",
      recurringInterval: "month",
      prices: [{ amountType: "fixed", priceAmount: 1200, priceCurrency: "usd" }],
    });
    await shop.polar.products.updateBenefits({ id: pro.id, productBenefitsUpdate: { benefits: [license.id] } });
    const checkout = await shop.polar.checkouts.create({ products: [pro.id] });
    const page = await stack.newPage();
    await page.goto(checkout.url);
    await expectText(page, "total", "$12 / month");
    await fill(page, "Email", "linus@example.com");
    await page.getByLabel("Country").selectOption("FI");
    await card(page, "4242424242424242");
    await page.getByRole("button", { name: "Subscribe for $12 / month" }).click();
    await page.getByRole("heading", { name: /^Thank you/ }).waitFor({ timeout: 30_000 });
    await page.getByTestId("license-key").waitFor({ timeout: 30_000 });
    const shown = (await page.getByTestId("license-key").textContent()) ?? "";
    const [key] = await stack.knex("license_keys").where({ benefit_id: license.id });
    expect(shown).toBe(key.key);
    expect(shown.startsWith("AURORA-")).toBe(true);
    await stack.check(page, "checkout-subscription-confirmation");

    // The confirmation's session shows this purchase alone: the portal asks for an emailed code,
    // with the email filled in, and a portal opened with that session says why.
    const purchaseToken = new URL(page.url()).searchParams.get("customer_session_token");
    expect(purchaseToken).toMatch(/^polar_cst_/);
    await page.getByRole("link", { name: /customer portal/ }).click();
    await page.getByRole("heading", { name: "Sign in to your customer portal" }).waitFor();
    expect(await page.getByLabel("Email").inputValue()).toBe("linus@example.com");
    stack.allow(page, { status: 403, url: "/v1/customer-portal/customers/me" });
    stack.allow(page, { status: 403, url: "/v1/customer-portal/customer-session/user" });
    await page.goto(`${stack.url}/${shop.org.slug}/portal?customer_session_token=${purchaseToken}`);
    await see(page, "Sign in with a code sent to your email to see everything you bought.");
  });

  it("confirms a free product and a 100%-discounted one without a card", async () => {
    const free = await shop.polar.products.create({
      name: "Aurora wallpaper pack",
      recurringInterval: null,
      prices: [{ amountType: "free" }],
    });
    await shop.polar.discounts.create({ name: "Gift", type: "percentage", basisPoints: 10000, duration: "once", code: "GIFT100" });
    const freeCheckout = await shop.polar.checkouts.create({ products: [free.id] });
    const page = await stack.newPage();
    await page.goto(freeCheckout.url);
    await fill(page, "Email", "free@example.com");
    expect(await page.getByLabel("Card number").count()).toBe(0);
    await stack.check(page, "checkout-free");
    await page.getByRole("button", { name: "Get it for free" }).click();
    await page.getByRole("heading", { name: /^Thank you/ }).waitFor({ timeout: 30_000 });

    const gift = await shop.polar.checkouts.create({ products: [ebook.id], customerEmail: "gift@example.com" });
    await page.goto(gift.url);
    await fill(page, "Company", "Gifted Inc");
    await page.getByLabel("I accept the terms").check();
    await page.getByLabel("Discount code").fill("GIFT100");
    await page.getByRole("button", { name: "Apply" }).click();
    await expectText(page, "total", "$0");
    await expect.poll(() => page.getByLabel("Card number").count(), { timeout: 10_000 }).toBe(0);
    await page.getByRole("button", { name: "Get it for free" }).click();
    await page.getByRole("heading", { name: /^Thank you/ }).waitFor({ timeout: 30_000 });
    expect(
      await stack.knex("orders").where({ checkout_id: gift.id, subtotal_amount: 4000, discount_amount: 4000, status: "paid" }),
    ).toHaveLength(1);
  });

  it("takes the buyer to the merchant's success_url with the checkout id", async () => {
    const checkout = await shop.polar.checkouts.create({
      products: [ebook.id],
      customerEmail: "redirect@example.com",
      successUrl: "https://merchant.example/thanks?checkout_id={CHECKOUT_ID}",
    });
    const page = await stack.newPage();
    await page.route("https://merchant.example/**", (route) =>
      route.fulfill({
        contentType: "text/html",
        body: "<!doctype html><html lang=en><title>Thanks</title><main><h1>Merchant thanks you</h1></main></html>",
      }),
    );
    await page.goto(checkout.url);
    await payForGuide(page, "Redirects", "FR", "4242424242424242");
    await page.getByText(/Taking you back to/).waitFor({ timeout: 30_000 });
    await page.waitForURL(`https://merchant.example/thanks?checkout_id=${checkout.id}`, { timeout: 15_000 });
  });

  it("shows a confirm refused over the discount (422) by the discount, with the server's totals read again", async () => {
    await shop.polar.discounts.create({
      name: "Last one",
      type: "fixed",
      amount: 500,
      currency: "usd",
      duration: "once",
      code: "LASTONE",
      maxRedemptions: 1,
    });
    const checkout = await shop.polar.checkouts.create({ products: [ebook.id], customerEmail: "late@example.com" });
    const page = await stack.newPage({ allow: [{ status: 422, url: CLIENT }] });
    const calls = countCheckoutCalls(page);
    await page.goto(checkout.url);
    await fill(page, "Company", "Late Ltd");
    await page.getByLabel("I accept the terms").check();
    await page.getByLabel("Country").selectOption("FR");
    await page.getByLabel("Discount code").fill("LASTONE");
    await page.getByRole("button", { name: "Apply" }).click();
    await expectText(page, "total", "$35");
    // Someone else takes the last redemption meanwhile.
    const other = await shop.polar.checkouts.create({ products: [ebook.id], customerEmail: "early@example.com" });
    // That buyer saw the discounted total before confirming (confirm charges only a total the buyer was shown).
    await shop.polar.checkouts.clientUpdate({ clientSecret: other.clientSecret, checkoutUpdatePublic: { discountCode: "LASTONE" } });
    await shop.polar.checkouts.clientConfirm({
      clientSecret: other.clientSecret,
      checkoutConfirmStripe: {
        discountCode: "LASTONE",
        customFieldData: { company: "Early Ltd", terms: true },
        customerBillingAddress: { country: "FR" },
        confirmationTokenId: "tok_sandbox_success",
      },
    });
    await card(page, "4242 4242 4242 4242");
    await page.getByRole("button", { name: "Pay $35" }).click();
    // Nothing charged: the refusal shows by the discount code field (the server took the used-up
    // discount off the checkout), and the page shows the server's new total before any new attempt.
    await page.getByRole("alert").filter({ hasText: "This discount has been fully redeemed." }).waitFor();
    expect(await page.getByLabel("Discount code").getAttribute("aria-describedby")).toContain("error");
    // The page read the checkout again after the refusal (its totals are the server's, whatever it decided).
    await expect.poll(() => calls.get, { timeout: 10_000 }).toBe(2);
    await expectText(page, "total", "$40");
    await page.getByRole("button", { name: "Pay $40" }).waitFor();
    expect(await stack.knex("orders").where({ checkout_id: checkout.id })).toHaveLength(0);
    await stack.check(page, "checkout-confirm-refused");
  });

  it("has a page for an expired checkout, an already paid one, and a server error", async () => {
    const expired = await shop.polar.checkouts.create({ products: [ebook.id] });
    await stack
      .knex("checkouts")
      .where({ id: expired.id })
      .update({ expires_at: new Date(Date.now() - 60_000) });
    const page = await stack.newPage({
      allow: [
        { status: 410, url: CLIENT },
        { status: 503, url: CLIENT },
      ],
    });
    await page.goto(expired.url);
    await page.getByRole("heading", { name: "This checkout has expired" }).waitFor();
    await stack.check(page, "checkout-expired");

    // Paid already: the page shows its confirmation.
    const paid = await shop.polar.checkouts.create({
      products: [(await shop.polar.products.create({ name: "Sticker", recurringInterval: null, prices: [{ amountType: "free" }] })).id],
    });
    await shop.polar.checkouts.clientConfirm({
      clientSecret: paid.clientSecret,
      checkoutConfirmStripe: { customerEmail: "paid@example.com" },
    });
    await page.goto(paid.url);
    await page.getByRole("heading", { name: /^Thank you/ }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/checkout/${paid.clientSecret}/confirmation`);

    // The server fails: the error page, and its retry loads the checkout once the server is back.
    const open = await shop.polar.checkouts.create({ products: [ebook.id] });
    let failing = true;
    await page.route(`**${CLIENT}${open.clientSecret}`, (route) =>
      failing
        ? route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ detail: "Service unavailable" }) })
        : route.fallback(),
    );
    await page.goto(open.url);
    await page.getByRole("heading", { name: "Something went wrong" }).waitFor();
    await stack.check(page, "checkout-error");
    failing = false;
    await page.getByRole("button", { name: "Try again" }).click();
    await page.getByRole("heading", { name: "Field Guide to Auroras" }).waitFor();
  });

  it("follows a confirm whose API process died mid-charge to its confirmation: processing, then paid", async () => {
    const ledgerDir = await mkdtemp(path.join(tmpdir(), "sandbox-ledger-"));
    // The API that takes the confirm: a process of its own, whose charges answer only after 10
    // minutes; it is killed once the card is charged.
    const doomed = await startProcess(
      "api",
      { ...process.env, PORT: "0", SANDBOX_LEDGER_DIR: ledgerDir, SANDBOX_CHARGE_DELAY_MS: "600000" },
      (l) => l.msg === "api listening",
    );
    // The stack's worker recovers the checkout through the same ledger, once the buyer was seen waiting.
    let letRecover = () => {};
    const recoverable = new Promise<void>((resolve) => (letRecover = resolve));
    const sandbox = new SandboxProcessor({ ledgerDir, chargeDelayMs: 0 });
    setProcessor(
      Object.assign(Object.create(sandbox) as SandboxProcessor, {
        confirmPayment: async (input: ConfirmPaymentInput) => {
          await recoverable;
          return sandbox.confirmPayment(input);
        },
      }),
    );
    try {
      const checkout = await shop.polar.checkouts.create({ products: [ebook.id], customerEmail: "caught@example.com" });
      const page = await stack.newPage({
        allow: [{ failure: /ERR_CONNECTION_RESET/, url: "/confirm" }, { console: /ERR_CONNECTION_RESET/ }],
      });
      // The confirm goes to the doomed API; the page's other calls to the stack's (another API on the same database).
      await page.route(`**${CLIENT}${checkout.clientSecret}/confirm`, async (route) => {
        const request = route.request();
        void fetch(`${String(doomed.line.url)}${new URL(request.url()).pathname}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: request.postData(),
        }).catch(() => undefined);
        for (let i = 0; i < 300 && (await readSandboxLedger(ledgerDir)).length === 0; i++) await sleep(100);
        doomed.child.kill("SIGKILL");
        await route.abort("connectionreset");
      });
      await page.goto(checkout.url);
      await payForGuide(page, "Caught Ltd", "FR", "4242424242424242");
      await page.getByRole("heading", { name: "Processing your payment…" }).waitFor({ timeout: 30_000 });
      expect(new URL(page.url()).pathname).toBe(`/checkout/${checkout.clientSecret}/confirmation`);
      expect(await stack.knex("checkouts").where({ id: checkout.id }).first("status")).toEqual({ status: "confirmed" });
      await stack.check(page, "checkout-processing");

      letRecover();
      await page.getByRole("heading", { name: /^Thank you/ }).waitFor({ timeout: 30_000 });
      expect(await stack.knex("orders").where({ checkout_id: checkout.id, status: "paid" })).toHaveLength(1);
      const charges = await readSandboxLedger(ledgerDir);
      expect(charges.map((c) => c.key)).toEqual([`confirm:checkout:${checkout.id}:confirm`]);
      expect(await stack.knex("payments").where({ checkout_id: checkout.id }).select("processor_ref")).toEqual([
        { processor_ref: (charges[0].value as { paymentRef: string }).paymentRef },
      ]);
    } finally {
      letRecover();
      setProcessor(null);
      doomed.child.kill("SIGKILL");
      await rm(ledgerDir, { recursive: true, force: true });
    }
  });
});
