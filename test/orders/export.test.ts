// orders:export through the 0.49 client: Polar's columns then the buyer's tax id and billing
// address, amounts and tax per order, the organization and product filters, the time zone, and
// the errors (422 bad parameters, 403 scopes).
import { describe, expect, it } from "vitest";
import { HTTPValidationError } from "polar-sdk-049/models/errors/httpvalidationerror.js";
import { SDKError } from "polar-sdk-049/models/errors/sdkerror.js";
import { createCustomer, createOrder, createProductWithPrice, orgWithToken, rejects, useTestApi } from "../harness/index.js";

const api = useTestApi();

const HEADER =
  "Email,Created At,Product,Net Amount,Currency,Status,Invoice number,Customer Name,Billing Name,Billing Country," +
  "Subtotal,Discount,Tax,Total,Refunded Amount,Billing Reason,Tax ID,Tax Rate,Taxability Reason,Billing Address Line 1,Billing Address Line 2," +
  "Billing Address City,Billing Address State,Billing Address Zip,ID";

describe("orders export", () => {
  it("answers the organization's orders as CSV with their tax and billing details through the 0.49 client", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const polar = api.client049(token);
    const customer = await createCustomer(api.knex, org.id, { email: "ada@example.com", name: "Ada" });
    const pro = await createProductWithPrice(api.knex, org.id, { name: "Pro license" });
    const team = await createProductWithPrice(api.knex, org.id, { name: "Team, yearly" });
    const taxed = await createOrder(
      api.knex,
      org.id,
      { customerId: customer.id, productId: pro.product.id, productPriceId: pro.price.id },
      {
        created_at: new Date("2030-01-01T00:00:00Z"),
        subtotal_amount: 10000,
        discount_amount: 1000,
        tax_amount: 1710,
        refunded_amount: 500,
        status: "partially_refunded",
        billing_name: "Ada GmbH",
        billing_address: { country: "DE", line1: "Hauptstraße 1", line2: null, city: "Berlin", state: null, postal_code: "10115" },
        customer_tax_id: JSON.stringify(["DE136695976", "eu_vat"]),
        tax_rate: JSON.stringify({ basis_points: 1900, display_name: "VAT 19% (Germany)", country: "DE", state: null }),
        taxability_reason: "standard_rated",
      },
    );
    const plain = await createOrder(
      api.knex,
      org.id,
      { customerId: customer.id, productId: team.product.id },
      { created_at: new Date("2030-02-01T00:00:00Z"), billing_reason: "subscription_create", billing_address: null, billing_name: null },
    );
    const other = await orgWithToken(api.knex);
    const stranger = await createCustomer(api.knex, other.org.id);
    const theirs = await createProductWithPrice(api.knex, other.org.id);
    await createOrder(api.knex, other.org.id, { customerId: stranger.id, productId: theirs.product.id });

    const csv = await polar.orders.export({});
    const lines = csv.split("\r\n");
    expect(lines[0]).toBe(HEADER);
    expect(lines.slice(1)).toEqual([
      `ada@example.com,2030-01-01T00:00:00.000Z,Pro license,9000,usd,partially_refunded,${taxed.invoice_number},Ada,Ada GmbH,DE,` +
        `10000,1000,1710,10710,500,purchase,DE136695976,VAT 19% (Germany),standard_rated,Hauptstraße 1,,Berlin,,10115,${taxed.id}`,
      `ada@example.com,2030-02-01T00:00:00.000Z,"Team, yearly",2500,usd,paid,${plain.invoice_number},Ada,,,` +
        `2500,0,0,2500,0,subscription_create,,,,,,,,,${plain.id}`,
      "",
    ]);

    // Filters: a product, the caller's own organization, another's (nothing).
    const byProduct = (await polar.orders.export({ productId: team.product.id })).split("\r\n");
    expect(byProduct.slice(1, -1).map((l) => l.split(",").at(-1))).toEqual([plain.id]);
    expect(await polar.orders.export({ organizationId: org.id })).toBe(csv);
    expect(await polar.orders.export({ organizationId: other.org.id })).toBe(`${HEADER}\r\n`);

    const zoned = await fetch(`${api.url}/v1/orders/export?timezone=America/New_York`, { headers: { authorization: `Bearer ${token}` } });
    expect(zoned.headers.get("content-type")).toMatch(/^text\/csv/);
    expect((await zoned.text()).split("\r\n")[1]).toContain(",2029-12-31T19:00:00.000-05:00,");
  });

  it("refuses bad parameters with a 422 and a token without an orders scope with a 403", async () => {
    const { token } = await orgWithToken(api.knex);
    const polar = api.client049(token);
    const bad = await rejects(polar.orders.export({ productId: ["not-a-uuid"] }), HTTPValidationError);
    expect(bad.detail?.[0].loc).toEqual(["query", "product_id", 0]);
    const zone = await fetch(`${api.url}/v1/orders/export?timezone=Mars/Base`, { headers: { authorization: `Bearer ${token}` } });
    expect(zone.status).toBe(422);

    const narrow = await orgWithToken(api.knex, { scopes: ["customers:read"] });
    expect((await rejects(api.client049(narrow.token).orders.export({}), SDKError)).statusCode).toBe(403);
  });
});
