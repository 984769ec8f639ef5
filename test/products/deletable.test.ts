// A product's `is_deletable` (the 1.x client's Product): true until something refers to it, an
// order, a subscription (a trial is one) or a discount restricted to it; on the product's own reads,
// its list, and the product inside a subscription.
import { describe, expect, it } from "vitest";
import { createPolar } from "polar-sdk-1/2026-04";
import {
  createCustomer,
  createDiscount,
  createOrder,
  createProductWithPrice,
  createSubscriptionFixture,
  orgWithToken,
  useTestApi,
} from "../harness/index.js";

const api = useTestApi();

describe("a product's is_deletable", () => {
  it("is true until an order, a subscription or a discount refers to the product", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const polar = createPolar({ accessToken: token, baseUrl: api.url });
    const customer = await createCustomer(api.knex, org.id);
    const [ordered, discounted, untouched] = [
      await createProductWithPrice(api.knex, org.id, { name: "Ordered" }),
      await createProductWithPrice(api.knex, org.id, { name: "Discounted" }),
      await createProductWithPrice(api.knex, org.id, { name: "Untouched" }),
    ];
    const created = await polar.products.create({
      name: "New",
      prices: [{ amount_type: "fixed", price_amount: 100, price_currency: "usd" }],
    });
    expect(created.is_deletable).toBe(true);

    await createOrder(api.knex, org.id, { customerId: customer.id, productId: ordered.product.id, productPriceId: ordered.price.id });
    const discount = await createDiscount(api.knex, org.id);
    await api.knex("discount_products").insert({ discount_id: discount.id, product_id: discounted.product.id });
    for (const [product, deletable] of [
      [ordered, false],
      [discounted, false],
      [untouched, true],
    ] as const) {
      expect((await polar.products.get(product.product.id)).is_deletable, product.product.name).toBe(deletable);
    }
    const listed = await polar.products.list({ limit: 100 });
    expect(Object.fromEntries(listed.items.map((p) => [p.name, p.is_deletable]))).toEqual({
      Ordered: false,
      Discounted: false,
      Untouched: true,
      New: true,
    });

    const sub = await createSubscriptionFixture(api.knex, { startedAt: new Date(), organizationId: org.id });
    expect((await polar.products.get(sub.productId)).is_deletable).toBe(false);
    expect((await polar.subscriptions.get(sub.subscription.id)).product.is_deletable).toBe(false);
  });
});
