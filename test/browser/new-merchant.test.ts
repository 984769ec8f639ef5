// A new merchant's whole first day, in Chromium against the running stack (API, worker, Mailpit):
// sign up, verify the email from Mailpit, create the organization, follow the onboarding checklist
// to a product with a benefit made inside the product form and a checkout link, a buyer pays
// through the link with the sandbox card, and Home shows the sale and the steps ticked.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { latestMail, linkIn } from "../harness/index.js";
import { useBrowserStack } from "./harness.js";
import { pickOption } from "./console-helpers.js";
import { card, fill } from "./shop.js";

describe("a new merchant, from sign-up to the first sale", { timeout: 480_000 }, () => {
  const stack = useBrowserStack();

  it("sign up → verify → organization → checklist → product with a new benefit → checkout link → paid → the sale on Home", async () => {
    const email = `merchant-${randomUUID().slice(0, 8)}@example.com`;
    const page = await stack.newPage({ allow: [{ status: 401, url: "/api/auth/" }] });
    await page.goto(`${stack.url}/dashboard/`);
    await page.getByRole("button", { name: "Create an account" }).click({ timeout: 60_000 });
    await page.getByLabel("Your name").fill("Mira Maker");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("northern lights print shop");
    const started = new Date(Date.now() - 1000);
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByText(`We sent a verification link to ${email}`).waitFor();
    const mail = await latestMail(email, { subject: /Verify your email/, after: started, timeoutMs: 30_000 });
    await page.goto(linkIn(mail, "/api/auth/verify-email"));
    await page.getByRole("heading", { name: "Create your organization" }).waitFor({ timeout: 60_000 });
    await page.getByLabel("Name").fill("Mira's prints");
    await page.getByRole("button", { name: "Create" }).click();
    await page.getByRole("heading", { name: "Last 30 days" }).waitFor({ timeout: 60_000 });
    await page.getByRole("button", { name: /Organization: Mira's prints/ }).waitFor();

    // the checklist leads to the product form
    const checklist = page.getByRole("region", { name: "Get started" });
    await checklist.getByText("0 of 4 steps done").waitFor({ timeout: 60_000 });
    await page.waitForLoadState("networkidle");
    await checklist.getByRole("link", { name: "Create a product" }).click();
    await page.waitForURL(/\/dashboard\/products\/create$/);
    await page.getByLabel("Name").first().fill("Aurora print");
    await page.getByRole("spinbutton", { name: /^Price/ }).fill("25");

    // the organization has no benefit yet: one is made from the picker, and chosen
    await page.getByRole("combobox", { name: "Benefits granted with this product" }).fill("Framing guide");
    await page.getByRole("option", { name: "New benefit: Framing guide" }).click();
    const dialog = page.getByRole("dialog", { name: "New benefit" });
    expect(await dialog.getByRole("textbox", { name: /^Description/ }).inputValue()).toBe("Framing guide");
    await dialog.getByLabel("Note shown to the customer").fill("Hang it out of direct sunlight.");
    await stack.check(page, "console-product-new-benefit");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => dialog.count(), { timeout: 30_000 }).toBe(0);
    await page.getByRole("button", { name: "Framing guide (Custom)" }).waitFor();
    expect(page.url()).toMatch(/\/dashboard\/products\/create$/);
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Product created").waitFor();
    await page.getByText("$25.00").first().waitFor();
    const [product] = await stack.knex("products").where({ name: "Aurora print" });
    const benefits = await stack.knex("product_benefits").join("benefits", "benefits.id", "product_benefits.benefit_id").where({
      "product_benefits.product_id": product.id,
    });
    expect(benefits.map((b: { description: string; type: string }) => [b.description, b.type])).toEqual([["Framing guide", "custom"]]);

    // back on Home, one step done; the next one makes the checkout link
    await page.getByRole("menuitem", { name: "Home" }).click();
    await checklist.getByText("1 of 4 steps done").waitFor({ timeout: 60_000 });
    await page.waitForLoadState("networkidle");
    await checklist.getByRole("link", { name: "Create a checkout link" }).click();
    await page.getByLabel("Label").fill("Shop page");
    await pickOption(page, "Products", "Aurora print");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Checkout link created").waitFor();
    const linkUrl = await page.locator('[title*="/v1/checkout-links/"]').first().getAttribute("title");
    expect(linkUrl).toBeTruthy();

    // a buyer opens the link and pays with the sandbox card
    const buyer = await stack.newPage();
    await buyer.goto(linkUrl!);
    await buyer.getByRole("heading", { name: "Aurora print" }).waitFor({ timeout: 60_000 });
    await fill(buyer, "Email", `buyer-${randomUUID().slice(0, 8)}@example.com`);
    await fill(buyer, "Name", "Ada Lovelace");
    await buyer.getByLabel("Country").selectOption("FR");
    await card(buyer, "4242 4242 4242 4242");
    await buyer.getByRole("button", { name: "Pay $25" }).click();
    await buyer.getByRole("heading", { name: "Thank you, Ada Lovelace!" }).waitFor({ timeout: 30_000 });
    expect(stack.takeProblems(buyer)).toEqual([]);

    // Home: the sale in revenue and orders, two steps ticked
    await page.getByRole("menuitem", { name: "Home" }).click();
    await checklist.getByText("2 of 4 steps done").waitFor({ timeout: 60_000 });
    const done = await checklist.getByTestId("onboarding-step").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-done")));
    expect(done).toEqual(["true", "true", "false", "false"]);
    const chart = (title: string) => page.locator(".MuiCard-root").filter({ has: page.getByRole("heading", { name: title, exact: true }) });
    const total = (title: string) => chart(title).locator("p").first().textContent();
    await expect.poll(() => total("Revenue"), { timeout: 30_000 }).toBe("$25.00");
    expect(await total("Orders")).toBe("1");
    await page.getByTestId("metrics-ready").waitFor();
    await page.waitForLoadState("networkidle");
    await stack.check(page, "console-new-merchant-sale");
    expect(stack.takeProblems(page)).toEqual([]);
  });
});
