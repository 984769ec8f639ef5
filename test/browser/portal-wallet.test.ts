// The portal's Wallet section in Chromium against the running stack: offered once the customer
// has a balance; each currency's balance and its ledger (the merchant's credits, an order that
// spent some, what a refund took back, linked to their orders), in the wallet's currency. Axe, 375 px.
import { describe, expect, it } from "vitest";
import { debitWallet } from "../../server/wallets/service.js";
import { createOrder, createPayment } from "../harness/index.js";
import { useBrowserStack } from "./harness.js";
import { openShop } from "./shop.js";

describe("customer portal: wallet", { timeout: 180_000 }, () => {
  const stack = useBrowserStack({ worker: false });

  it("shows the balance per currency and its ledger", async () => {
    const shop = await openShop(stack, "Prepaid Outfitters");
    const customer = await shop.polar.customers.create({ email: "prepaid.buyer@example.com", name: "Pat Prepaid" });
    const token = (await shop.polar.customerSessions.create({ customerId: customer.id })).token;
    const nav = (page: Awaited<ReturnType<typeof stack.newPage>>) => page.getByRole("navigation", { name: "Customer portal" });

    // No balance yet: no Wallet section in the menu.
    const before = await stack.newPage();
    await before.goto(`${stack.url}/${shop.org.slug}/portal?customer_session_token=${token}`);
    await nav(before).getByRole("link", { name: "Overview" }).waitFor();
    await before.waitForLoadState("networkidle");
    expect(await nav(before).getByRole("link", { name: "Wallet" }).count()).toBe(0);

    const credit = async (amount: number, currency: string, description?: string) => {
      const res = await fetch(`${stack.url}/v1/wallets/credit`, {
        method: "POST",
        headers: { authorization: `Bearer ${shop.token}`, "content-type": "application/json" },
        body: JSON.stringify({ customer_id: customer.id, amount, currency, description }),
      });
      expect(res.status).toBe(201);
      return (await res.json()) as { id: string };
    };
    const usd = await credit(5000, "usd", "Welcome credit");
    await credit(2000, "usd");
    await credit(1200, "eur", "Conference refund");
    // An order spends part of the dollars.
    const product = await shop.polar.products.create({
      name: "Trail map",
      recurringInterval: null,
      prices: [{ amountType: "fixed", priceAmount: 1250, priceCurrency: "usd" }],
    });
    const order = await createOrder(stack.knex, shop.org.id, { customerId: customer.id, productId: product.id }, { subtotal_amount: 1250 });
    await stack.knex.transaction((trx) =>
      debitWallet(trx, { organizationId: shop.org.id, customerId: customer.id }, usd.id, 1250, { orderId: order.id }),
    );
    // A card-paid order refunded in part: the refunded cash comes off the balance.
    const paid = await createOrder(stack.knex, shop.org.id, { customerId: customer.id, productId: product.id }, { subtotal_amount: 1000 });
    await createPayment(stack.knex, shop.org.id, { order_id: paid.id, amount: 1000 });
    await shop.polar.refunds.create({ orderId: paid.id, reason: "customer_request", amount: 300 });

    const page = await stack.newPage({ locale: "en-US" });
    await page.goto(`${stack.url}/${shop.org.slug}/portal?customer_session_token=${token}`);
    await nav(page).getByRole("link", { name: "Wallet" }).click();
    await page.getByRole("heading", { name: "Wallet" }).waitFor();
    const dollars = page.getByRole("article", { name: "Balance in USD" });
    const euros = page.getByRole("article", { name: "Balance in EUR" });
    await dollars.getByTestId("wallet-balance").getByText("$54.50").waitFor();
    await euros.getByTestId("wallet-balance").getByText("€12").waitFor();
    const rows = dollars.getByTestId("wallet-entry");
    await expect.poll(() => rows.count()).toBe(4);
    const cells = async (i: number) => (await rows.nth(i).getByRole("cell").allTextContents()).slice(1);
    // Newest first: the refund's take-back, the order's spend, then the credits; each with the balance after it.
    expect(await cells(0)).toEqual(["Refund of an order", "-$3", "$54.50"]);
    expect(await cells(1)).toEqual(["Order", "-$12.50", "$57.50"]);
    expect(await cells(2)).toEqual(["Credit", "+$20", "$70"]);
    expect(await cells(3)).toEqual(["Welcome credit", "+$50", "$50"]);
    expect((await euros.getByTestId("wallet-entry").first().getByRole("cell").allTextContents()).slice(1)).toEqual([
      "Conference refund",
      "+€12",
      "€12",
    ]);
    await page.waitForLoadState("networkidle");
    await stack.check(page, "portal-wallet");

    // The order's entry opens that order; the refund's, the refunded one.
    await dollars.getByRole("link", { name: "Order", exact: true }).click();
    await page.getByRole("heading", { name: "Your order" }).waitFor();
    expect(new URL(page.url()).searchParams.get("order")).toBe(order.id);
    await page.goBack();
    await dollars.getByRole("link", { name: "Refund of an order" }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get("order")).toBe(paid.id);
  });
});
