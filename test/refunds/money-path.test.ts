// The money path end to end through the official client on the sandbox processor: a confirmed
// checkout, the merchant's order and payment, a partial then a full refund, and the buyer's
// refunded order in the portal with the confirm's session token. And as a buyer meets it: from a
// checkout link's url through the public client-secret calls to a paid, then refunded, order.
import { beforeAll, describe, expect, it } from "vitest";
import { Polar } from "@polar-sh/sdk";
import { RefundedAlready } from "@polar-sh/sdk/models/errors/refundedalready.js";
import { createCheckoutProduct, orgWithToken, outboxTypes, useTestApi } from "../harness/index.js";

const api = useTestApi();

describe("money path: checkout → paid order → refunds", () => {
  let polar: Polar;
  let anon: Polar;
  let orgId: string;
  let productId: string;

  beforeAll(async () => {
    const { org, token } = await orgWithToken(api.knex);
    orgId = org.id;
    polar = api.client(token);
    anon = new Polar({ serverURL: api.url });
    productId = (await createCheckoutProduct(api.knex, org.id, { name: "Course" })).product.id;
  });

  it("pays, refunds partially then fully, and the portal follows", async () => {
    const checkout = await polar.checkouts.create({ products: [productId] });
    const confirmed = await anon.checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: {
        customerEmail: "learner@example.com",
        customerName: "Lea",
        customerBillingAddress: { country: "FR" },
        confirmationTokenId: "tok_sandbox_success",
      },
    });
    const [order] = (await polar.orders.list({ checkoutId: checkout.id })).result.items;
    expect(order).toMatchObject({ status: "paid", paid: true, checkoutId: checkout.id, billingReason: "purchase", billingName: "Lea" });
    expect(order.items).toHaveLength(1);
    const [payment] = (await polar.payments.list({ orderId: order.id })).result.items;
    expect(payment).toMatchObject({ status: "succeeded", amount: order.totalAmount, method: "card" });
    expect((await polar.payments.list({ customerEmail: "learner@example.com" })).result.items.map((p) => p.id)).toEqual([payment.id]);

    const part = Math.floor(order.netAmount / 3);
    await polar.refunds.create({ orderId: order.id, reason: "customer_request", amount: part });
    expect(await polar.orders.get({ id: order.id })).toMatchObject({ status: "partially_refunded", refundedAmount: part });
    await polar.refunds.create({ orderId: order.id, reason: "customer_request", amount: order.netAmount - part });
    expect(await polar.orders.get({ id: order.id })).toMatchObject({ status: "refunded", refundedAmount: order.netAmount });
    await expect(polar.refunds.create({ orderId: order.id, reason: "other", amount: 1 })).rejects.toBeInstanceOf(RefundedAlready);
    expect((await polar.refunds.list({ orderId: order.id, succeeded: true })).result.items).toHaveLength(2);

    const mine = await anon.customerPortal.orders.list({ customerSession: confirmed.customerSessionToken }, {});
    expect(mine.result.items.map((o) => [o.id, o.status])).toEqual([[order.id, "refunded"]]);
    const types = await outboxTypes(api.knex, orgId);
    for (const t of ["order.created", "order.paid", "refund.created", "refund.updated", "order.refunded"]) expect(types).toContain(t);
  });

  it("takes a buyer from a checkout link's url to a paid order, then a refund", async () => {
    const link = await polar.checkoutLinks.create({ paymentProcessor: "stripe", productId, label: "Course page" });
    // The buyer opens the link (its path on this test server; the host is PUBLIC_API_URL's).
    const visit = await fetch(`${api.url}${new URL(link.url).pathname}`, { redirect: "manual" });
    expect(visit.status).toBe(302);
    const clientSecret = /\/checkout\/([^/?#]+)/.exec(visit.headers.get("location") ?? "")?.[1];
    expect(clientSecret).toBeTruthy();

    const opened = await anon.checkouts.clientGet({ clientSecret: clientSecret! });
    expect(opened).toMatchObject({ status: "open", productId, isPaymentRequired: true });
    const updated = await anon.checkouts.clientUpdate({
      clientSecret: clientSecret!,
      checkoutUpdatePublic: { customerEmail: "linked@example.com", customerName: "Lin" },
    });
    expect(updated.customerEmail).toBe("linked@example.com");
    const confirmed = await anon.checkouts.clientConfirm({
      clientSecret: clientSecret!,
      checkoutConfirmStripe: { customerBillingAddress: { country: "DE" }, confirmationTokenId: "tok_sandbox_success" },
    });
    expect(confirmed.customerSessionToken).toBeTruthy();
    expect((await anon.checkouts.clientGet({ clientSecret: clientSecret! })).status).toBe("succeeded");

    const [order] = (await polar.orders.list({ checkoutId: opened.id })).result.items;
    expect(order).toMatchObject({ status: "paid", paid: true, billingName: "Lin", totalAmount: opened.totalAmount });
    expect(order.customer.email).toBe("linked@example.com");
    await polar.refunds.create({ orderId: order.id, reason: "customer_request", amount: order.netAmount });
    expect(await polar.orders.get({ id: order.id })).toMatchObject({ status: "refunded", refundedAmount: order.netAmount });
    const mine = await anon.customerPortal.orders.list({ customerSession: confirmed.customerSessionToken }, {});
    expect(mine.result.items.map((o) => [o.id, o.status])).toEqual([[order.id, "refunded"]]);
  });
});
