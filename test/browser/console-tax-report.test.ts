// The console's tax report, in Chromium against the running stack: the Sales menu opens
// it, the range and the period length choose what GET /v1/tax/report sums, the table shows each
// country and rate with refunds netted out, the page passes axe, and the CSV downloads the same
// numbers in major units. The organization settings save the seller's invoice details.
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { createCustomer, createOrder, createProductWithPrice, orgWithToken } from "../harness/index.js";
import { useBrowserStack } from "./harness.js";
import { signIn } from "./console-helpers.js";

describe("merchant console: tax report", { timeout: 240_000 }, () => {
  const stack = useBrowserStack();

  it("shows the tax per quarter, country and rate, and downloads it as CSV", async () => {
    const { org, token } = await orgWithToken(stack.knex);
    const customerId = (await createCustomer(stack.knex, org.id)).id;
    const productId = (await createProductWithPrice(stack.knex, org.id)).product.id;
    const sale = (at: string, country: string, net: number, tax: number, basisPoints: number, name: string) =>
      createOrder(
        stack.knex,
        org.id,
        { customerId, productId },
        {
          created_at: new Date(at),
          currency: "eur",
          subtotal_amount: net,
          tax_amount: tax,
          billing_address: { line1: null, line2: null, postal_code: null, city: null, state: null, country },
          tax_rate: JSON.stringify({ basis_points: basisPoints, display_name: name, country, state: null }),
          taxability_reason: basisPoints ? "standard_rated" : "reverse_charge",
        },
      );
    const fr = await sale("2026-01-10T10:00:00Z", "FR", 1000, 200, 2000, "VAT 20% (France)");
    await sale("2026-02-10T10:00:00Z", "FR", 2000, 400, 2000, "VAT 20% (France)");
    await sale("2026-02-11T10:00:00Z", "DE", 5000, 0, 0, "Reverse charge");
    await stack.knex("refunds").insert({
      organization_id: org.id,
      customer_id: customerId,
      order_id: fr.id,
      status: "succeeded",
      reason: "customer_request",
      amount: 500,
      tax_amount: 100,
      currency: "eur",
      created_at: new Date("2026-03-01T10:00:00Z"),
    });

    const page = await stack.newPage();
    await signIn(stack, page, token);
    await page.getByRole("menuitem", { name: "Tax report" }).click();
    await page.getByRole("heading", { name: "Tax report", level: 1 }).waitFor();
    await page.getByRole("textbox", { name: "From", exact: true }).fill("2026-01-01");
    await page.getByRole("textbox", { name: "To", exact: true }).fill("2026-03-31");
    await page.getByRole("combobox", { name: "Period" }).click();
    await page.getByRole("option", { name: "Quarter" }).click();
    const table = page.getByRole("table", { name: "Tax for 2026-Q1" });
    await table.waitFor();
    const rows = table.getByRole("row");
    await expect.poll(() => rows.count()).toBe(3);
    // FR: 3000 net and 600 tax sold, 500 and 100 refunded: 2500 and 500 to declare.
    expect(await rows.nth(1).innerText()).toMatch(
      /^DE\s+Reverse charge\s+Reverse charge\s+1\s+0\s+€50\.00\s+€0\.00\s+€0\.00\s+€0\.00\s+€50\.00\s+€0\.00$/,
    );
    expect(await rows.nth(2).innerText()).toMatch(
      /^FR\s+VAT 20% \(France\)\s+Standard rated\s+2\s+1\s+€30\.00\s+€6\.00\s+€5\.00\s+€1\.00\s+€25\.00\s+€5\.00$/,
    );
    await page.waitForLoadState("networkidle");
    await stack.check(page, "console-tax-report");

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV" }).click()]);
    expect(download.suggestedFilename()).toBe("tax-report-2026-01-01-2026-03-31-quarter.csv");
    const csv = (await readFile((await download.path())!, "utf8")).split("\r\n");
    expect(csv).toEqual([
      "period,start_date,end_date,currency,country,state,rate_percent,display_name,taxability_reason,orders,refunds,sales_net_amount,sales_tax_amount,refunded_net_amount,refunded_tax_amount,net_amount,tax_amount",
      "2026-Q1,2026-01-01,2026-03-31,EUR,DE,,0,Reverse charge,reverse_charge,1,0,50,0,0,0,50,0",
      "2026-Q1,2026-01-01,2026-03-31,EUR,FR,,20,VAT 20% (France),standard_rated,2,1,30,6,5,1,25,5",
      "",
    ]);
    expect(stack.takeProblems(page)).toEqual([]);
  });

  it("saves the seller's invoice details in the organization settings", async () => {
    const { org, token } = await orgWithToken(stack.knex);
    const page = await stack.newPage();
    await signIn(stack, page, token);
    await page.goto(`${stack.url}/dashboard/settings`);
    await page.getByLabel("Legal name").fill("Acme Logiciels SAS");
    await page.getByLabel("Line 1").fill("12 rue de la Paix");
    await page.getByLabel("Postal code").fill("75002");
    await page.getByLabel("City").fill("Paris");
    await page.getByLabel("Country").fill("FR");
    await page.getByLabel("VAT or tax ID").fill("FR 40 303 265 045");
    await page.waitForLoadState("networkidle");
    await stack.check(page, "console-settings-seller", { screenshot: false });
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Settings saved").waitFor();
    expect((await stack.knex("organizations").where({ id: org.id }).first()).seller_details).toEqual({
      name: "Acme Logiciels SAS",
      address: { line1: "12 rue de la Paix", line2: null, postal_code: "75002", city: "Paris", state: null, country: "FR" },
      tax_id: ["FR40303265045", "eu_vat"],
    });
    // shown as saved when opened again
    await page.reload();
    await expect.poll(() => page.getByLabel("VAT or tax ID").inputValue()).toBe("FR40303265045");
    expect(stack.takeProblems(page)).toEqual([]);
  });
});
