// What a buyer meets on the hosted checkout beyond paying (issue 35): the country list is the
// contract's assigned codes named in the reader's language; a failed 3-D Secure says what happened
// and what to do; the confirmation shows the files and key once granted, with no reload; the
// pages carry the organization's avatar (or the default) as icon; a business buyer gives the
// full billing address and a business name. Every page: axe, 375 px, screenshots.
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { createFile } from "../harness/index.js";
import { useBrowserStack } from "./harness.js";
import { card, fill, openShop, see, type Shop } from "./shop.js";

const contract = JSON.parse(readFileSync(new URL("../../generated/openapi.json", import.meta.url), "utf8"));
const COUNTRIES: string[] = contract.components.schemas.CountryAlpha2.enum;

/** The page's icon link, as written. */
const iconOf = (page: Page) => page.locator('link[rel="icon"]').getAttribute("href");

describe("hosted checkout, for the buyer", { timeout: 180_000 }, () => {
  const stack = useBrowserStack();
  let shop: Shop;
  let atlas: { id: string };

  beforeAll(async () => {
    shop = await openShop(stack, "Polar Atlas Press");
    const file = await createFile(stack.knex, shop.org.id, {
      name: "aurora-atlas.pdf",
      mime_type: "application/pdf",
      service: "downloadable",
    });
    const downloads = await shop.polar.benefits.create({
      type: "downloadables",
      description: "The Aurora Atlas (PDF)",
      properties: { files: [file.id] },
    });
    const license = await shop.polar.benefits.create({
      type: "license_keys",
      description: "Atlas app license",
      properties: { prefix: "ATLAS" },
    });
    atlas = await shop.polar.products.create({
      name: "Aurora Atlas",
      recurringInterval: null,
      prices: [{ amountType: "fixed", priceAmount: 2500, priceCurrency: "eur" }],
    });
    await shop.polar.products.updateBenefits({ id: atlas.id, productBenefitsUpdate: { benefits: [downloads.id, license.id] } });
  });

  it("offers the contract's countries, no withdrawn code, named in the buyer's language", async () => {
    const checkout = await shop.polar.checkouts.create({ products: [atlas.id] });
    const page = await stack.newPage({ locale: "fr-FR" });
    await page.goto(checkout.url);
    const country = page.getByLabel("Country");
    await country.waitFor({ timeout: 30_000 });
    const options = await country
      .locator("option")
      .evaluateAll((els) => els.map((e) => [(e as HTMLOptionElement).value, e.textContent ?? ""] as const).filter(([v]) => v !== ""));
    expect(options.map(([code]) => code).sort()).toEqual(COUNTRIES);
    for (const withdrawn of ["DD", "FX", "UK", "SU", "YU", "CS", "AN", "TP", "ZR"]) expect(COUNTRIES).not.toContain(withdrawn);
    const named = new Map(options);
    expect(named.get("DE")).toBe("Allemagne");
    expect(named.get("GB")).toBe("Royaume-Uni");
    // One Serbia, one Germany: no name twice.
    expect(new Set(options.map(([, name]) => name)).size).toBe(options.length);
    await country.selectOption("RS");
    await stack.check(page, "checkout-countries-fr");
  });

  it("says what happened when 3-D Secure fails, then shows the files and key granted after paying, with no reload", async () => {
    const checkout = await shop.polar.checkouts.create({ products: [atlas.id], customerEmail: "amelie@example.com" });
    const page = await stack.newPage();
    await page.goto(checkout.url);
    await page.getByLabel("Country").selectOption("FR");
    await card(page, "4000 0025 0000 3155");
    await page.getByRole("button", { name: "Pay €25" }).click();
    await page.getByRole("heading", { name: "Sandbox bank: 3-D Secure" }).waitFor({ timeout: 30_000 });
    await page.getByRole("button", { name: "Fail authentication" }).click();

    // Back on the form, open again, with what happened and what to do.
    const alert = page.getByRole("alert").filter({ hasText: "Your bank did not confirm the payment" });
    await alert.waitFor({ timeout: 30_000 });
    await see(page, "The 3-D Secure check failed or was cancelled, so nothing was charged.");
    await see(page, "Pay again and complete the check your bank shows, or use another card.");
    expect(new URL(page.url()).pathname).toBe(`/checkout/${checkout.clientSecret}`);
    expect(new URL(page.url()).searchParams.has("payment_failed")).toBe(false);
    expect((await stack.knex("checkouts").where({ id: checkout.id }).first()).status).toBe("open");
    await stack.check(page, "checkout-3ds-failed");

    // Paying again clears the notice; this time the challenge is passed.
    await card(page, "4000 0025 0000 3155");
    await page.getByRole("button", { name: "Pay €25" }).click();
    await page.getByRole("heading", { name: "Sandbox bank: 3-D Secure" }).waitFor({ timeout: 30_000 });
    await page.getByRole("button", { name: "Complete authentication" }).click();
    await page.getByRole("heading", { name: /^Thank you/ }).waitFor({ timeout: 30_000 });
    // The worker grants after the payment: the page follows it without a reload.
    await page.getByRole("link", { name: "Download aurora-atlas.pdf" }).waitFor({ timeout: 30_000 });
    await page.getByTestId("license-key").waitFor({ timeout: 30_000 });
    expect(await page.getByText("No files yet.").count()).toBe(0);
    const [key] = await stack
      .knex("license_keys")
      .where({ organization_id: shop.org.id, customer_id: (await stack.knex("checkouts").where({ id: checkout.id }).first()).customer_id });
    expect(await page.getByTestId("license-key").textContent()).toBe(key.key);
    await stack.check(page, "checkout-3ds-confirmation");
  });

  it("shows the organization's avatar as the pages' icon, the default icon otherwise", async () => {
    const avatar = `${stack.url}/_portal/favicon.ico?org=${shop.org.slug}`;
    await stack.knex("organizations").where({ id: shop.org.id }).update({ avatar_url: avatar });
    const checkout = await shop.polar.checkouts.create({ products: [atlas.id] });
    const page = await stack.newPage();
    await page.goto(checkout.url);
    await page.getByRole("heading", { name: "Aurora Atlas" }).waitFor();
    await expect.poll(() => iconOf(page)).toBe(avatar);
    await stack.check(page, "checkout-org-avatar");
    await page.goto(`${stack.url}/${shop.org.slug}/portal`);
    await page.getByRole("heading", { name: "Sign in to your customer portal" }).waitFor();
    await expect.poll(() => iconOf(page)).toBe(avatar);

    const plain = await openShop(stack, "Plain Goods");
    const product = await plain.polar.products.create({
      name: "Plain thing",
      recurringInterval: null,
      prices: [{ amountType: "fixed", priceAmount: 500, priceCurrency: "usd" }],
    });
    const other = await plain.polar.checkouts.create({ products: [product.id] });
    await page.goto(other.url);
    await page.getByRole("heading", { name: "Plain thing" }).waitFor();
    expect(await iconOf(page)).toBe("/favicon.ico");
    const icon = await page.request.get(`${stack.url}/favicon.ico`);
    expect(icon.status()).toBe(200);
    expect(icon.headers()["content-type"]).toBe("image/x-icon");
  });

  it("asks a business buyer for the full billing address and keeps the business name as the billing name", async () => {
    await stack.knex("organizations").where({ id: shop.org.id }).update({ avatar_url: null });
    const checkout = await shop.polar.checkouts.create({ products: [atlas.id] });
    const page = await stack.newPage({ allow: [{ status: 422, url: "/confirm" }] });
    await page.goto(checkout.url);
    await fill(page, "Email", "einkauf@acme.example");
    await fill(page, "Name", "Grete Einkauf");
    await page.getByLabel("Country").selectOption("DE");
    // A consumer gives the country alone.
    expect(await page.getByRole("textbox", { name: "Address", exact: true }).count()).toBe(0);
    await page.getByLabel("I'm purchasing as a business").check();
    const line1 = page.getByRole("textbox", { name: "Address", exact: true });
    await line1.waitFor();
    for (const label of ["Address", "City", "Postal code"]) {
      expect(await page.getByRole("textbox", { name: label, exact: true }).getAttribute("required"), label).not.toBeNull();
    }
    await fill(page, "Business name", "Acme GmbH");
    await card(page, "4242 4242 4242 4242");
    await page.getByRole("button", { name: "Pay €25" }).click();
    // The server names the missing line; its message is by the field.
    await expect.poll(() => line1.getAttribute("aria-invalid")).toBe("true");
    await see(page, "Field required");
    await stack.check(page, "checkout-business");

    await fill(page, "Address", "Unter den Linden 1");
    await fill(page, "City", "Berlin");
    await fill(page, "Postal code", "10117");
    await card(page, "4242 4242 4242 4242");
    await page.getByRole("button", { name: "Pay €25" }).click();
    await page.getByRole("heading", { name: /^Thank you/ }).waitFor({ timeout: 30_000 });
    const order = await stack.knex("orders").where({ checkout_id: checkout.id }).first();
    expect(order.billing_name).toBe("Acme GmbH");
    expect(order.billing_address).toMatchObject({ country: "DE", line1: "Unter den Linden 1", city: "Berlin", postal_code: "10117" });
    const customer = await stack.knex("customers").where({ id: order.customer_id }).first();
    expect(customer).toMatchObject({ name: "Grete Einkauf", billing_name: "Acme GmbH" });
  });
});
