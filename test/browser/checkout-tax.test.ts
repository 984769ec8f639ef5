// The hosted checkout's tax line in Chromium against the running stack, for a French seller under
// OSS registered in GB and Quebec: it follows the buyer's address, business checkbox and VAT id
// (French VAT, reverse charge for a German business, nothing for a US buyer, "incl. VAT" for
// tax-inclusive prices, Quebec's GST + QST). Every page: axe, 375 px, screenshots.
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { plainJson } from "../harness/index.js";
import { useBrowserStack } from "./harness.js";
import { expectText, fill, openShop, type Shop } from "./shop.js";

const FR_SELLER = {
  provider: "builtin",
  origin_country: "FR",
  prices_include_tax: false,
  registrations: [
    { country: "FR" },
    { country: "EU", scheme: "oss" },
    { country: "GB" },
    { country: "CA" },
    { country: "CA", state: "QC" },
  ],
};

/** The tax line's label, amount and the total the page shows ("" for a line it doesn't show). */
async function expectTaxLine(page: Page, label: string, tax: string, total: string): Promise<void> {
  await expectText(page, "tax-label", label);
  await expectText(page, "tax", tax);
  await expectText(page, "total", total);
}

describe("hosted checkout: the tax line", { timeout: 180_000 }, () => {
  const stack = useBrowserStack();
  let shop: Shop;
  let productId = "";

  const settle = async (settings: Record<string, unknown>) => {
    const answer = await plainJson(stack.url, shop.token)("PATCH", `/v1/organizations/${shop.org.id}`, { tax_settings: settings });
    expect(answer.status).toBe(200);
  };

  beforeAll(async () => {
    shop = await openShop(stack, "Lumière Software");
    await settle(FR_SELLER);
    const product = await shop.polar.products.create({
      name: "Star chart app",
      recurringInterval: null,
      prices: [{ amountType: "fixed", priceAmount: 1000, priceCurrency: "eur" }],
    });
    productId = product.id;
  });

  it("follows the buyer: FR consumer, then a DE business with a valid VAT id, then the US", async () => {
    const checkout = await shop.polar.checkouts.create({ products: [productId] });
    const page = await stack.newPage();
    await page.goto(checkout.url);
    await page.getByRole("heading", { name: "Star chart app" }).waitFor();
    // No country yet: no tax line.
    await expectText(page, "total", "€10");
    expect(await page.getByTestId("tax-label").count()).toBe(0);

    await page.getByLabel("Country").selectOption("FR");
    await expectTaxLine(page, "VAT 20% (France)", "€2", "€12");
    await page.getByRole("button", { name: "Pay €12" }).waitFor();
    await stack.check(page, "checkout-tax-fr");

    // A German consumer under OSS, then the business with its VAT id: reverse charge.
    await page.getByLabel("Country").selectOption("DE");
    await expectTaxLine(page, "VAT 19% (Germany)", "€1.90", "€11.90");
    await page.getByLabel("I'm purchasing as a business").check();
    await fill(page, "Business name", "Sternwarte GmbH");
    await fill(page, "Tax ID", "DE136695976");
    await expectTaxLine(page, "Reverse charge", "€0", "€10");
    await expectText(page, "tax-legend", "Reverse charge: no VAT is charged; you account for the VAT in your own country.");
    await page.getByRole("button", { name: "Pay €10" }).waitFor();
    await stack.check(page, "checkout-tax-reverse-charge");

    // The checkbox off: a consumer again, whatever the id.
    await page.getByLabel("I'm purchasing as a business").uncheck();
    await expectTaxLine(page, "VAT 19% (Germany)", "€1.90", "€11.90");
    expect(await page.getByTestId("tax-legend").count()).toBe(0);

    // The US, where this seller doesn't collect: no line, the listed price.
    await page.getByLabel("Country").selectOption("US");
    await fill(page, "Postal code", "10001");
    await fill(page, "State / province", "NY");
    await expectText(page, "total", "€10");
    await expect.poll(() => page.getByTestId("tax-label").count()).toBe(0);
    await page.getByRole("button", { name: "Pay €10" }).waitFor();
    await stack.check(page, "checkout-tax-us");
    const shown = (await page.request.get(`${stack.url}/v1/checkouts/client/${checkout.clientSecret}`).then((r) => r.json())) as Record<
      string,
      unknown
    >;
    expect(shown).toMatchObject({ tax_amount: 0, total_amount: 1000, tax_rate: null });
  });

  it("says the price includes the tax when the seller's prices do", async () => {
    await settle(Object.assign({}, FR_SELLER, { prices_include_tax: true }));
    const checkout = await shop.polar.checkouts.create({ products: [productId] });
    const page = await stack.newPage();
    await page.goto(checkout.url);
    await page.getByRole("heading", { name: "Star chart app" }).waitFor();
    await page.getByLabel("Country").selectOption("FR");
    await expectTaxLine(page, "incl. VAT 20% (France)", "€1.67", "€10");
    await expectText(page, "subtotal", "€10");
    await stack.check(page, "checkout-tax-inclusive");
    // Canada asks for the province, which decides the tax: Quebec's two taxes on one line.
    await page.getByLabel("Country").selectOption("CA");
    await fill(page, "State / province", "QC");
    await expectTaxLine(page, "incl. GST 5% + QST 9.975% (Quebec)", "€1.30", "€10");
  });
});
