// A new merchant's first day in the console, in Chromium against the running stack: a signed-out
// visit opens the sign-in page with no error toast; empty lists say what they are for and offer
// the first record; the product form attaches benefits (create and edit); a checkout link takes
// several products; a new access token gets the scopes picked for it. Our wording throughout.
import { describe, expect, it } from "vitest";
import { createBenefit, orgWithToken } from "../harness/index.js";
import { useBrowserStack } from "./harness.js";
import { pickOption, signIn } from "./console-helpers.js";

describe("merchant console: the first day", { timeout: 300_000 }, () => {
  const stack = useBrowserStack({ worker: false });

  it("a signed-out first visit shows the sign-in page and no error", async () => {
    const page = await stack.newPage({ allow: [{ status: 401, url: "/api/auth/" }] });
    await page.goto(`${stack.url}/dashboard/`);
    await page.getByRole("button", { name: "Use an access token" }).waitFor({ timeout: 60_000 });
    await page.waitForLoadState("networkidle");
    // react-admin's notifications are snackbars: none on a first visit
    expect(await page.locator(".MuiSnackbar-root").count()).toBe(0);
    await expect(page.getByText(/Sign in first|auth_check_error|Sign in to continue/).count()).resolves.toBe(0);
    await stack.check(page, "console-first-visit");
  });

  it("empty lists invite the first record; a product with benefits; a link for two products", async () => {
    const { org, token } = await orgWithToken(stack.knex);
    const polar = stack.polar(token);
    const support = await createBenefit(stack.knex, org.id, { description: "Priority support" });
    const guide = await createBenefit(stack.knex, org.id, { description: "Setup guide" });
    const page = await stack.newPage();
    await signIn(stack, page, token);

    // an empty organization: what products are, and the button to make one
    await page.getByRole("menuitem", { name: "Products" }).click();
    await page.getByRole("heading", { name: "No products yet" }).waitFor();
    await page.getByText("A product is what your customers buy").waitFor();
    await expect(page.getByText(/found using the current filters/).count()).resolves.toBe(0);
    await stack.check(page, "console-empty-products");
    await page.getByTestId("list-empty").getByRole("link", { name: "New product" }).click();
    await page.getByText("New product").first().waitFor();

    // the product form attaches a benefit
    await page.getByLabel("Name").first().fill("Starter");
    await page.getByRole("spinbutton", { name: /^Price/ }).fill("15");
    await pickOption(page, "Benefits granted with this product", "Priority support (Custom)");
    await stack.check(page, "console-product-create", { mobile: false });
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Product created").waitFor();
    await page.getByText("$15.00").first().waitFor();
    const productId = page.url().match(/products\/([^/]+)\/show/)![1];
    expect((await polar.products.get({ id: productId })).benefits.map((b) => b.id)).toEqual([support.id]);

    // …and on edit, a second one
    await page.goto(`${stack.url}/dashboard/products/${productId}`);
    await page.getByRole("button", { name: /Priority support/ }).waitFor();
    await pickOption(page, "Benefits granted with this product", "Setup guide (Custom)");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Product saved").waitFor();
    const benefits = (await polar.products.get({ id: productId })).benefits.map((b) => b.id);
    expect(benefits.sort()).toEqual([support.id, guide.id].sort());

    // filters that match nothing say so, and lead back
    await page.goto(`${stack.url}/dashboard/products?filter=${encodeURIComponent(JSON.stringify({ is_archived: true }))}`);
    await page.getByText("Nothing matches these filters.").waitFor();
    await page.getByRole("button", { name: "Clear the filters" }).click();
    await page.getByRole("cell", { name: "Starter" }).waitFor();

    // a checkout link for two products
    const second = await polar.products.create({
      name: "Add-on",
      recurringInterval: null,
      prices: [{ amountType: "fixed", priceAmount: 500, priceCurrency: "usd" }],
    });
    await page.getByRole("menuitem", { name: "Checkout links" }).click();
    await page.getByRole("heading", { name: "No checkout links yet" }).waitFor();
    await stack.check(page, "console-empty-checkout-links", { mobile: false });
    await page.getByTestId("list-empty").getByRole("link", { name: "New checkout link" }).click();
    await page.getByLabel("Label").fill("Bundle");
    await pickOption(page, "Products", "Starter");
    await pickOption(page, "Products", "Add-on");
    await stack.check(page, "console-checkout-link-products");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Checkout link created").waitFor();
    await page.getByText("Starter, Add-on").waitFor();
    const links = (await polar.checkoutLinks.list({})).result.items;
    expect(links).toHaveLength(1);
    expect(links[0].products.map((p) => p.id).sort()).toEqual([productId, second.id].sort());
  });

  it("an access token holds the scopes picked for it", async () => {
    const { token } = await orgWithToken(stack.knex);
    const page = await stack.newPage();
    await signIn(stack, page, token);
    await page.goto(`${stack.url}/dashboard/settings/tokens`);
    await page.getByLabel("What it is for").fill("Reporting");
    await page.getByRole("button", { name: "None" }).click();
    await expect(page.getByRole("button", { name: "Create token" }).isDisabled()).resolves.toBe(true);
    await page.getByRole("checkbox", { name: "Products: read" }).check();
    await page.getByRole("checkbox", { name: "Orders: read" }).check();
    await page.getByRole("checkbox", { name: "Checkout links: write" }).check();
    await page.getByText("3 chosen").waitFor();
    await stack.check(page, "console-token-scopes");
    await page.getByRole("button", { name: "Create token" }).click();
    const secret = await page.getByTestId("secret").textContent();
    await page.getByRole("button", { name: "I have copied it" }).click();
    await page.getByRole("cell", { name: "Reporting" }).waitFor();
    await page.getByRole("cell", { name: "3 scopes" }).waitFor();

    // the token reads what it may, and no more
    const get = (path: string) => fetch(`${stack.url}${path}`, { headers: { authorization: `Bearer ${secret}` } }).then((r) => r.status);
    expect(await get("/v1/products/")).toBe(200);
    expect(await get("/v1/orders/")).toBe(200);
    expect(await get("/v1/customers/")).toBe(403);
  });
});
