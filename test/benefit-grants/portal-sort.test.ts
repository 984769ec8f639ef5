// The portal's benefit grants sorted by `product_benefit` (the 1.x client's default sort, with
// `-granted_at`): a grant's place is its benefit's position in the product of the order or the
// subscription that granted it.
import { describe, expect, it } from "vitest";
import {
  createBenefit,
  createBenefitGrant,
  createCustomer,
  createCustomerSessionToken,
  createOrder,
  createProductWithPrice,
  createSubscriptionFixture,
  orgWithToken,
  useTestApi,
} from "../harness/index.js";

const api = useTestApi();

describe("portal benefit grants by product_benefit", () => {
  it("orders a customer's grants by their benefits' positions in the products that granted them", async () => {
    const k = api.knex;
    const { org } = await orgWithToken(k);
    const customer = await createCustomer(k, org.id);
    const [first, second, third] = [
      await createBenefit(k, org.id, { description: "First" }),
      await createBenefit(k, org.id, { description: "Second" }),
      await createBenefit(k, org.id, { description: "Third" }),
    ];
    // A one-time product granting Second (position 1) then First (position 0) — inserted out of order.
    const { product } = await createProductWithPrice(k, org.id);
    await k("product_benefits").insert([
      { product_id: product.id, benefit_id: second.id, order: 1 },
      { product_id: product.id, benefit_id: first.id, order: 0 },
    ]);
    const order = await createOrder(k, org.id, { customerId: customer.id, productId: product.id });
    // A subscription's product granting Third at position 2.
    const sub = await createSubscriptionFixture(k, {
      startedAt: new Date(),
      organizationId: org.id,
      overrides: { customer_id: customer.id },
    });
    await k("product_benefits").insert({ product_id: sub.productId, benefit_id: third.id, order: 2 });
    const granted = new Date("2026-01-01T00:00:00Z");
    await createBenefitGrant(k, third.id, customer.id, { subscription_id: sub.subscription.id, granted_at: granted });
    await createBenefitGrant(k, second.id, customer.id, { order_id: order.id, granted_at: new Date(granted.getTime() + 1000) });
    await createBenefitGrant(k, first.id, customer.id, { order_id: order.id, granted_at: new Date(granted.getTime() + 2000) });
    const session = await createCustomerSessionToken(k, customer.id);
    const list = async (sorting: string[]) => {
      const res = await fetch(`${api.url}/v1/customer-portal/benefit-grants/?${sorting.map((s) => `sorting=${s}`).join("&")}`, {
        headers: { authorization: `Bearer ${session}` },
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { items: { benefit_id: string }[] };
      return body.items.map((g) => g.benefit_id);
    };
    expect(await list(["product_benefit", "-granted_at"])).toEqual([first.id, second.id, third.id]);
    expect(await list(["-product_benefit"])).toEqual([third.id, second.id, first.id]);
    expect(await list(["granted_at"])).toEqual([third.id, second.id, first.id]);
  });
});
