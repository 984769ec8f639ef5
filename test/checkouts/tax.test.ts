// A checkout computes its tax through the organization's provider: on create and on
// every change that matters (billing country, state, postal code, the business checkbox, the tax
// id, the product and price, the discount), its tax_amount and total_amount follow, a price that
// includes tax keeps its total; with the provider `none` nothing changes from before. Through the
// official client; the organization's settings and the products' tax category in plain JSON.
import { Polar } from "@polar-sh/sdk";
import { HTTPValidationError } from "@polar-sh/sdk/models/errors/httpvalidationerror.js";
import { describe, expect, it } from "vitest";
import { createDiscount, orgWithClient, plainJson, rejects, useTestApi } from "../harness/index.js";

const api = useTestApi();
const anon = () => new Polar({ serverURL: api.url });

/** An organization with these tax settings, a 10.00 EUR product of each category given, and its client. */
async function taxedShop(settings: Record<string, unknown> | null, categories: string[] = ["digital_service"], priceAmount = 1000) {
  const { org, token, polar } = await orgWithClient(api);
  const call = plainJson(api.url, token);
  if (settings) expect((await call("PATCH", `/v1/organizations/${org.id}`, { tax_settings: settings })).status).toBe(200);
  const products: string[] = [];
  for (const tax_category of categories) {
    const made = await call("POST", "/v1/products/", {
      name: `A ${tax_category}`,
      tax_category,
      prices: [{ amount_type: "fixed", price_amount: priceAmount, price_currency: "eur" }],
    });
    expect(made.status).toBe(201);
    products.push(String(made.body.id));
  }
  return { org, polar, products, call, newest: api.client049(token) };
}

const FR_SELLER = {
  provider: "builtin",
  origin_country: "FR",
  prices_include_tax: false,
  registrations: [
    { country: "FR" },
    { country: "EU", scheme: "oss" },
    { country: "GB" },
    { country: "CA" },
    { country: "CA", state: "QC" },
  ],
};

const amountsOf = (c: { netAmount: number; taxAmount: number | null; totalAmount: number }) => [c.netAmount, c.taxAmount, c.totalAmount];
/** The checkout's tax_behavior, which only the 0.49.0 client reads. */
const behaviorOf = async (newest: ReturnType<typeof api.client049>, id: string) => (await newest.checkouts.get({ id })).taxBehavior;

describe("checkout tax", () => {
  it("recomputes the tax on every change of the buyer's address, business checkbox, tax id, product and discount", async () => {
    const { org, polar, products, newest } = await taxedShop(FR_SELLER, ["digital_service", "ebook"]);
    const discount = await createDiscount(api.knex, org.id, { code: "TENOFF" });
    const checkout = await polar.checkouts.create({ products });
    // the buyer's country is not known yet: no tax
    expect(amountsOf(checkout)).toEqual([1000, 0, 1000]);
    const update = (checkoutUpdatePublic: Parameters<Polar["checkouts"]["clientUpdate"]>[0]["checkoutUpdatePublic"]) =>
      anon().checkouts.clientUpdate({ clientSecret: checkout.clientSecret, checkoutUpdatePublic });

    const fr = await update({ customerBillingAddress: { country: "FR" } });
    expect(amountsOf(fr)).toEqual([1000, 200, 1200]);
    expect(await behaviorOf(newest, checkout.id)).toBe("exclusive");
    // another member state under OSS: its own rate
    expect(amountsOf(await update({ customerBillingAddress: { country: "DE" } }))).toEqual([1000, 190, 1190]);
    // a German business with a valid VAT number: reverse charge
    expect(amountsOf(await update({ isBusinessCustomer: true, customerBillingName: "Acme GmbH", customerTaxId: "DE136695976" }))).toEqual([
      1000, 0, 1000,
    ]);
    // the checkbox off again: a consumer, whatever the tax id
    expect(amountsOf(await update({ isBusinessCustomer: false }))).toEqual([1000, 190, 1190]);
    expect(amountsOf(await update({ customerBillingAddress: { country: "US", state: "NY" }, customerTaxId: null }))).toEqual([
      1000, 0, 1000,
    ]);
    expect(amountsOf(await update({ customerBillingAddress: { country: "GB" } }))).toEqual([1000, 200, 1200]);
    // the discount: tax on what is left
    expect(amountsOf(await update({ discountCode: discount.code ?? "TENOFF" }))).toEqual([900, 180, 1080]);
    // Canada: the province from the state, else the postal code
    expect(amountsOf(await update({ discountCode: null, customerBillingAddress: { country: "CA", state: "QC" } }))).toEqual([
      1000, 150, 1150,
    ]);
    expect(amountsOf(await update({ customerBillingAddress: { country: "CA", postalCode: "M5V 3L9" } }))).toEqual([1000, 130, 1130]); // Ontario: HST 13%
    // another product: an e-book, France's reduced rate
    await update({ customerBillingAddress: { country: "FR" } });
    const book = await update({ productId: products[1] });
    expect(amountsOf(book)).toEqual([1000, 55, 1055]);
    const merchantView = await polar.checkouts.get({ id: checkout.id });
    expect(amountsOf(merchantView)).toEqual([1000, 55, 1055]);
  });

  it("recomputes the tax when a pay-what-you-want buyer changes the amount", async () => {
    const { polar, call } = await taxedShop(FR_SELLER, []);
    const made = await call("POST", "/v1/products/", {
      name: "Tip jar",
      prices: [{ amount_type: "custom", price_currency: "eur", minimum_amount: 500, preset_amount: 1000 }],
    });
    expect(made.status).toBe(201);
    const checkout = await polar.checkouts.create({ products: [String(made.body.id)], customerBillingAddress: { country: "FR" } });
    expect(amountsOf(checkout)).toEqual([1000, 200, 1200]);
    const more = await anon().checkouts.clientUpdate({ clientSecret: checkout.clientSecret, checkoutUpdatePublic: { amount: 2550 } });
    expect(amountsOf(more)).toEqual([2550, 510, 3060]);
  });

  it("carves the tax out of prices that include it: the total stays the listed price", async () => {
    const { polar, products, newest } = await taxedShop(Object.assign({}, FR_SELLER, { prices_include_tax: true }));
    const checkout = await polar.checkouts.create({ products, customerBillingAddress: { country: "FR" } });
    expect(amountsOf(checkout)).toEqual([833, 167, 1000]);
    expect(await behaviorOf(newest, checkout.id)).toBe("inclusive");
    const de = await anon().checkouts.clientUpdate({
      clientSecret: checkout.clientSecret,
      checkoutUpdatePublic: { customerBillingAddress: { country: "DE" } },
    });
    expect(amountsOf(de)).toEqual([840, 160, 1000]);
  });

  it("tells the buyer's page the rate, its jurisdiction and why (a Borealis addition to the public checkout)", async () => {
    const { polar, products, call } = await taxedShop(FR_SELLER);
    const checkout = await polar.checkouts.create({ products });
    const path = `/v1/checkouts/client/${checkout.clientSecret}`;
    const taxOf = (body: Record<string, unknown>) => [body.tax_amount, body.tax_rate, body.taxability_reason];
    expect(taxOf((await call("GET", path)).body)).toEqual([0, null, null]);
    const fr = await call("PATCH", path, { customer_billing_address: { country: "FR" } });
    expect(taxOf(fr.body)).toEqual([
      200,
      { basis_points: 2000, display_name: "VAT 20% (France)", country: "FR", state: null },
      "standard_rated",
    ]);
    const business = await call("PATCH", path, {
      customer_billing_address: { country: "DE" },
      is_business_customer: true,
      customer_billing_name: "Acme GmbH",
      customer_tax_id: "DE136695976",
    });
    expect(taxOf(business.body)).toEqual([
      0,
      { basis_points: 0, display_name: "Reverse charge", country: "DE", state: null },
      "reverse_charge",
    ]);
    const us = await call("PATCH", path, {
      customer_billing_address: { country: "US", state: "NY", postal_code: "10001" },
      is_business_customer: false,
      customer_tax_id: null,
    });
    expect(taxOf(us.body)).toEqual([0, null, "not_collecting"]);
    // The merchant's Checkout is Polar's, without them.
    expect((await call("GET", `/v1/checkouts/${checkout.id}`)).body).not.toHaveProperty("tax_rate");
  });

  it("computes nothing with the provider none, as before", async () => {
    const { polar, products, newest } = await taxedShop(null);
    const checkout = await polar.checkouts.create({ products, customerBillingAddress: { country: "FR" } });
    expect(amountsOf(checkout)).toEqual([1000, 0, 1000]);
    expect(await behaviorOf(newest, checkout.id)).toBe("inclusive");
    const us = await anon().checkouts.clientUpdate({
      clientSecret: checkout.clientSecret,
      checkoutUpdatePublic: { customerBillingAddress: { country: "US" } },
    });
    expect(amountsOf(us)).toEqual([1000, 0, 1000]);
    expect(await behaviorOf(newest, checkout.id)).toBe("exclusive");
  });

  it("refuses to confirm while the tax can't be computed: a Canadian buyer without province or postal code", async () => {
    const { polar, products } = await taxedShop(FR_SELLER);
    const checkout = await polar.checkouts.create({ products, customerBillingAddress: { country: "CA" } });
    expect(amountsOf(checkout)).toEqual([1000, 0, 1000]);
    // The hosted checkout asks for the province, as for a US state, without a full address required.
    expect(checkout.billingAddressFields).toMatchObject({ state: "required", postalCode: "disabled", line1: "disabled" });
    const err = await rejects(
      anon().checkouts.clientConfirm({
        clientSecret: checkout.clientSecret,
        checkoutConfirmStripe: { customerEmail: "ca@example.com", customerName: "Buyer", confirmationTokenId: "tok_sandbox_success" },
      }),
      HTTPValidationError,
    );
    expect(err.data$.detail?.map((d) => d.loc)).toEqual([["body", "customer_billing_address", "state"]]);
    expect((await polar.checkouts.get({ id: checkout.id })).status).toBe("open");
  });
});

describe("the customer a checkout is paid for", () => {
  it("takes the buyer's billing address and tax id when the merchant bound the checkout to them, not when only the email matches", async () => {
    const { polar, products } = await taxedShop(FR_SELLER);
    const bound = await polar.customers.create({ email: "bound@example.com", billingAddress: { country: "FR" } });
    const matched = await polar.customers.create({ email: "matched@example.com", billingAddress: { country: "FR" } });
    const pay = async (create: Parameters<Polar["checkouts"]["create"]>[0], email: string) => {
      const checkout = await polar.checkouts.create(create);
      await anon().checkouts.clientUpdate({
        clientSecret: checkout.clientSecret,
        checkoutUpdatePublic: {
          customerEmail: email,
          customerName: "Acme",
          customerBillingAddress: { country: "DE", line1: "1 Hauptstr.", city: "Berlin", postalCode: "10115" },
          isBusinessCustomer: true,
          customerBillingName: "Acme GmbH",
          customerTaxId: "DE136695976",
        },
      });
      const confirmed = await anon().checkouts.clientConfirm({
        clientSecret: checkout.clientSecret,
        checkoutConfirmStripe: { confirmationTokenId: "tok_sandbox_success" },
      });
      expect(confirmed.status).toBe("confirmed");
    };
    await pay({ products, customerId: bound.id }, "bound@example.com");
    const after = await polar.customers.get({ id: bound.id });
    expect(after.billingAddress?.country).toBe("DE");
    expect(after.taxId).toEqual(["DE136695976", "eu_vat"]);
    // Anyone may type an email: paying with it changes nothing stored on that customer.
    await pay({ products }, "matched@example.com");
    const untouched = await polar.customers.get({ id: matched.id });
    expect(untouched.billingAddress?.country).toBe("FR");
    expect(untouched.taxId).toBeNull();
  });
});

type Buyer = { country: string; state?: string; postalCode?: string; business?: { name: string; taxId: string } };
type OrderTax = {
  tax_rate: { basis_points: number; display_name: string; country: string; state: string | null } | null;
  taxability_reason: string | null;
};
/** [case, the seller's settings (null: never set), the product's tax category, the buyer, the checkout's [net, tax, total], the order's tax] */
const CASES: [string, Record<string, unknown> | null, string, Buyer, [number, number, number], OrderTax][] = [
  [
    "FR consumer, seller under OSS",
    FR_SELLER,
    "digital_service",
    { country: "FR" },
    [1000, 200, 1200],
    { tax_rate: { basis_points: 2000, display_name: "VAT 20% (France)", country: "FR", state: null }, taxability_reason: "standard_rated" },
  ],
  [
    "DE consumer, seller under OSS: Germany's rate",
    FR_SELLER,
    "digital_service",
    { country: "DE" },
    [1000, 190, 1190],
    {
      tax_rate: { basis_points: 1900, display_name: "VAT 19% (Germany)", country: "DE", state: null },
      taxability_reason: "standard_rated",
    },
  ],
  [
    "DE business with a valid VAT id: reverse charge",
    FR_SELLER,
    "digital_service",
    { country: "DE", business: { name: "Acme GmbH", taxId: "DE136695976" } },
    [1000, 0, 1000],
    { tax_rate: { basis_points: 0, display_name: "Reverse charge", country: "DE", state: null }, taxability_reason: "reverse_charge" },
  ],
  [
    "FR business: the seller's own country, standard rate",
    FR_SELLER,
    "digital_service",
    { country: "FR", business: { name: "Acme SAS", taxId: "FR40303265045" } },
    [1000, 200, 1200],
    { tax_rate: { basis_points: 2000, display_name: "VAT 20% (France)", country: "FR", state: null }, taxability_reason: "standard_rated" },
  ],
  [
    "US buyer: not collecting",
    FR_SELLER,
    "digital_service",
    { country: "US", state: "NY", postalCode: "10001" },
    [1000, 0, 1000],
    { tax_rate: null, taxability_reason: "not_collecting" },
  ],
  [
    "GB buyer, seller registered in GB",
    FR_SELLER,
    "digital_service",
    { country: "GB", postalCode: "SW1A 1AA" },
    [1000, 200, 1200],
    {
      tax_rate: { basis_points: 2000, display_name: "VAT 20% (United Kingdom)", country: "GB", state: null },
      taxability_reason: "standard_rated",
    },
  ],
  [
    "FR e-book: the reduced rate",
    FR_SELLER,
    "ebook",
    { country: "FR" },
    [1000, 55, 1055],
    { tax_rate: { basis_points: 550, display_name: "VAT 5.5% (France)", country: "FR", state: null }, taxability_reason: "standard_rated" },
  ],
  [
    "FR consumer, prices include tax",
    Object.assign({}, FR_SELLER, { prices_include_tax: true }),
    "digital_service",
    { country: "FR" },
    [833, 167, 1000],
    { tax_rate: { basis_points: 2000, display_name: "VAT 20% (France)", country: "FR", state: null }, taxability_reason: "standard_rated" },
  ],
  [
    "DE consumer, prices include tax",
    Object.assign({}, FR_SELLER, { prices_include_tax: true }),
    "digital_service",
    { country: "DE" },
    [840, 160, 1000],
    {
      tax_rate: { basis_points: 1900, display_name: "VAT 19% (Germany)", country: "DE", state: null },
      taxability_reason: "standard_rated",
    },
  ],
  [
    "Quebec buyer: GST and QST",
    FR_SELLER,
    "digital_service",
    { country: "CA", state: "QC", postalCode: "H2X 1Y4" },
    [1000, 150, 1150],
    {
      tax_rate: { basis_points: 1498, display_name: "GST 5% + QST 9.975% (Quebec)", country: "CA", state: "QC" },
      taxability_reason: "standard_rated",
    },
  ],
  [
    "provider none: no tax, as before",
    null,
    "digital_service",
    { country: "FR" },
    [1000, 0, 1000],
    { tax_rate: null, taxability_reason: null },
  ],
  [
    "provider none, a business with a VAT id",
    { provider: "none" },
    "digital_service",
    { country: "DE", business: { name: "Acme GmbH", taxId: "DE136695976" } },
    [1000, 0, 1000],
    { tax_rate: null, taxability_reason: null },
  ],
];

describe("checkout to order: the tax the buyer is charged, and what the order stores", () => {
  it.each(CASES)("%s", async (_name, settings, category, buyer, [net, tax, total], orderTax) => {
    const { polar, products, call } = await taxedShop(settings, [category]);
    const checkout = await polar.checkouts.create({ products });
    // A business gives the full address (a postal code too); a consumer the lines the case names.
    const postalCode = buyer.postalCode ?? (buyer.business ? "10115" : undefined);
    const address = { country: buyer.country, state: buyer.state, postalCode, line1: "1 Main St", city: "Town" };
    const shown = await anon().checkouts.clientUpdate({
      clientSecret: checkout.clientSecret,
      checkoutUpdatePublic: {
        customerEmail: `buyer-${buyer.country.toLowerCase()}@example.com`,
        customerName: "Buyer",
        customerBillingAddress: address,
        ...(buyer.business
          ? { isBusinessCustomer: true, customerBillingName: buyer.business.name, customerTaxId: buyer.business.taxId }
          : {}),
      },
    });
    expect(amountsOf(shown)).toEqual([net, tax, total]);
    const confirmed = await anon().checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: { confirmationTokenId: "tok_sandbox_success" },
    });
    expect(confirmed.status).toBe("confirmed");
    expect((await polar.checkouts.get({ id: checkout.id })).status).toBe("succeeded");

    const [order] = (await polar.orders.list({ productId: products[0] })).result.items;
    expect(order).toMatchObject({ netAmount: net, taxAmount: tax, totalAmount: total, subtotalAmount: net });
    expect(order.items.map((i) => [i.amount, i.taxAmount])).toEqual([[net, tax]]);
    // on the wire (the official client does not know the fields), and as stored
    const wire = (await call("GET", `/v1/orders/${order.id}`)).body;
    expect({ tax_rate: wire.tax_rate, taxability_reason: wire.taxability_reason }).toEqual(orderTax);
    const stored = await api.knex("orders").where({ id: order.id }).first();
    expect({ tax_rate: stored.tax_rate, taxability_reason: stored.taxability_reason }).toEqual(orderTax);
    expect(stored.tax_transaction_id).toBe(orderTax.taxability_reason === null ? null : `builtin:${order.id}`);
    // what the buyer paid is the total shown
    const [payment] = (await polar.payments.list({ orderId: order.id })).result.items;
    expect(payment?.amount ?? 0).toBe(total);
  });
});
