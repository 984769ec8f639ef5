// subscriptions:create through the 0.49.0 client: a merchant subscribes a customer (by id or
// external id) to a free recurring product without a checkout; no order, its benefits granted,
// subscription.created/active/updated; paid, one-time and unknown products and customers refused.
import { HTTPValidationError } from "polar-sdk-049/models/errors/httpvalidationerror.js";
import { SDKError } from "polar-sdk-049/models/errors/sdkerror.js";
import type { Polar } from "polar-sdk-049";
import { beforeAll, describe, expect, it } from "vitest";
import { createBenefit, createCustomer, orgWithToken, outboxTypes, rejects, useLifecycleWorker, useTestApi } from "../harness/index.js";

const api = useTestApi();
const poll = { timeout: 20_000, interval: 100 };

describe("subscriptions:create", () => {
  useLifecycleWorker("subscriptions-create", () => api.knex);
  let polar: Polar;
  let orgId: string;
  let free: string;
  let paid: string;
  let oneTime: string;

  beforeAll(async () => {
    const made = await orgWithToken(api.knex);
    orgId = made.org.id;
    polar = api.client049(made.token);
    const benefit = await createBenefit(api.knex, orgId, {
      type: "custom",
      description: "Community",
      properties: JSON.stringify({ note: "Hi" }),
    });
    free = (
      await polar.products.create({ name: "Free plan", recurringInterval: "month", prices: [{ amountType: "fixed", priceAmount: 0 }] })
    ).id;
    await polar.products.updateBenefits({ id: free, productBenefitsUpdate: { benefits: [benefit.id] } });
    paid = (
      await polar.products.create({
        name: "Pro plan",
        recurringInterval: "month",
        prices: [{ amountType: "fixed", priceAmount: 900, priceCurrency: "usd" }],
      })
    ).id;
    oneTime = (await polar.products.create({ name: "Free guide", prices: [{ amountType: "fixed", priceAmount: 0 }] })).id;
  });

  it("subscribes a customer to a free product: active, no order, benefits granted, three webhooks", async () => {
    const customer = await createCustomer(api.knex, orgId);
    const sub = await polar.subscriptions.create({ productId: free, customerId: customer.id, metadata: { seat: "comped" } });
    expect(sub).toMatchObject({ status: "active", amount: 0, currency: "usd", productId: free, customerId: customer.id });
    expect(sub.metadata).toEqual({ seat: "comped" });
    expect(sub.checkoutId).toBeNull();
    expect(sub.currentPeriodEnd!.getTime()).toBeGreaterThan(sub.currentPeriodStart.getTime());
    expect((await polar.subscriptions.get({ id: sub.id })).id).toBe(sub.id);
    expect((await polar.orders.list({ customerId: customer.id })).result.items).toHaveLength(0);
    const types = await outboxTypes(api.knex, orgId);
    expect(types).toContain("customer.state_changed");
    expect(types.filter((t) => t.startsWith("subscription."))).toEqual([
      "subscription.created",
      "subscription.active",
      "subscription.updated",
    ]);
    await expect
      .poll(async () => (await api.knex("benefit_grants").where({ subscription_id: sub.id }).whereNotNull("granted_at")).length, poll)
      .toBe(1);
  });

  it("finds the customer by external id", async () => {
    const customer = await createCustomer(api.knex, orgId, { external_id: `ext-${Date.now()}` });
    const sub = await polar.subscriptions.create({ productId: free, externalCustomerId: customer.external_id! });
    expect(sub.customerId).toBe(customer.id);
  });

  it("refuses paid, one-time and unknown products, and customers of other organizations", async () => {
    const customer = await createCustomer(api.knex, orgId);
    const other = await orgWithToken(api.knex);
    const stranger = await createCustomer(api.knex, other.org.id);
    const otherFree = (
      await api
        .client049(other.token)
        .products.create({ name: "Theirs", recurringInterval: "month", prices: [{ amountType: "fixed", priceAmount: 0 }] })
    ).id;
    const cases: [Parameters<Polar["subscriptions"]["create"]>[0], string, string][] = [
      [{ productId: paid, customerId: customer.id }, "product_id", "Product is not free."],
      [{ productId: oneTime, customerId: customer.id }, "product_id", "Product is not a recurring product."],
      [{ productId: otherFree, customerId: customer.id }, "product_id", "Product does not exist."],
      [{ productId: free, customerId: stranger.id }, "customer_id", "Customer does not exist."],
      [{ productId: free, externalCustomerId: "nobody" }, "external_customer_id", "Customer does not exist."],
    ];
    for (const [body, field, msg] of cases) {
      const err = await rejects(polar.subscriptions.create(body), HTTPValidationError);
      expect(err.data$.detail?.[0]).toMatchObject({ loc: ["body", field], type: "value_error" });
      expect(err.data$.detail?.[0].msg).toContain(msg);
    }
    const before = await api.knex("subscriptions").where({ customer_id: customer.id }).count<{ count: string }[]>("* as count");
    expect(Number(before[0].count)).toBe(0);
    const bad = await rejects(polar.subscriptions.create({ productId: "not-a-uuid", customerId: customer.id }), HTTPValidationError);
    expect(bad.data$.detail?.[0].loc).toEqual(["body", "product_id"]);
  });

  it("needs subscriptions:write", async () => {
    const reader = await orgWithToken(api.knex, { scopes: ["subscriptions:read"] });
    const customer = await createCustomer(api.knex, reader.org.id);
    const err = await rejects(api.client049(reader.token).subscriptions.create({ productId: free, customerId: customer.id }), SDKError);
    expect(err.statusCode).toBe(403);
  });
});
