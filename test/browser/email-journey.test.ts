// Issue 32's emails through the hosted pages, in Chromium against the running stack (API, worker,
// Mailpit): a buyer pays on the hosted checkout and gets the receipt once, whose links open the
// order in the portal (signed in with the emailed code) and the invoice PDF; the merchant's owner
// hears of the sale. Each email is read from Mailpit and counted by its Message-ID.
import { randomUUID } from "node:crypto";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { latestMail, mailsTo, type MailMessage } from "../harness/index.js";
import { useBrowserStack } from "./harness.js";
import { card, emailedCode, fill, openShop, see, type Shop } from "./shop.js";

const poll = { timeout: 30_000, interval: 200 };

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

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

  /** The one send of `kind` to `recipient`, once sent: arrived in Mailpit exactly once (its Message-ID and its subject). */
  async function arrivedOnce(kind: string, recipient: string): Promise<MailMessage> {
    const rows = () => stack.knex("email_sends").where({ organization_id: shop.org.id, kind, recipient });
    await expect.poll(async () => (await rows()).map((r: { status: string }) => r.status), poll).toEqual(["sent"]);
    const [row] = await rows();
    const received = await mailsTo(recipient);
    expect(received.filter((m) => `<${m.MessageID}>` === row.message_id), `${kind} to ${recipient}`).toHaveLength(1);
    expect(received.filter((m) => m.Subject === row.subject), `${kind} to ${recipient}`).toHaveLength(1);
    const mail = await latestMail(recipient, { subject: new RegExp(`^${escapeRegExp(row.subject)}$`) });
    expect(mail.to).toEqual([recipient]);
    return mail;
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
    const guide = await shop.polar.products.create({ name: "Field Guide to Auroras", recurringInterval: null, prices: [{ amountType: "fixed", priceAmount: 4000, priceCurrency: "usd" }] });
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
    const shown = portal.locator(`article:has(h3[id="order-${order.id}"])`);
    await shown.waitFor();
    expect(await shown.textContent()).toContain("Field Guide to Auroras");
    await stack.check(portal, "email-journey-portal-order");
  });
});
