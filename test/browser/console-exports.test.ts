// The console's server CSV exports in Chromium against the running stack: the customers and
// orders lists download the API's export (every record, Polar's columns) with one button, and
// pass axe with it.
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { createCustomer, createOrder, createProductWithPrice, orgWithToken } from "../harness/index.js";
import { useBrowserStack } from "./harness.js";
import { signIn } from "./console-helpers.js";

describe("merchant console: CSV exports", { timeout: 240_000 }, () => {
  const stack = useBrowserStack();

  /** Clicks the list's server export and answers the downloaded file's name and text. */
  async function exported(page: Page): Promise<{ name: string; text: string }> {
    const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export all (CSV)" }).click()]);
    return { name: file.suggestedFilename(), text: await readFile(await file.path(), "utf8") };
  }

  it("downloads the customers and orders exports from their lists", async () => {
    const { org, token } = await orgWithToken(stack.knex);
    const customer = await createCustomer(stack.knex, org.id, { email: "csv-buyer@example.com", name: "Csv Buyer" });
    const { product } = await createProductWithPrice(stack.knex, org.id, { name: "Csv plan" });
    const order = await createOrder(stack.knex, org.id, { customerId: customer.id, productId: product.id }, { tax_amount: 500 });

    const page = await stack.newPage();
    await signIn(stack, page, token);
    await page.goto(`${stack.url}/dashboard/customers`);
    await page.getByText("csv-buyer@example.com").waitFor();
    await page.waitForLoadState("networkidle");
    await stack.check(page, "console-customers-export", { screenshot: false });
    const customers = await exported(page);
    expect(customers.name).toMatch(/^customers-\d{4}-\d{2}-\d{2}\.csv$/);
    const [header, row] = customers.text.split("\r\n");
    expect(header).toMatch(/^ID,External ID,Created At,Email,Name,Tax ID,/);
    expect(row).toContain(`${customer.id},,`);
    expect(row).toContain(",csv-buyer@example.com,Csv Buyer,");

    await page.goto(`${stack.url}/dashboard/orders`);
    await page.getByText("csv-buyer@example.com").waitFor();
    await page.waitForLoadState("networkidle");
    const orders = await exported(page);
    expect(orders.name).toMatch(/^orders-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = orders.text.split("\r\n");
    expect(lines[0]).toMatch(/^Email,Created At,Product,Net Amount,Currency,Status,Invoice number,/);
    expect(lines[1]).toMatch(new RegExp(`^csv-buyer@example\\.com,.*,Csv plan,2500,usd,paid,.*,500,3000,0,purchase,.*,${order.id}$`));
    expect(stack.takeProblems(page)).toEqual([]);
  });
});
