// A checkout computes its tax through the organization's provider (issue 31): on create and on
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
  return { org, polar, products, newest: api.client049(token) };
}

const FR_SELLER = {
  provider: "builtin",
  origin_country: "FR",
  prices_include_tax: false,
  registrations: [{ country: "FR" }, { country: "EU", scheme: "oss" }, { country: "GB" }, { country: "CA" }, { country: "CA", state: "QC" }],
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
    expect(amountsOf(await update({ isBusinessCustomer: true, customerBillingName: "Acme GmbH", customerTaxId: "DE136695976" }))).toEqual([1000, 0, 1000]);
    // the checkbox off again: a consumer, whatever the tax id
    expect(amountsOf(await update({ isBusinessCustomer: false }))).toEqual([1000, 190, 1190]);
    expect(amountsOf(await update({ customerBillingAddress: { country: "US", state: "NY" }, customerTaxId: null }))).toEqual([1000, 0, 1000]);
    expect(amountsOf(await update({ customerBillingAddress: { country: "GB" } }))).toEqual([1000, 200, 1200]);
    // the discount: tax on what is left
    expect(amountsOf(await update({ discountCode: discount.code ?? "TENOFF" }))).toEqual([900, 180, 1080]);
    // Canada: the province from the state, else the postal code
    expect(amountsOf(await update({ discountCode: null, customerBillingAddress: { country: "CA", state: "QC" } }))).toEqual([1000, 150, 1150]);
    expect(amountsOf(await update({ customerBillingAddress: { country: "CA", postalCode: "M5V 3L9" } }))).toEqual([1000, 130, 1130]); // Ontario: HST 13%
    // another product: an e-book, France's reduced rate
    await update({ customerBillingAddress: { country: "FR" } });
    const book = await update({ productId: products[1] });
    expect(amountsOf(book)).toEqual([1000, 55, 1055]);
    const merchantView = await polar.checkouts.get({ id: checkout.id });
    expect(amountsOf(merchantView)).toEqual([1000, 55, 1055]);
  });

  it("carves the tax out of prices that include it: the total stays the listed price", async () => {
    const { polar, products, newest } = await taxedShop(Object.assign({}, FR_SELLER, { prices_include_tax: true }));
    const checkout = await polar.checkouts.create({ products, customerBillingAddress: { country: "FR" } });
    expect(amountsOf(checkout)).toEqual([833, 167, 1000]);
    expect(await behaviorOf(newest, checkout.id)).toBe("inclusive");
    const de = await anon().checkouts.clientUpdate({ clientSecret: checkout.clientSecret, checkoutUpdatePublic: { customerBillingAddress: { country: "DE" } } });
    expect(amountsOf(de)).toEqual([840, 160, 1000]);
  });

  it("computes nothing with the provider none, as before", async () => {
    const { polar, products, newest } = await taxedShop(null);
    const checkout = await polar.checkouts.create({ products, customerBillingAddress: { country: "FR" } });
    expect(amountsOf(checkout)).toEqual([1000, 0, 1000]);
    expect(await behaviorOf(newest, checkout.id)).toBe("inclusive");
    const us = await anon().checkouts.clientUpdate({ clientSecret: checkout.clientSecret, checkoutUpdatePublic: { customerBillingAddress: { country: "US" } } });
    expect(amountsOf(us)).toEqual([1000, 0, 1000]);
    expect(await behaviorOf(newest, checkout.id)).toBe("exclusive");
  });

  it("refuses to confirm while the tax can't be computed: a Canadian buyer without province or postal code", async () => {
    const { polar, products } = await taxedShop(FR_SELLER);
    const checkout = await polar.checkouts.create({ products, customerBillingAddress: { country: "CA" } });
    expect(amountsOf(checkout)).toEqual([1000, 0, 1000]);
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
