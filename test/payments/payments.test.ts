// Payments through the official client: card payments with brand and last4, every filter
// (checkout, order, status, method, customer email, 0.49.0's customer) and sort key, paging,
// tenant isolation.
import type { PaymentSortProperty } from "@polar-sh/sdk/models/components/paymentsortproperty.js";
import { beforeAll, describe, expect, it } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import type { Payment } from "@polar-sh/sdk/models/components/payment.js";
import { ResourceNotFound } from "@polar-sh/sdk/models/errors/resourcenotfound.js";
import {
  collectPages,
  createCheckoutProduct,
  createCustomer,
  createOrder,
  createPayment,
  createProductWithPrice,
  orgWithToken,
  useTestApi,
} from "../harness/index.js";

const api = useTestApi();

async function collect(polar: Polar, req: Parameters<Polar["payments"]["list"]>[0]): Promise<Payment[]> {
  return collectPages(await polar.payments.list(req));
}

describe("payments", () => {
  let polar: Polar;
  let orgId: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    const { org, token } = await orgWithToken(api.knex);
    orgId = org.id;
    polar = api.client(token);
    const k = api.knex;
    const alice = await createCustomer(k, orgId, { email: "Alice@Example.com" });
    const bob = await createCustomer(k, orgId, { email: "bob@example.com" });
    const { product } = await createProductWithPrice(k, orgId);
    const oa = await createOrder(k, orgId, { customerId: alice.id, productId: product.id });
    const ob = await createOrder(k, orgId, { customerId: bob.id, productId: product.id }, { status: "pending" });
    ids.orderA = oa.id;
    ids.orderB = ob.id;
    ids.checkout = "00000000-0000-4000-8000-00000000000c";
    const t0 = Date.now() - 60_000;
    ids.p1 = (await createPayment(k, orgId, { order_id: oa.id, amount: 2500, created_at: new Date(t0) })).id;
    ids.p2 = (
      await createPayment(k, orgId, {
        order_id: ob.id,
        amount: 900,
        status: "failed",
        decline_reason: "card_declined",
        decline_message: "Your card was declined.",
        method_metadata: { brand: "mastercard", last4: "4444" },
        created_at: new Date(t0 + 1000),
        checkout_id: ids.checkout,
      })
    ).id;
    ids.p3 = (
      await createPayment(k, orgId, {
        order_id: ob.id,
        amount: 1500,
        status: "pending",
        method: "sepa_debit",
        method_metadata: null,
        created_at: new Date(t0 + 2000),
      })
    ).id;
    const other = await orgWithToken(k);
    ids.foreign = (await createPayment(k, other.org.id)).id;
  });

  it("gets a card payment with its brand and last4, and a generic one", async () => {
    const p = await polar.payments.get({ id: ids.p2 });
    expect(p).toMatchObject({
      id: ids.p2,
      processor: "stripe",
      status: "failed",
      amount: 900,
      currency: "usd",
      method: "card",
      declineReason: "card_declined",
      declineMessage: "Your card was declined.",
      organizationId: orgId,
      orderId: ids.orderB,
      checkoutId: ids.checkout,
    });
    expect((p as { methodMetadata: unknown }).methodMetadata).toEqual({ brand: "mastercard", last4: "4444" });
    const g = await polar.payments.get({ id: ids.p3 });
    expect(g.method).toBe("sepa_debit");
    expect("methodMetadata" in g).toBe(false);
  });

  it("says why a checkout's payment was made, to 0.49.0; one recorded before triggers were is null", async () => {
    const { token } = await orgWithToken(api.knex);
    const polar = api.client(token);
    const product = await polar.products.create({
      name: "Ebook",
      recurringInterval: null,
      prices: [{ amountType: "fixed", priceAmount: 1200, priceCurrency: "usd" }],
    });
    const checkout = await polar.checkouts.create({ products: [product.id], customerEmail: "reader@example.com" });
    await polar.checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: { customerBillingAddress: { country: "FR" }, confirmationTokenId: "tok_sandbox_success" },
    });
    const newer = api.client049(token);
    const [paid] = (await newer.payments.list({ checkoutId: checkout.id })).result.items;
    expect(paid).toMatchObject({ status: "succeeded", amount: 1200, trigger: "purchase" });
    expect(await polar.payments.get({ id: paid.id })).toMatchObject({ id: paid.id, status: "succeeded" });
    expect((await api.client049(token).payments.get({ id: paid.id })).trigger).toBe("purchase");
    const { org } = await orgWithToken(api.knex);
    const old = await createPayment(api.knex, org.id);
    expect((await api.knex("payments").where({ id: old.id }).first()).trigger).toBeNull();
  });

  it("answers 404 for a foreign or unknown payment", async () => {
    for (const id of [ids.foreign, "00000000-0000-4000-8000-000000000000", "x"]) {
      await expect(polar.payments.get({ id })).rejects.toBeInstanceOf(ResourceNotFound);
    }
  });

  it("lists with every filter", async () => {
    const of = async (req: Parameters<Polar["payments"]["list"]>[0]) => (await collect(polar, req)).map((p) => p.id).sort();
    const s = (...xs: string[]) => xs.sort();
    expect(await of({})).toEqual(s(ids.p1, ids.p2, ids.p3));
    expect(await of({ organizationId: orgId })).toHaveLength(3);
    expect(await of({ checkoutId: ids.checkout })).toEqual([ids.p2]);
    expect(await of({ orderId: ids.orderB })).toEqual(s(ids.p2, ids.p3));
    expect(await of({ orderId: [ids.orderA, ids.orderB] })).toHaveLength(3);
    expect(await of({ status: "succeeded" })).toEqual([ids.p1]);
    expect(await of({ status: ["failed", "pending"] })).toEqual(s(ids.p2, ids.p3));
    expect(await of({ method: "card" })).toEqual(s(ids.p1, ids.p2));
    expect(await of({ method: "sepa_debit" })).toEqual([ids.p3]);
    expect(await of({ customerEmail: "alice@example.com" })).toEqual([ids.p1]);
    expect(await of({ customerEmail: "bob@example.com" })).toEqual(s(ids.p2, ids.p3));
    expect(await of({ customerEmail: "nobody@example.com" })).toEqual([]);
  });

  it("takes 0.49.0's customer filter: the order's customer, or the checkout's for a payment without an order", async () => {
    const k = api.knex;
    const { org, token } = await orgWithToken(k);
    const [alice, bob] = [await createCustomer(k, org.id), await createCustomer(k, org.id)];
    const { product } = await createCheckoutProduct(k, org.id);
    const paid = await createPayment(k, org.id, {
      order_id: (await createOrder(k, org.id, { customerId: alice.id, productId: product.id })).id,
    });
    // A declined checkout of Bob's: its payment has no order.
    const declined = await api.client(token).checkouts.create({ products: [product.id], customerId: bob.id });
    const failed = await createPayment(k, org.id, {
      checkout_id: declined.id,
      status: "failed",
      decline_reason: "card_declined",
      decline_message: "Declined.",
    });
    // Paid in Bob's checkout, for Alice's order: the order's customer is the payment's.
    const settled = await createPayment(k, org.id, {
      checkout_id: declined.id,
      order_id: (await createOrder(k, org.id, { customerId: alice.id, productId: product.id })).id,
    });
    const newer = api.client049(token);
    const of = async (customerId: string | string[]) => (await newer.payments.list({ customerId })).result.items.map((p) => p.id).sort();
    expect(await of(alice.id)).toEqual([paid.id, settled.id].sort());
    expect(await of(bob.id)).toEqual([failed.id]);
    expect(await of([alice.id, bob.id])).toEqual([paid.id, failed.id, settled.id].sort());
    expect(await of("00000000-0000-4000-8000-000000000000")).toEqual([]);
  });

  it("sorts by every key, both ways", async () => {
    const order = async (key: PaymentSortProperty) => (await collect(polar, { sorting: [key] })).map((p) => p.id);
    const { p1, p2, p3 } = ids;
    expect(await order("created_at")).toEqual([p1, p2, p3]);
    expect(await order("-created_at")).toEqual([p3, p2, p1]);
    expect(await order("amount")).toEqual([p2, p3, p1]);
    expect(await order("-amount")).toEqual([p1, p3, p2]);
    expect(await order("status")).toEqual([p2, p3, p1]); // failed < pending < succeeded
    expect(await order("-status")).toEqual([p1, p3, p2]);
    expect((await order("method"))[2]).toBe(p3); // card < sepa_debit
    expect((await order("-method"))[0]).toBe(p3);
  });

  it("pages", async () => {
    const page = await polar.payments.list({ limit: 2 });
    expect(page.result.items).toHaveLength(2);
    expect(page.result.pagination).toEqual({ totalCount: 3, maxPage: 2 });
    expect(await collect(polar, { limit: 1 })).toHaveLength(3);
  });
});
