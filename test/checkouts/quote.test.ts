// The price shown is the price charged: a confirm charges the total of the
// checkout as the buyer last saw it, or nothing. Whatever moved under the buyer between their
// last view and their confirm (a discount used up, deleted or changed, a price archived, a
// product archived or made a draft) refuses the confirm with a 422 naming the field, charges nothing, redeems
// nothing, and leaves the checkout open showing the new totals.
import { beforeAll, describe, expect, it } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import { HTTPValidationError } from "@polar-sh/sdk/models/errors/httpvalidationerror.js";
import { createCheckoutProduct, createDiscount, orgWithToken, rejects, useTestApi } from "../harness/index.js";

const api = useTestApi();

describe("the price shown is the price charged", () => {
  let polar: Polar;
  let anon: Polar;
  let orgId: string;
  let token: string;

  const confirm = (secret: string, body: Record<string, unknown> = {}) =>
    anon.checkouts.clientConfirm({
      clientSecret: secret,
      checkoutConfirmStripe: {
        customerEmail: "buyer@example.com",
        customerBillingAddress: { country: "FR" },
        confirmationTokenId: "tok_sandbox_success",
        ...body,
      },
    });
  const view = (secret: string) => anon.checkouts.clientGet({ clientSecret: secret });
  const paymentsOf = async (checkoutId: string) =>
    (await api.knex("payments").where({ checkout_id: checkoutId })).map((p) => Number(p.amount));
  const refusedOn = async (p: Promise<unknown>) => (await rejects(p, HTTPValidationError)).detail?.map((d) => d.loc.join("."));

  beforeAll(async () => {
    const made = await orgWithToken(api.knex);
    orgId = made.org.id;
    token = made.token;
    polar = api.client(token);
    anon = new (polar.constructor as new (o: { serverURL: string }) => Polar)({ serverURL: api.url });
  });

  async function product1020() {
    return (
      await createCheckoutProduct(api.knex, orgId, {
        name: "Ten twenty",
        price: { amount_type: "fixed", price_amount: 1020, price_currency: "usd" },
      })
    ).product;
  }

  it("a discount used up between the buyer's update and confirm: 422 on discount_code, no charge, new totals shown", async () => {
    const product = await product1020();
    const code = `SEQ${Date.now()}`;
    const discount = await polar.discounts.create({
      name: "One off",
      type: "fixed",
      duration: "once",
      amount: 100,
      currency: "usd",
      code,
      maxRedemptions: 1,
    });
    const first = await polar.checkouts.create({ products: [product.id] });
    const second = await polar.checkouts.create({ products: [product.id] });
    for (const c of [first, second]) {
      const shown = await anon.checkouts.clientUpdate({ clientSecret: c.clientSecret, checkoutUpdatePublic: { discountCode: code } });
      expect(shown.totalAmount).toBe(920);
    }
    expect((await confirm(first.clientSecret)).totalAmount).toBe(920);
    expect(await paymentsOf(first.id)).toEqual([920]);

    expect(await refusedOn(confirm(second.clientSecret))).toEqual(["body.discount_code"]);
    expect(await paymentsOf(second.id)).toEqual([]);
    expect(await api.knex("orders").where({ checkout_id: second.id })).toHaveLength(0);
    expect((await api.knex("discounts").where({ id: discount.id }).first()).redemptions_count).toBe(1);
    // Open, with the totals it would now charge; a confirm after that view pays them.
    expect(await view(second.clientSecret)).toMatchObject({ status: "open", discountId: null, discountAmount: 0, totalAmount: 1020 });
    expect((await confirm(second.clientSecret)).totalAmount).toBe(1020);
    expect(await paymentsOf(second.id)).toEqual([1020]);
  });

  it("10 buyers racing for a single redemption: one pays 920, nine are refused, nobody pays 1020 unseen", async () => {
    const product = await product1020();
    const code = `RACE${Date.now()}`;
    await polar.discounts.create({
      name: "One off",
      type: "fixed",
      duration: "once",
      amount: 100,
      currency: "usd",
      code,
      maxRedemptions: 1,
    });
    const checkouts = await Promise.all(Array.from({ length: 10 }, () => polar.checkouts.create({ products: [product.id] })));
    for (const c of checkouts)
      await anon.checkouts.clientUpdate({ clientSecret: c.clientSecret, checkoutUpdatePublic: { discountCode: code } });
    const results = await Promise.allSettled(checkouts.map((c, i) => confirm(c.clientSecret, { customerEmail: `racer-${i}@example.com` })));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results) {
      if (r.status === "rejected") {
        expect(r.reason).toBeInstanceOf(HTTPValidationError);
        expect((r.reason as HTTPValidationError).detail?.[0]?.loc).toEqual(["body", "discount_code"]);
      }
    }
    const paid = await api.knex("payments").whereIn(
      "checkout_id",
      checkouts.map((c) => c.id),
    );
    expect(paid.map((p) => Number(p.amount))).toEqual([920]);
  });

  it("a discount deleted, or its amount changed, after the buyer saw it: 422 on discount_code", async () => {
    const product = await product1020();
    const gone = await createDiscount(api.knex, orgId, {
      code: `GONE${Date.now()}`,
      type: "fixed",
      amount: 100,
      currency: "usd",
      basis_points: null,
    });
    const a = await polar.checkouts.create({ products: [product.id] });
    await anon.checkouts.clientUpdate({ clientSecret: a.clientSecret, checkoutUpdatePublic: { discountCode: gone.code } });
    await polar.discounts.delete({ id: gone.id });
    expect(await refusedOn(confirm(a.clientSecret))).toEqual(["body.discount_code"]);
    expect(await view(a.clientSecret)).toMatchObject({ status: "open", totalAmount: 1020 });

    const changed = await createDiscount(api.knex, orgId, {
      code: `CHG${Date.now()}`,
      type: "fixed",
      amount: 100,
      currency: "usd",
      basis_points: null,
    });
    const b = await polar.checkouts.create({ products: [product.id] });
    await anon.checkouts.clientUpdate({ clientSecret: b.clientSecret, checkoutUpdatePublic: { discountCode: changed.code } });
    await polar.discounts.update({ id: changed.id, discountUpdate: { type: "fixed", amount: 200, currency: "usd" } });
    expect(await refusedOn(confirm(b.clientSecret))).toEqual(["body.discount_code"]);
    expect(await paymentsOf(b.id)).toEqual([]);
    expect(await view(b.clientSecret)).toMatchObject({ status: "open", discountAmount: 200, totalAmount: 820 });
    expect((await confirm(b.clientSecret)).totalAmount).toBe(820);
    expect(await paymentsOf(b.id)).toEqual([820]);
  });

  it("a price replaced after the buyer saw it: 422 on product_price_id, the new price shown, then paid", async () => {
    const product = await polar.products.create({
      name: "Repriced",
      recurringInterval: null,
      prices: [{ amountType: "fixed", priceAmount: 1500, priceCurrency: "usd" }],
    });
    const checkout = await polar.checkouts.create({ products: [product.id] });
    expect((await view(checkout.clientSecret)).totalAmount).toBe(1500);
    const updated = await polar.products.update({
      id: product.id,
      productUpdate: { prices: [{ amountType: "fixed", priceAmount: 1800, priceCurrency: "usd" }] },
    });
    expect(await refusedOn(confirm(checkout.clientSecret))).toEqual(["body.product_price_id"]);
    expect(await paymentsOf(checkout.id)).toEqual([]);
    const now = await view(checkout.clientSecret);
    expect(now).toMatchObject({ status: "open", productPriceId: updated.prices[0].id, totalAmount: 1800 });
    expect((await confirm(checkout.clientSecret)).totalAmount).toBe(1800);
  });

  it("a product archived after the buyer saw it: 422 on product_id, another product of the checkout offered", async () => {
    const archived = await product1020();
    const other = (
      await createCheckoutProduct(api.knex, orgId, {
        name: "Other",
        price: { amount_type: "fixed", price_amount: 700, price_currency: "usd" },
      })
    ).product;
    const checkout = await polar.checkouts.create({ products: [archived.id, other.id] });
    expect((await view(checkout.clientSecret)).totalAmount).toBe(1020);
    await polar.products.update({ id: archived.id, productUpdate: { isArchived: true } });
    expect(await refusedOn(confirm(checkout.clientSecret))).toEqual(["body.product_id"]);
    expect(await view(checkout.clientSecret)).toMatchObject({ status: "open", productId: other.id, totalAmount: 700 });

    // With no product left to sell, the checkout can't be paid at all.
    const lone = await product1020();
    const stranded = await polar.checkouts.create({ products: [lone.id] });
    await polar.products.update({ id: lone.id, productUpdate: { isArchived: true } });
    expect(await refusedOn(confirm(stranded.clientSecret))).toEqual(["body.product_id"]);
    expect(await paymentsOf(stranded.id)).toEqual([]);
  });

  it("a product made a draft after the buyer saw it: 422 on product_id, another product of the checkout offered", async () => {
    const drafted = await product1020();
    const other = (
      await createCheckoutProduct(api.knex, orgId, {
        name: "Other public",
        price: { amount_type: "fixed", price_amount: 800, price_currency: "usd" },
      })
    ).product;
    const checkout = await polar.checkouts.create({ products: [drafted.id, other.id] });
    expect((await view(checkout.clientSecret)).totalAmount).toBe(1020);
    await api.client049(token).products.update({ id: drafted.id, productUpdate: { visibility: "draft" } });
    expect(await refusedOn(confirm(checkout.clientSecret))).toEqual(["body.product_id"]);
    expect(await view(checkout.clientSecret)).toMatchObject({ status: "open", productId: other.id, totalAmount: 800 });
    expect(await paymentsOf(checkout.id)).toEqual([]);
  });

  it("a pay-what-you-want amount first sent with the confirm: 422 on amount, then paid as shown", async () => {
    const { product } = await createCheckoutProduct(api.knex, orgId, {
      name: "Tip jar",
      price: { amount_type: "custom", price_currency: "usd", minimum_amount: 500, maximum_amount: 5000, preset_amount: 1000 },
    });
    const checkout = await polar.checkouts.create({ products: [product.id] });
    expect((await view(checkout.clientSecret)).totalAmount).toBe(1000);
    expect(await refusedOn(confirm(checkout.clientSecret, { amount: 2500 }))).toEqual(["body.amount"]);
    expect(await paymentsOf(checkout.id)).toEqual([]);
    expect((await view(checkout.clientSecret)).totalAmount).toBe(2500);
    expect((await confirm(checkout.clientSecret, { amount: 2500 })).totalAmount).toBe(2500);
    expect(await paymentsOf(checkout.id)).toEqual([2500]);
  });
});
