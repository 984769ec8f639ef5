// A customer's prepaid wallet on the console's customer page, in Chromium against the running
// stack: the balance the merchant credited, per currency; the tab passes axe.
import { describe, it } from "vitest";
import { createCustomer, orgWithToken } from "../harness/index.js";
import { useBrowserStack } from "./harness.js";
import { signIn } from "./console-helpers.js";

describe("merchant console: a customer's wallet", { timeout: 240_000 }, () => {
  const stack = useBrowserStack();

  it("shows the wallet's balance", async () => {
    const { org, token } = await orgWithToken(stack.knex);
    const customer = await createCustomer(stack.knex, org.id, { email: "prepaid@example.com" });
    const res = await fetch(`${stack.url}/v1/wallets/credit`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ customer_id: customer.id, amount: 4250, currency: "usd" }),
    });
    if (res.status !== 201) throw new Error(`credit failed: ${res.status}`);

    const page = await stack.newPage();
    await signIn(stack, page, token);
    await page.goto(`${stack.url}/dashboard/customers/${customer.id}/show/wallet`);
    await page.getByRole("cell", { name: "$42.50" }).waitFor();
    await page.waitForLoadState("networkidle");
    await stack.check(page, "console-customer-wallet");
  });
});
