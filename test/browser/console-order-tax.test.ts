// What a merchant reads of an order and a customer, in Chromium against the running stack: the
// buyer's country, tax id and billing address and the tax each order carries, in the lists and on
// the order's page; and no Refund button on an order whose dispute holds the money.
import { describe, expect, it } from "vitest";
import { createCustomer, createOrder, createProductWithPrice, orgWithToken } from "../harness/index.js";
import { useBrowserStack } from "./harness.js";
import { disputedPurchase, signIn } from "./console-helpers.js";

describe("merchant console: orders' and customers' tax details", { timeout: 240_000 }, () => {
  const stack = useBrowserStack();

  it("shows country, tax id, billing address and tax; hides Refund while a dispute holds the money", async () => {
    const { org, token } = await orgWithToken(stack.knex);
    const billing = { country: "DE", line1: "Hauptstraße 1", line2: null, city: "Berlin", state: null, postal_code: "10115" };
    const customer = await createCustomer(stack.knex, org.id, {
      email: "einkauf@acme.de",
      name: "Acme GmbH",
      tax_id: JSON.stringify(["DE136695976", "eu_vat"]),
      billing_address: JSON.stringify(billing),
    });
    const pro = await createProductWithPrice(stack.knex, org.id, { name: "Pro license" });
    const order = await createOrder(
      stack.knex,
      org.id,
      { customerId: customer.id, productId: pro.product.id, productPriceId: pro.price.id },
      {
        subtotal_amount: 10000,
        tax_amount: 1900,
        billing_name: "Acme GmbH",
        billing_address: billing,
        customer_tax_id: JSON.stringify(["DE136695976", "eu_vat"]),
        tax_rate: JSON.stringify({ basis_points: 1900, display_name: "VAT 19% (Germany)", country: "DE", state: null }),
        taxability_reason: "standard_rated",
      },
    );

    // a purchase with the sandbox's dispute card: its dispute holds the money
    const disputed = await disputedPurchase(stack, org.id, token);
    await expect.poll(async () => (await stack.knex("disputes").where({ order_id: disputed.id }).first())?.status).toBe("needs_response");

    const page = await stack.newPage();
    await signIn(stack, page, token);
    await page.goto(`${stack.url}/dashboard/orders`);
    const row = page.getByRole("row").filter({ hasText: "einkauf@acme.de" });
    await row.waitFor();
    expect(await row.innerText()).toMatch(/Pro license\s+DE\s+\$19\.00\s+\$119\.00/);
    await page.waitForLoadState("networkidle");
    await stack.check(page, "console-orders-tax");

    await page.goto(`${stack.url}/dashboard/orders/${order.id}/show`);
    await page.getByText("VAT 19% (Germany)").waitFor();
    await page.getByText("Hauptstraße 1, 10115 Berlin, Germany").waitFor();
    await page.getByText("DE136695976 (EU VAT)").waitFor();
    await page.getByRole("button", { name: "Refund" }).waitFor();
    await page.waitForLoadState("networkidle");
    await stack.check(page, "console-order-tax");

    await page.goto(`${stack.url}/dashboard/orders/${disputed.id}/show`);
    await page.getByRole("table").filter({ hasText: "Respond by" }).getByText("Needs response").waitFor();
    await page.waitForLoadState("networkidle");
    expect(await page.getByRole("button", { name: "Refund" }).count()).toBe(0);

    await page.goto(`${stack.url}/dashboard/customers`);
    const customerRow = page.getByRole("row").filter({ hasText: "einkauf@acme.de" });
    await customerRow.waitFor();
    expect(await customerRow.innerText()).toMatch(/Acme GmbH\s+DE\s+DE136695976 \(EU VAT\)/);
    await page.waitForLoadState("networkidle");
    await stack.check(page, "console-customers-tax");
    expect(stack.takeProblems(page)).toEqual([]);
  });
});
