// Checkout links through the official client: the three create shapes and their defaults,
// get / list (filters, sorting, paging) / update / delete, and the url that opens a checkout.
import { describe, expect, it, beforeAll } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import { HTTPValidationError } from "@polar-sh/sdk/models/errors/httpvalidationerror.js";
import { ResourceNotFound } from "@polar-sh/sdk/models/errors/resourcenotfound.js";
import { Polar as Polar049 } from "polar-sdk-049";
import { HTTPValidationError as HTTPValidationError049 } from "polar-sdk-049/models/errors/httpvalidationerror.js";
import { collectPages, createCheckoutProduct, createDiscount, orgWithToken, rejects, useTestApi } from "../harness/index.js";

const api = useTestApi();

describe("checkout links", () => {
  let polar: Polar;
  let orgId: string;
  let token: string;
  let productA: { id: string };
  let productB: { id: string };
  let priceB: { id: string };

  beforeAll(async () => {
    const made = await orgWithToken(api.knex);
    orgId = made.org.id;
    token = made.token;
    polar = api.client(token);
    const org = made.org;
    productA = (await createCheckoutProduct(api.knex, org.id, { name: "Alpha" })).product;
    const b = await createCheckoutProduct(api.knex, org.id, {
      name: "Beta",
      price: { amount_type: "custom", price_currency: "usd", minimum_amount: 500 },
    });
    productB = b.product;
    priceB = b.price;
  });

  it("creates from a products list with the documented defaults", async () => {
    const link = await polar.checkoutLinks.create({ paymentProcessor: "stripe", products: [productA.id, productB.id], label: "Main" });
    expect(link.allowDiscountCodes).toBe(true);
    expect(link.requireBillingAddress).toBe(false);
    expect(link.products.map((p) => p.id)).toEqual([productA.id, productB.id]);
    expect(link.url).toContain(`/v1/checkout-links/${link.clientSecret}/redirect`);
    expect(link.discount).toBeNull();
    expect(await polar.checkoutLinks.get({ id: link.id })).toEqual(link);
  });

  it("creates from a product id and from a price id, with a discount", async () => {
    const discount = await createDiscount(api.knex, orgId, { code: null });
    const byProduct = await polar.checkoutLinks.create({ paymentProcessor: "stripe", productId: productA.id, discountId: discount.id });
    expect(byProduct.products.map((p) => p.id)).toEqual([productA.id]);
    expect(byProduct.discount?.id).toBe(discount.id);
    const byPrice = await polar.checkoutLinks.create({
      paymentProcessor: "stripe",
      productPriceId: priceB.id,
      successUrl: "https://shop.example/thanks?c={CHECKOUT_ID}",
    });
    expect(byPrice.products.map((p) => p.id)).toEqual([productB.id]);
  });

  it("rejects unknown products, prices and discounts", async () => {
    await rejects(
      polar.checkoutLinks.create({ paymentProcessor: "stripe", products: ["00000000-0000-0000-0000-000000000000"] }),
      HTTPValidationError,
    );
    await rejects(
      polar.checkoutLinks.create({ paymentProcessor: "stripe", productPriceId: "00000000-0000-0000-0000-000000000000" }),
      HTTPValidationError,
    );
    await rejects(
      polar.checkoutLinks.create({
        paymentProcessor: "stripe",
        productId: productA.id,
        discountId: "00000000-0000-0000-0000-000000000000",
      }),
      HTTPValidationError,
    );
    await rejects(polar.checkoutLinks.create({ paymentProcessor: "stripe", products: [] }), HTTPValidationError);
  });

  it("answers 422 to a body with two (or none) of product_id / product_price_id / products, creating nothing", async () => {
    // The official client's types allow only one shape; a body written by hand can carry several.
    const post = async (body: Record<string, unknown>) => {
      const res = await fetch(`${api.url}/v1/checkout-links/`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ payment_processor: "stripe", ...body }),
      });
      return { status: res.status, body: (await res.json()) as { detail: { loc: unknown[]; msg: string; type: string }[] } };
    };
    const before = await api.knex("checkout_links").where({ organization_id: orgId }).count<{ count: string }[]>("* as count");
    for (const body of [
      { product_id: productA.id, product_price_id: priceB.id },
      { product_id: productA.id, products: [productB.id] },
      { product_price_id: priceB.id, products: [productA.id] },
      { product_id: productA.id, product_price_id: priceB.id, products: [productA.id] },
      {},
    ]) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.detail.length).toBeGreaterThan(0);
    }
    const after = await api.knex("checkout_links").where({ organization_id: orgId }).count<{ count: string }[]>("* as count");
    expect(after).toEqual(before);
    // One of them alone is fine.
    expect((await post({ product_id: productA.id })).status).toBe(201);
  });

  it("lists with filters and sorting, updates and deletes", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const client = api.client(token);
    const p1 = (await createCheckoutProduct(api.knex, org.id)).product;
    const p2 = (await createCheckoutProduct(api.knex, org.id)).product;
    const l1 = await client.checkoutLinks.create({ paymentProcessor: "stripe", products: [p1.id], label: "b" });
    const l2 = await client.checkoutLinks.create({ paymentProcessor: "stripe", products: [p2.id], label: "a", allowDiscountCodes: false });
    const l3 = await client.checkoutLinks.create({ paymentProcessor: "stripe", products: [p1.id, p2.id], label: "c" });
    const all = await collectPages(await client.checkoutLinks.list({ limit: 2 }));
    expect(all.map((l) => l.id)).toEqual([l1.id, l2.id, l3.id]);
    const byProduct = await client.checkoutLinks.list({ productId: p2.id, sorting: ["label"] });
    expect(byProduct.result.items.map((l) => l.id)).toEqual([l2.id, l3.id]);
    const byFlag = await client.checkoutLinks.list({ sorting: ["-allow_discount_codes", "-label"] });
    expect(byFlag.result.items.map((l) => l.id)).toEqual([l3.id, l1.id, l2.id]);

    const updated = await client.checkoutLinks.update({
      id: l1.id,
      checkoutLinkUpdate: { label: "renamed", products: [p2.id], requireBillingAddress: true, metadata: { k: "v" } },
    });
    expect(updated).toMatchObject({ label: "renamed", requireBillingAddress: true, metadata: { k: "v" } });
    expect(updated.products.map((p) => p.id)).toEqual([p2.id]);

    await client.checkoutLinks.delete({ id: l1.id });
    await rejects(client.checkoutLinks.get({ id: l1.id }), ResourceNotFound);
    await rejects(polar.checkoutLinks.get({ id: l2.id }), ResourceNotFound);
    expect((await client.checkoutLinks.list({})).result.pagination.totalCount).toBe(2);
  });

  it("opens a fresh checkout on each visit of its url", async () => {
    const link = await polar.checkoutLinks.create({ paymentProcessor: "stripe", productPriceId: priceB.id, requireBillingAddress: true });
    const open = async () => {
      const res = await fetch(`${api.url}/v1/checkout-links/${link.clientSecret}/redirect`, { redirect: "manual" });
      expect(res.status).toBe(302);
      return res.headers.get("location")!;
    };
    const first = await open();
    const second = await open();
    expect(first).not.toBe(second);
    const secret = first.split("/checkout/")[1];
    const checkout = await polar.checkouts.clientGet({ clientSecret: secret });
    expect(checkout.productPriceId).toBe(priceB.id);
    expect(checkout.requireBillingAddress).toBe(true);
    expect(checkout.amount).toBe(500);
    const missing = await fetch(`${api.url}/v1/checkout-links/nope/redirect`, { redirect: "manual" });
    expect(missing.status).toBe(404);
  });

  it("carries a trial and a return URL (0.49.0) into the checkouts it opens", async () => {
    const c49 = api.client049(token);
    const plan = await c49.products.create({
      name: "Link plan",
      recurringInterval: "month",
      trialInterval: "day",
      trialIntervalCount: 30,
      prices: [{ amountType: "fixed", priceAmount: 1200, priceCurrency: "usd" }],
    });
    const link = await c49.checkoutLinks.create({
      paymentProcessor: "stripe",
      productId: plan.id,
      trialInterval: "week",
      trialIntervalCount: 2,
      returnUrl: "https://shop.example/plans",
    });
    expect(link).toMatchObject({ trialInterval: "week", trialIntervalCount: 2, returnUrl: "https://shop.example/plans", seats: null });
    expect(await c49.checkoutLinks.get({ id: link.id })).toEqual(link);
    const res = await fetch(`${api.url}/v1/checkout-links/${link.clientSecret}/redirect`, { redirect: "manual" });
    const secret = res.headers.get("location")!.split("/checkout/")[1];
    const checkout = await new Polar049({ serverURL: api.url }).checkouts.clientGet({ clientSecret: secret });
    expect(checkout).toMatchObject({
      activeTrialInterval: "week",
      activeTrialIntervalCount: 2,
      returnUrl: "https://shop.example/plans",
      isPaymentRequired: false,
    });
    // Cleared, the product's own trial applies again; half a trial is refused.
    const cleared = await c49.checkoutLinks.update({ id: link.id, checkoutLinkUpdate: { trialInterval: null, trialIntervalCount: null } });
    expect(cleared).toMatchObject({ trialInterval: null, trialIntervalCount: null, returnUrl: "https://shop.example/plans" });
    const again = await fetch(`${api.url}/v1/checkout-links/${link.clientSecret}/redirect`, { redirect: "manual" });
    const next = await new Polar049({ serverURL: api.url }).checkouts.clientGet({
      clientSecret: again.headers.get("location")!.split("/checkout/")[1],
    });
    expect(next).toMatchObject({ activeTrialInterval: "day", activeTrialIntervalCount: 30 });
    const err = await rejects(
      c49.checkoutLinks.update({ id: link.id, checkoutLinkUpdate: { trialIntervalCount: 3 } }),
      HTTPValidationError049,
    );
    expect(err.detail?.map((d) => d.loc)).toEqual([["body", "trial_interval"]]);
  });

  it("refuses drafts, and opens no checkout for a product made a draft since", async () => {
    const c49 = api.client049(token);
    const draft = await c49.products.create({
      name: "Draft plan",
      visibility: "draft",
      prices: [{ amountType: "fixed", priceAmount: 500, priceCurrency: "usd" }],
    });
    const err = await rejects(c49.checkoutLinks.create({ paymentProcessor: "stripe", productId: draft.id }), HTTPValidationError049);
    expect(err.detail?.map((d) => d.loc)).toEqual([["body", "product_id", 0]]);
    const priced = await rejects(
      c49.checkoutLinks.create({ paymentProcessor: "stripe", productPriceId: draft.prices[0].id }),
      HTTPValidationError049,
    );
    expect(priced.detail?.map((d) => d.loc)).toEqual([["body", "product_price_id"]]);
    const later = await c49.products.create({
      name: "Private plan",
      visibility: "private",
      prices: [{ amountType: "fixed", priceAmount: 500, priceCurrency: "usd" }],
    });
    const link = await c49.checkoutLinks.create({ paymentProcessor: "stripe", productId: later.id });
    const open = () => fetch(`${api.url}/v1/checkout-links/${link.clientSecret}/redirect`, { redirect: "manual" });
    expect((await open()).status).toBe(302);
    await c49.products.update({ id: later.id, productUpdate: { visibility: "draft" } });
    expect((await open()).status).toBe(404);
  });
});
