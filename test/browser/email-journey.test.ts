// The customer emails through the hosted pages, in Chromium against the running stack (API, worker,
// Mailpit): a buyer's receipt arrives once and its links open the portal and the invoice; the owner
// hears of the sale; a subscriber's cancellation email and the owner's notice; a declined
// renewal's payment-failed email links to the payment methods. Each email is counted by Message-ID.
import { randomUUID } from "node:crypto";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { linkIn, mailsTo, mailsWithMessageId, testClocks, type MailMessage } from "../harness/index.js";
import { useBrowserStack } from "./harness.js";
import { card, emailedCode, fill, openShop, see, type Shop } from "./shop.js";

const poll = { timeout: 30_000, interval: 200 };

describe("emails through the hosted pages", { timeout: 180_000 }, () => {
  const stack = useBrowserStack();
  let shop: Shop;
  let owner = "";
  const tag = randomUUID().slice(0, 8);

  beforeAll(async () => {
    shop = await openShop(stack, "Aurora Tools");
    owner = `owner-${tag}@example.com`;
    const [user] = await stack.knex("users").insert({ name: "Olga Owner", email: owner, email_verified: true }).returning("id");
    await stack.knex("members").insert({ organization_id: shop.org.id, user_id: user.id, role: "owner" });
  });

  /** The one send of `kind` to `recipient`, once sent: arrived in Mailpit exactly once (by its Message-ID, and by its subject). */
  async function arrivedOnce(kind: string, recipient: string): Promise<MailMessage> {
    const rows = () => stack.knex("email_sends").where({ organization_id: shop.org.id, kind, recipient });
    await expect.poll(async () => (await rows()).map((r: { status: string }) => r.status), poll).toEqual(["sent"]);
    const [row] = await rows();
    const mails = await mailsWithMessageId(recipient, row.message_id);
    expect(mails, `${kind} to ${recipient}`).toHaveLength(1);
    expect(mails[0].subject).toBe(row.subject);
    expect(mails[0].to).toEqual([recipient]);
    expect(
      (await mailsTo(recipient)).filter((m) => m.Subject === row.subject),
      `${kind} to ${recipient}`,
    ).toHaveLength(1);
    return mails[0];
  }

  /** Signs in to the portal page shown with the code emailed to `email`. */
  async function signInWithCode(page: Page, email: string): Promise<void> {
    await page.getByRole("heading", { name: "Sign in to your customer portal" }).waitFor();
    const code = await emailedCode(page, email);
    await page.getByLabel("Code").fill(code);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByTestId("signed-in-as").waitFor();
  }

  it("a one-time purchase on the hosted checkout: the receipt once, its order and invoice links; the owner's new sale", async () => {
    const buyer = `buyer-${tag}@example.com`;
    const guide = await shop.polar.products.create({
      name: "Field Guide to Auroras",
      recurringInterval: null,
      prices: [{ amountType: "fixed", priceAmount: 4000, priceCurrency: "usd" }],
    });
    const checkout = await shop.polar.checkouts.create({ products: [guide.id] });
    const page = await stack.newPage();
    await page.goto(checkout.url);
    await fill(page, "Email", buyer);
    await fill(page, "Name", "Ada Lovelace");
    await page.getByLabel("Country").selectOption("FR");
    await card(page, "4242 4242 4242 4242");
    await page.getByRole("button", { name: "Pay $40" }).click();
    await page.getByRole("heading", { name: "Thank you, Ada Lovelace!" }).waitFor({ timeout: 30_000 });
    const order = await stack.knex("orders").where({ checkout_id: checkout.id, status: "paid" }).first("id");

    const receipt = await arrivedOnce("order_confirmation", buyer);
    expect(receipt.subject).toContain("Aurora Tools");
    const sale = await arrivedOnce("notification_new_sale", owner);
    expect(sale.subject).toContain("Field Guide to Auroras");
    expect(sale.text).toContain(buyer);

    // The receipt as the buyer's mail client shows it.
    const mailPage = await stack.newPage();
    await mailPage.setContent(receipt.html, { waitUntil: "load" });
    await see(mailPage, "Here is your receipt for Field Guide to Auroras.");
    await stack.check(mailPage, "email-journey-receipt");

    // The invoice link answers the PDF.
    const invoiceHref = await mailPage.getByRole("link", { name: "Download the invoice (PDF)" }).getAttribute("href");
    expect(invoiceHref).toContain(`/emails/invoices/${order.id}`);
    const pdf = await mailPage.request.get(invoiceHref!);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()["content-type"]).toContain("application/pdf");
    expect((await pdf.body()).subarray(0, 4).toString("latin1")).toBe("%PDF");

    // "View your order" opens the portal in a new tab (as mail clients do), which asks for the
    // emailed code and then shows that order; the tab is followed in a guarded page.
    const [tab] = await Promise.all([mailPage.waitForEvent("popup"), mailPage.getByRole("link", { name: "View your order" }).click()]);
    await tab.waitForLoadState();
    expect(tab.url()).toContain(`/${shop.org.slug}/portal/orders?order=${order.id}`);
    await tab.close();
    const portal = await stack.newPage();
    await portal.goto(tab.url());
    await signInWithCode(portal, buyer);
    await portal.getByRole("heading", { name: "Your order" }).waitFor();
    const shown = portal.locator(`article:has(h3[id="order-${order.id}"])`);
    await shown.waitFor();
    expect(await portal.locator("article.order").count()).toBe(1);
    expect(await shown.textContent()).toContain("Field Guide to Auroras");
    await stack.check(portal, "email-journey-portal-order");
  });

  it("a subscriber cancels in the portal: the cancellation once and the owner's notice; a declined renewal's update-card link opens the payment methods", async () => {
    const subscriber = `subscriber-${tag}@example.com`;
    const clocks = testClocks(stack.url, shop.token, poll);
    const pro = await shop.polar.products.create({
      name: "Aurora Pro",
      recurringInterval: "month",
      prices: [{ amountType: "fixed", priceAmount: 1200, priceCurrency: "usd" }],
    });
    // The subscriber lives on a test clock, so the renewal can be brought forward.
    const customer = await shop.polar.customers.create({ email: subscriber, name: "Linus Subscriber" });
    const clockId = String((await clocks.call("POST", "", { name: "email journey", frozen_time: "2028-03-01T10:00:00Z" })).json.id);
    expect((await clocks.call("POST", `${clockId}/customers`, { customer_id: customer.id })).status).toBe(200);
    const checkout = await shop.polar.checkouts.create({ products: [pro.id], customerId: customer.id });
    const page = await stack.newPage();
    await page.goto(checkout.url);
    await page.getByLabel("Country").selectOption("FI");
    await card(page, "4242 4242 4242 4242");
    await page.getByRole("button", { name: "Subscribe for $12 / month" }).click();
    await page.getByRole("heading", { name: /^Thank you/ }).waitFor({ timeout: 30_000 });

    // Cancelled at period end in the portal.
    const token = (await shop.polar.customerSessions.create({ customerId: customer.id })).token;
    const portal = await stack.newPage();
    await portal.goto(`${stack.url}/${shop.org.slug}/portal/subscriptions?customer_session_token=${token}`);
    await portal.getByRole("heading", { name: "Aurora Pro" }).waitFor();
    await portal.getByRole("button", { name: "Cancel subscription" }).click();
    await portal.getByLabel("Why are you cancelling?").selectOption("unused");
    await portal.getByRole("button", { name: "Cancel at period end" }).click();
    await see(portal, /^Cancels on /);

    const cancellation = await arrivedOnce("subscription_cancellation", subscriber);
    expect(cancellation.subject).toContain("Aurora Pro");
    const subscription = await stack.knex("subscriptions").where({ customer_id: customer.id }).first("id");
    const manage = linkIn(cancellation, `/${shop.org.slug}/portal/subscriptions`);
    expect(manage).toContain(subscription.id);
    const notice = await arrivedOnce("notification_subscription_cancellation", owner);
    expect(notice.subject).toContain("Aurora Pro");

    // The email's manage link opens that subscription; kept after all there; then the card
    // declines the renewal.
    await portal.goto(manage);
    await portal.getByRole("heading", { name: "Your subscription" }).waitFor();
    await portal.locator(`article:has(h3[id="sub-${subscription.id}"])`).waitFor();
    await portal.getByRole("button", { name: "Keep my subscription" }).click();
    await portal.getByRole("button", { name: "Cancel subscription" }).waitFor();
    await arrivedOnce("subscription_uncanceled", subscriber);
    await stack
      .knex("payment_methods")
      .where({ customer_id: customer.id })
      .update({ processor_ref: "pm_sandbox_4000000000009995_nofunds" });
    await clocks.advance(clockId, "2028-04-01T11:00:00Z");
    const failed = await arrivedOnce("subscription_payment_failed", subscriber);
    expect(failed.subject).toContain("Aurora Pro");

    // The email's update-card link, clicked, opens the portal's payment methods in a new tab; the
    // signed-in portal tab follows it.
    const mailPage = await stack.newPage();
    await mailPage.setContent(failed.html, { waitUntil: "load" });
    const [tab] = await Promise.all([
      mailPage.waitForEvent("popup"),
      mailPage.getByRole("link", { name: "Update your payment method" }).click(),
    ]);
    await tab.waitForLoadState();
    expect(tab.url()).toBe(`${stack.url}/${shop.org.slug}/portal/payment-methods`);
    await tab.close();
    await portal.goto(tab.url());
    await portal.getByTestId("payment-method").first().waitFor();
    await stack.check(portal, "email-journey-payment-methods");
  });
});
