// The portal's email change in Chromium against the running stack: the request form where the
// organization allows it (a server 422 by the field), the link mailed to the new address (Mailpit,
// the branded template) opening the verify page, which signs in with the new email; a used or
// wrong link. Axe, 375 px, screenshots.
import { describe, expect, it, beforeAll } from "vitest";
import { latestMail, linkIn } from "../harness/index.js";
import { useBrowserStack } from "./harness.js";
import { expectText, openShop, see, type Shop } from "./shop.js";

describe("customer portal: email change", { timeout: 120_000 }, () => {
  const stack = useBrowserStack({ worker: false });
  let shop: Shop;
  const email = "mover@example.com";
  const moved = "mover.new@example.com";
  let sessionToken = "";

  beforeAll(async () => {
    shop = await openShop(stack, "Aurora Moves");
    await stack
      .knex("organizations")
      .where({ id: shop.org.id })
      .update({ customer_portal_settings: { customer: { allow_email_change: true } } });
    const customer = await shop.polar.customers.create({ email, name: "Mo Ver" });
    sessionToken = (await shop.polar.customerSessions.create({ customerId: customer.id })).token;
  });

  it("sends a link to the new address; the link confirms it and signs in with it", async () => {
    const page = await stack.newPage({ allow: [{ status: 422, url: "/email-update/request" }] });
    await page.goto(`${stack.url}/${shop.org.slug}/portal/emails?customer_session_token=${sessionToken}`);
    await page.getByRole("heading", { name: "Email address" }).waitFor();
    await see(page, `Your email is ${email}.`);
    // The current address: the server's message by the field.
    await page.getByLabel("New email").fill(email.toUpperCase());
    await page.getByRole("button", { name: "Send confirmation link" }).click();
    await see(page, "The new email is the same as your current email.");
    await page.getByLabel("New email").fill(moved);
    await page.getByRole("button", { name: "Send confirmation link" }).click();
    await see(page, `We sent a link to ${moved}.`);
    await stack.check(page, "portal-email-change");

    const mail = await latestMail(moved, { subject: /Verify your new email/ });
    // the branded template: the organization's, naming who asked
    expect(mail.subject).toBe("Verify your new email address for Aurora Moves");
    expect(mail.text).toContain(`Mo Ver (${email}) asked to use ${moved} as their email address with Aurora Moves.`);
    const link = new URL(linkIn(mail, "/portal/verify-email"));
    const verify = await stack.newPage();
    await verify.goto(`${stack.url}${link.pathname}${link.search}`);
    await verify.getByRole("heading", { name: "Confirm your new email" }).waitFor();
    await see(verify, "Use this address as your email with Aurora Moves from now on.");
    await stack.check(verify, "portal-verify-email");
    await verify.getByRole("button", { name: "Confirm my new email" }).click();
    await expectText(verify, "signed-in-as", moved);
    expect(new URL(verify.url()).pathname).toBe(`/${shop.org.slug}/portal/emails`);

    // The link works once.
    const again = await stack.newPage({ allow: [{ status: 401, url: "/email-update/check" }] });
    await again.goto(`${stack.url}${link.pathname}${link.search}`);
    await see(again, "This email change code is wrong, was already used, or has expired.");
    await stack.check(again, "portal-verify-email-used", { mobile: false, screenshot: false });
  });

  it("offers no email change where the organization does not allow it", async () => {
    const other = await openShop(stack, "Aurora Stays");
    const customer = await other.polar.customers.create({ email: "stayer@example.com" });
    const token = (await other.polar.customerSessions.create({ customerId: customer.id })).token;
    const page = await stack.newPage();
    await page.goto(`${stack.url}/${other.org.slug}/portal/emails?customer_session_token=${token}`);
    await page.getByRole("heading", { name: "Email preferences" }).waitFor();
    expect(await page.getByRole("heading", { name: "Email address" }).count()).toBe(0);
  });
});
