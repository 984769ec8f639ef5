// A draft order in the console and its receipt in the portal, in Chromium against the running
// stack: the merchant drafts an order for a customer with a saved card, charges it from the
// order's page, opens the receipt; the customer downloads the same receipt in the portal. Axe on
// the draft and on the portal's orders.
import { describe, expect, it } from "vitest";
import { createCustomer, createCustomerSessionToken, createPaymentMethod, orgWithToken } from "../harness/index.js";
import { useBrowserStack } from "./harness.js";
import { pickOption, signIn } from "./console-helpers.js";

describe("merchant console: a draft order charged off-session", { timeout: 240_000 }, () => {
  const stack = useBrowserStack();

  it("drafts an order, charges the saved card, and both sides open its receipt", async () => {
    const { org, token } = await orgWithToken(stack.knex);
    const polar = stack.polar(token);
    const customer = await createCustomer(stack.knex, org.id, { email: "retainer@example.com" });
    await createPaymentMethod(stack.knex, org.id, customer.id, { processor_ref: "pm_sandbox_4242424242424242_retainer", is_default: true });
    await polar.products.create({
      name: "Consulting hour",
      recurringInterval: null,
      prices: [{ amountType: "fixed", priceAmount: 12000, priceCurrency: "usd" }],
    });

    const page = await stack.newPage();
    await signIn(stack, page, token);
    await page.goto(`${stack.url}/dashboard/orders`);
    await page.getByRole("link", { name: "New order" }).click();
    await pickOption(page, "Customer", "retainer@example.com");
    await pickOption(page, "Product", "Consulting hour");
    await page.getByLabel("Amount").fill("90");
    await page.getByLabel("Line label").fill("March retainer");
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(/\/dashboard\/orders\/[0-9a-f-]+\/show$/);
    const [order] = await stack.knex("orders").where({ customer_id: customer.id });
    expect(order).toMatchObject({ status: "draft", invoice_number: null, subtotal_amount: 9000 });
    await page.getByText("March retainer").waitFor();
    await page.waitForLoadState("networkidle");
    await stack.check(page, "console-draft-order");

    await page.getByRole("button", { name: "Charge saved card" }).click();
    await page.getByRole("button", { name: "Confirm" }).click();
    await page.getByText("Order paid").waitFor();
    expect((await stack.knex("orders").where({ id: order.id }).first()).status).toBe("paid");
    // The receipt opens in a new tab, which downloads the PDF.
    const receiptFetched = (p: typeof page) => p.context().waitForEvent("request", { predicate: (r) => r.url().includes("/receipts/") });
    const fetched = receiptFetched(page);
    await page.getByRole("button", { name: "Receipt" }).click();
    await fetched;

    const sessionToken = await createCustomerSessionToken(stack.knex, customer.id);
    const portal = await stack.newPage();
    await portal.goto(`${stack.url}/${org.slug}/portal/orders?order=${order.id}&customer_session_token=${sessionToken}`);
    await portal.getByTestId("signed-in-as").waitFor();
    const portalFetched = receiptFetched(portal);
    await portal.getByRole("button", { name: /^Download the receipt of / }).click();
    await portalFetched;
    await portal.waitForLoadState("networkidle");
    await stack.check(portal, "portal-order-receipt", { screenshot: false });
    expect(stack.takeProblems(page)).toEqual([]);
    expect(stack.takeProblems(portal)).toEqual([]);
  });
});
