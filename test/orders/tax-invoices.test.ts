// Tax on invoices: the seller's legal name, address and VAT id (its seller_details), the
// buyer's VAT id, each line's rate, the tax total under its jurisdiction's name, and the
// reverse-charge legend, read back from the rendered PDF's text.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalStorage, setStorage } from "../../server/files/storage.js";
import { storeInvoice } from "../../server/orders/invoice.js";
import { orderDependents } from "../../server/subscriptions/repository.js";
import { Polar } from "@polar-sh/sdk";
import { createCustomer, createOrder, createProductWithPrice, orgWithToken, pdfRows, plainJson, useTestApi } from "../harness/index.js";

const api = useTestApi();
const LEGEND = "Reverse charge: VAT to be accounted for by the recipient, Article 196 Council Directive 2006/112/EC";

describe("tax invoices", () => {
  let filesDir: string;
  let token: string;
  let orgId: string;
  let productId: string;

  beforeAll(async () => {
    filesDir = await mkdtemp(path.join(os.tmpdir(), "tax-invoices-"));
    setStorage(new LocalStorage(filesDir));
    const made = await orgWithToken(api.knex);
    token = made.token;
    orgId = made.org.id;
    productId = (await createProductWithPrice(api.knex, orgId)).product.id;
    const res = await fetch(`${api.url}/v1/organizations/${orgId}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({
        seller_details: {
          name: "Acme Logiciels SAS",
          address: { line1: "12 rue de la Paix", postal_code: "75002", city: "Paris", country: "FR" },
          tax_id: "FR 40 303 265 045",
        },
      }),
    });
    expect(res.status).toBe(200);
    expect((await res.json()).seller_details).toEqual({
      name: "Acme Logiciels SAS",
      address: { line1: "12 rue de la Paix", line2: null, postal_code: "75002", city: "Paris", state: null, country: "FR" },
      tax_id: ["FR40303265045", "eu_vat"],
    });
  }, 120_000);

  afterAll(async () => {
    setStorage(null);
    await rm(filesDir, { recursive: true, force: true });
  });

  async function invoiceRows(customer: Record<string, unknown>, order: Record<string, unknown>): Promise<string[]> {
    const c = await createCustomer(api.knex, orgId, customer);
    const o = await createOrder(api.knex, orgId, { customerId: c.id, productId }, { currency: "eur", ...order });
    const stored = await storeInvoice(api.knex, o.id, orderDependents);
    return pdfRows(await readFile(path.join(filesDir, ...stored.path.split("/"))));
  }

  const frenchVat = {
    tax_rate: JSON.stringify({ basis_points: 2000, display_name: "VAT 20% (France)", country: "FR", state: null }),
    taxability_reason: "standard_rated",
  };

  it("prints a French consumer's VAT: the seller's details, the line's rate and the tax under its name", async () => {
    const rows = await invoiceRows(
      { name: "Marie Curie" },
      {
        subtotal_amount: 1000,
        tax_amount: 200,
        billing_name: "Marie Curie",
        billing_address: { line1: "3 quai Voltaire", line2: null, postal_code: "69001", city: "Lyon", state: null, country: "FR" },
        ...frenchVat,
      },
    );
    expect(rows[0]).toBe("Invoice | Acme Logiciels SAS");
    expect(rows).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Invoice number: .* \| 12 rue de la Paix$/),
        expect.stringMatching(/^Date of issue: .* \| 75002 Paris$/),
        "FR",
        "VAT ID: FR40303265045",
        "Pro license | 20% | €2.00 | €10.00",
        "Subtotal | €10.00",
        "VAT 20% (France) | €2.00",
        "Total | €12.00",
      ]),
    );
    // The buyer is a consumer: no VAT id under "Bill to", and no legend.
    const billTo = rows.slice(
      rows.indexOf("Bill to"),
      rows.findIndex((r) => r.startsWith("Description")),
    );
    expect(billTo).toEqual(["Bill to", "Marie Curie", "3 quai Voltaire", "69001 Lyon", "FR", expect.stringMatching(/@example\.com$/)]);
    expect(rows.join("\n")).not.toContain("Reverse charge");
  });

  it("prints a German business's VAT id, 0% and the reverse-charge legend", async () => {
    const rows = await invoiceRows(
      // The customer has since removed their VAT id: the order's, from when it was made, is printed.
      { name: "Beispiel GmbH", tax_id: null },
      {
        customer_tax_id: JSON.stringify(["DE136695976", "eu_vat"]),
        subtotal_amount: 5000,
        tax_amount: 0,
        billing_name: "Beispiel GmbH",
        billing_address: { line1: "Unter den Linden 1", line2: null, postal_code: "10117", city: "Berlin", state: null, country: "DE" },
        tax_rate: JSON.stringify({ basis_points: 0, display_name: "Reverse charge", country: "DE", state: null }),
        taxability_reason: "reverse_charge",
      },
    );
    const billTo = rows.slice(
      rows.indexOf("Bill to"),
      rows.findIndex((r) => r.startsWith("Description")),
    );
    expect(billTo).toEqual([
      "Bill to",
      "Beispiel GmbH",
      "Unter den Linden 1",
      "10117 Berlin",
      "DE",
      "VAT ID: DE136695976",
      expect.stringMatching(/@example\.com$/),
    ]);
    expect(rows).toEqual(expect.arrayContaining(["Pro license | 0% | €0.00 | €50.00", "Reverse charge | €0.00", "Total | €50.00", LEGEND]));
  });

  it("prints an inclusive price as its net, its tax and the listed total", async () => {
    // €10.00 with French VAT included: 8.33 net and 1.67 tax, carved out of the listed price.
    const rows = await invoiceRows(
      {},
      {
        subtotal_amount: 833,
        tax_amount: 167,
        billing_address: { line1: null, line2: null, postal_code: null, city: null, state: null, country: "FR" },
        ...frenchVat,
      },
    );
    expect(rows).toEqual(
      expect.arrayContaining(["Pro license | 20% | €1.67 | €8.33", "Subtotal | €8.33", "VAT 20% (France) | €1.67", "Total | €10.00"]),
    );
    expect(rows).not.toContain(LEGEND);
  });

  it("invoices a German business's checkout, confirmed through the official client, with the VAT id it bought with", async () => {
    const call = plainJson(api.url, token);
    const settings = {
      provider: "builtin",
      origin_country: "FR",
      prices_include_tax: false,
      registrations: [{ country: "FR" }, { country: "EU", scheme: "oss" }],
    };
    expect((await call("PATCH", `/v1/organizations/${orgId}`, { tax_settings: settings })).status).toBe(200);
    const polar = api.client(token);
    const product = await polar.products.create({
      name: "Team seat",
      recurringInterval: null,
      prices: [{ amountType: "fixed", priceAmount: 4000, priceCurrency: "eur" }],
    });
    const checkout = await polar.checkouts.create({ products: [product.id] });
    const anon = new Polar({ serverURL: api.url });
    const shown = await anon.checkouts.clientUpdate({
      clientSecret: checkout.clientSecret,
      checkoutUpdatePublic: {
        customerEmail: "einkauf@example.com",
        customerName: "Einkauf",
        customerBillingAddress: { country: "DE", line1: "Unter den Linden 1", postalCode: "10117", city: "Berlin" },
        isBusinessCustomer: true,
        customerBillingName: "Acme GmbH",
        customerTaxId: "DE136695976",
      },
    });
    expect([shown.netAmount, shown.taxAmount, shown.totalAmount]).toEqual([4000, 0, 4000]);
    const confirmed = await anon.checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: { confirmationTokenId: "tok_sandbox_success" },
    });
    expect(confirmed.status).toBe("confirmed");
    const [order] = (await polar.orders.list({ productId: product.id })).result.items;
    // The buyer changes their VAT id after buying: the invoice keeps the one of the sale.
    await api.knex("customers").where({ id: order.customerId }).update({ tax_id: null });
    const stored = await storeInvoice(api.knex, order.id, orderDependents);
    const rows = pdfRows(await readFile(path.join(filesDir, ...stored.path.split("/"))));
    const billTo = rows.slice(
      rows.indexOf("Bill to"),
      rows.findIndex((r) => r.startsWith("Description")),
    );
    expect(billTo).toEqual([
      "Bill to",
      "Acme GmbH",
      "Unter den Linden 1",
      "10117 Berlin",
      "DE",
      "VAT ID: DE136695976",
      "einkauf@example.com",
    ]);
    expect(rows).toEqual(
      expect.arrayContaining([
        "Team seat | 0% | €0.00 | €40.00",
        "Reverse charge | €0.00",
        "Total | €40.00",
        LEGEND,
        "VAT ID: FR40303265045",
      ]),
    );
  });

  it("refuses a seller tax id that fails its checksum with a 422 naming the field", async () => {
    const res = await fetch(`${api.url}/v1/organizations/${orgId}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ seller_details: { address: { country: "FR" }, tax_id: ["FR40303265046", "eu_vat"] } }),
    });
    expect(res.status).toBe(422);
    expect((await res.json()).detail[0].loc).toEqual(["body", "seller_details", "tax_id"]);
  });
});
