// The emails in the console and the portal, in Chromium against the running stack (API, worker,
// Mailpit): Settings → Email saves and validates its fields and previews each template; an owner
// mutes a notification; the customer page lists and resends a real receipt; the portal saves a
// customer's reminders. Every screen: axe, 375 px, screenshots.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { createCustomer, createCustomerSessionToken, mailsTo, orgWithToken, ownerWithOrganization } from "../harness/index.js";
import { useBrowserStack } from "./harness.js";
import { seedOrganization, signIn } from "./console-helpers.js";

const poll = { timeout: 30_000, interval: 250 };

/** The preview iframe's document, as the browser holds it. */
async function previewHtml(page: Page): Promise<string> {
  return (await page.locator("iframe[title^='Preview']").getAttribute("srcdoc")) ?? "";
}

describe("emails: console and portal", { timeout: 240_000 }, () => {
  const stack = useBrowserStack();

  it("saves the email settings, shows a wrong colour next to its field, and previews the unsaved colour", async () => {
    const { org, token } = await orgWithToken(stack.knex);
    const page = await stack.newPage({ allow: [{ status: 403, url: "/notification-preferences" }] });
    await signIn(stack, page, token);
    await page.goto(`${stack.url}/dashboard/settings/emails`);
    await page.getByRole("heading", { name: "Email", exact: true }).waitFor();
    await expect.poll(() => previewHtml(page), poll).toContain("#0062ff");

    const color = page.getByLabel("Brand colour");
    await color.fill("blue");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("A colour is # and six hexadecimal digits").waitFor();
    expect(await color.getAttribute("aria-invalid")).toBe("true");

    await color.fill("#aa3300");
    // the preview follows the colour before it is saved, for every template chosen
    await expect.poll(() => previewHtml(page), poll).toContain("#aa3300");
    await page.getByRole("combobox", { name: "Template" }).click();
    await page.getByRole("option", { name: "Payment failed" }).click();
    await expect.poll(async () => (await page.getByTestId("preview-subject").textContent()) ?? "", poll).toMatch(/payment/i);
    await expect.poll(() => previewHtml(page), poll).toContain("#aa3300");
    await page.getByLabel("Renewal reminder, days before").fill("14");
    await page.getByLabel("Order receipt").uncheck();
    await page.getByLabel("A new sale").uncheck();
    await expect.poll(() => previewHtml(page), poll).toContain("#aa3300");
    await stack.check(page, "console-email-settings", { exclude: "iframe" });
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Email settings saved").waitFor();

    const stored = await stack.knex("organizations").where({ id: org.id }).first();
    expect(stored.email_settings).toEqual({ brand_color: "#aa3300", renewal_reminder_days: 14 });
    expect(stored.customer_email_settings).toMatchObject({ order_confirmation: false, subscription_cycled: true, benefit_granted: true });
    expect(stored.notification_settings).toMatchObject({ new_order: false, new_subscription: true });
    expect(stack.takeProblems(page)).toEqual([]);
  });

  it("lets a signed-in owner mute a notification for themselves", async () => {
    const owner = await ownerWithOrganization(stack.url, "Mira");
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
    await page.goto(`${stack.url}/dashboard/settings/emails`);
    await page.getByRole("heading", { name: "Your notifications" }).waitFor({ timeout: 60_000 });
    const refund = page.getByLabel("Refund", { exact: true });
    await expect.poll(() => refund.isChecked(), poll).toBe(true);
    await refund.uncheck();
    await page.getByText("Notification muted").waitFor();
    const muted = await stack
      .knex("member_notification_mutes")
      .where({ organization_id: owner.organizationId, user_id: owner.userId })
      .pluck("kind");
    expect(muted).toEqual(["notification_refund"]);
    await page.reload();
    await expect.poll(() => page.getByLabel("Refund", { exact: true }).isChecked(), poll).toBe(false);
    expect(await page.getByLabel("New sale", { exact: true }).isChecked()).toBe(true);
    expect(stack.takeProblems(page)).toEqual([]);
  });

  it("lists the emails a customer was sent and resends the receipt: a new row, a second mail", async () => {
    const s = await seedOrganization(stack);
    const customer = await stack.knex("customers").where({ id: s.customerId }).first("email");
    // the checkout's receipt, sent by the worker through the outbox
    const sentReceipt = () =>
      stack.knex("email_sends").where({ organization_id: s.orgId, kind: "order_confirmation", status: "sent" }).first("subject");
    await expect.poll(async () => (await sentReceipt())?.subject, poll).toBeTruthy();
    const subject: string = (await sentReceipt()).subject;
    const receipts = async () => (await mailsTo(customer.email)).filter((m) => m.Subject === subject).length;
    await expect.poll(receipts, poll).toBe(1);
    const page = await stack.newPage();
    await signIn(stack, page, s.token);
    await page.goto(`${stack.url}/dashboard/customers/${s.customerId}/show/emails`);
    const rows = page.locator(".RaDatagrid-tbody tr");
    await expect.poll(async () => (await rows.allTextContents()).join(" | "), poll).toContain(subject);
    const before = await rows.count();
    await page.waitForLoadState("networkidle");
    await stack.check(page, "console-customer-emails");
    await page.getByRole("button", { name: "Resend receipt" }).first().click();
    await page.getByText("Receipt queued to send again").waitFor();
    await expect.poll(() => rows.count(), poll).toBe(before + 1);
    await expect.poll(receipts, poll).toBe(2);
    const resent = await stack
      .knex("email_sends")
      .where({ organization_id: s.orgId, kind: "order_confirmation" })
      .where("dedupe_key", "like", "resend:%");
    expect(resent).toHaveLength(1);
    await expect.poll(async () => (await stack.knex("email_sends").where({ id: resent[0].id }).first("status")).status, poll).toBe("sent");
    expect(stack.takeProblems(page)).toEqual([]);
  });

  it("saves a portal customer's email preferences", async () => {
    const { org } = await orgWithToken(stack.knex);
    const customer = await createCustomer(stack.knex, org.id);
    const token = await createCustomerSessionToken(stack.knex, customer.id);
    const page = await stack.newPage();
    await page.goto(`${stack.url}/${org.slug}/portal/emails?customer_session_token=${token}`);
    await page.getByRole("heading", { name: "Email preferences" }).waitFor();
    await page.getByLabel("Renewal reminders").uncheck();
    await stack.check(page, "portal-email-preferences");
    await page.getByRole("button", { name: "Save email preferences" }).click();
    await page.getByText("Saved.").waitFor();
    const stored = await stack.knex("customers").where({ id: customer.id }).first("email_preferences");
    expect(stored.email_preferences).toEqual({ subscription_renewal_reminder: false, payment_method_expiration_reminder: true });
    await page.reload();
    await page.getByRole("heading", { name: "Email preferences" }).waitFor();
    expect(await page.getByLabel("Renewal reminders").isChecked()).toBe(false);
    expect(stack.takeProblems(page)).toEqual([]);
  });
});
