// The console's tax settings, in Chromium against the running stack: the organization
// settings page chooses the built-in calculator, the origin country and tax-inclusive prices, adds
// and removes registrations (the EU's One-Stop Shop, a US state), its country choices are the codes
// the server takes, and the product form sets a product's tax category; each saved as the API
// stores it, each screen passing axe.
import type { Locator } from "playwright-core";
import { describe, expect, it, vi } from "vitest";
import { orgWithToken } from "../harness/index.js";
import { useBrowserStack } from "./harness.js";
import { signIn } from "./console-helpers.js";
import { countryCodes } from "../../shared/countries.js";

describe("merchant console: tax", { timeout: 240_000 }, () => {
  const stack = useBrowserStack();

  it("saves the organization's tax settings: provider, origin, inclusive prices, registrations added and removed", async () => {
    const { org, token } = await orgWithToken(stack.knex);
    const page = await stack.newPage();
    await signIn(stack, page, token);
    await page.goto(`${stack.url}/dashboard/settings`);
    await page.getByRole("combobox", { name: /^Who computes tax/ }).click();
    await page.getByRole("option", { name: /^Built-in calculator/ }).click();
    await page.getByRole("combobox", { name: /^You sell from/ }).click();
    await page.getByRole("option", { name: "France (FR)" }).click();
    await page.getByLabel("Prices include tax").check();

    const lines = page.locator(".RaSimpleFormIterator-line");
    const place = async (n: number, name: string) => {
      await lines
        .nth(n)
        .getByRole("combobox", { name: /^Registered in/ })
        .click();
      await page.getByRole("option", { name }).click();
    };
    const add = page.getByRole("button", { name: "Add" });
    await add.click();
    await place(0, "France (FR)");
    await add.click();
    await place(1, "European Union: One-Stop Shop (EU)");
    await add.click();
    await place(2, "Germany (DE)");
    await add.click();
    await place(3, "United States (US)");
    await lines.nth(3).getByLabel("State or province").fill("ca");
    // Germany removed again: the OSS covers it. A line's buttons show while the pointer is over it,
    // and a late re-render can take the hover away: hover again until the click lands.
    await vi.waitFor(
      async () => {
        await lines.nth(2).hover();
        await lines.nth(2).getByRole("button", { name: "Remove" }).click({ timeout: 2_000 });
      },
      { timeout: 20_000, interval: 250 },
    );
    await expect.poll(() => lines.count()).toBe(3);
    await page.waitForLoadState("networkidle");
    await stack.check(page, "console-settings-tax");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Settings saved").waitFor();

    const stored = await stack.knex("organizations").where({ id: org.id }).first();
    expect(stored.tax_settings).toEqual({
      provider: "builtin",
      origin_country: "FR",
      prices_include_tax: true,
      registrations: [{ country: "FR" }, { country: "EU", scheme: "oss" }, { country: "US", state: "CA" }],
    });
    // the page shows what was saved when opened again
    await page.reload();
    await page
      .getByRole("combobox", { name: /^You sell from/ })
      .filter({ hasText: "France (FR)" })
      .waitFor();
    await expect.poll(() => lines.count()).toBe(3);
    expect(stack.takeProblems(page)).toEqual([]);
  });

  it("offers as origin and registration the countries the server takes, no reserved or former code", async () => {
    const { org, token } = await orgWithToken(stack.knex);
    const page = await stack.newPage();
    await signIn(stack, page, token);
    await page.goto(`${stack.url}/dashboard/settings`);
    // the codes of the open menu's choices, named "United Kingdom (GB)"
    const offered = async (combobox: Locator) => {
      await combobox.click();
      const names = await page.getByRole("option").allTextContents();
      await page.keyboard.press("Escape");
      return names.flatMap((name) => /\(([A-Z]{2})\)$/.exec(name)?.slice(1) ?? []).sort();
    };
    const origin = await offered(page.getByRole("combobox", { name: /^You sell from/ }));
    expect(origin).toEqual(countryCodes());
    expect(origin).toContain("GB");
    expect(origin).not.toContain("UK");
    expect(origin).not.toContain("XK");
    await page.getByRole("button", { name: "Add" }).click();
    const registration = await offered(page.getByRole("combobox", { name: /^Registered in/ }));
    expect(registration).toEqual(["EU", ...countryCodes()].sort());

    await page.getByRole("combobox", { name: /^You sell from/ }).click();
    await page.getByRole("option", { name: "United Kingdom (GB)" }).click();
    await page.getByRole("combobox", { name: /^Registered in/ }).click();
    await page.getByRole("option", { name: "United Kingdom (GB)" }).click();
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Settings saved").waitFor();
    const stored = await stack.knex("organizations").where({ id: org.id }).first();
    expect(stored.tax_settings).toMatchObject({ origin_country: "GB", registrations: [{ country: "GB" }] });
    expect(stack.takeProblems(page)).toEqual([]);
  });

  it("sets a product's tax category in the product form", async () => {
    const { token } = await orgWithToken(stack.knex);
    const polar = stack.polar(token);
    const product = await polar.products.create({
      name: "Field guide",
      recurringInterval: null,
      prices: [{ amountType: "fixed", priceAmount: 900, priceCurrency: "eur" }],
    });
    expect((await stack.knex("products").where({ id: product.id }).first()).tax_category).toBe("digital_service");
    const page = await stack.newPage();
    await signIn(stack, page, token);
    await page.goto(`${stack.url}/dashboard/products/${product.id}`);
    await page.getByRole("combobox", { name: /^Tax category/ }).click();
    await page.getByRole("option", { name: "E-book" }).click();
    await page.waitForLoadState("networkidle");
    await stack.check(page, "console-product-tax-category", { screenshot: false });
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(/\/show$/);
    await expect.poll(async () => (await stack.knex("products").where({ id: product.id }).first()).tax_category).toBe("ebook");
    expect(stack.takeProblems(page)).toEqual([]);
  });
});
