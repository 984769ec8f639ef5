// The money path end to end through the official client on the sandbox processor: a checkout is
// confirmed (the checkout engineer's flow calling createOrderForCheckout / recordPayment /
// markOrderPaid), the merchant finds the order and its payment, refunds part then the rest, and
// the buyer sees the refunded order in the portal with the session token the confirm returned.
import { beforeAll, describe, expect, it } from "vitest";
import { Polar } from "@polar-sh/sdk";
import { RefundedAlready } from "@polar-sh/sdk/models/errors/refundedalready.js";
import { useTestApi } from "../helpers/api.js";
import { createCheckoutProduct, orgWithToken, outboxTypes } from "../fixtures/factories.js";

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
      checkoutConfirmStripe: { customerEmail: "learner@example.com", customerName: "Lea", customerBillingAddress: { country: "FR" }, confirmationTokenId: "tok_sandbox_success" },
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
});
