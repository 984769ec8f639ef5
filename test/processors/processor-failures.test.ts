// Confirm over other processors: the Stripe adapter end to end against stripe-mock (its fixture
// intent is never paid, so the checkout fails cleanly with the intent recorded; with the charge
// approved in front of it, a paid order refunded through Stripe), and a processor that can't be
// reached (the checkout is open again, the discount is released, nothing else is written).
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import { PaymentError } from "@polar-sh/sdk/models/errors/paymenterror.js";
import { setProcessor } from "../../server/processors/index.js";
import { SandboxProcessor } from "../../server/processors/sandbox.js";
import { StripeProcessor } from "../../server/processors/stripe.js";
import { createCheckoutProduct, createDiscount, orgWithToken, useTestApi } from "../harness/index.js";
import { startApprovingProxy, startStripeMock } from "./stripe-mock.js";

const api = useTestApi();

describe("confirm over other processors", () => {
  let polar: Polar;
  let orgId: string;
  let productId: string;

  beforeAll(async () => {
    const { org, token } = await orgWithToken(api.knex);
    orgId = org.id;
    polar = api.client(token);
    productId = (await createCheckoutProduct(api.knex, org.id)).product.id;
  });
  afterEach(() => setProcessor(null));

  const confirm = (secret: string, extra: Record<string, unknown> = {}) =>
    polar.checkouts.clientConfirm({
      clientSecret: secret,
      checkoutConfirmStripe: {
        customerEmail: "p@example.com",
        customerBillingAddress: { country: "FR" },
        confirmationTokenId: "ctoken_test",
        ...extra,
      },
    });

  it("fails cleanly when the processor can't be reached: the checkout is open again", async () => {
    class Down extends SandboxProcessor {
      override async confirmPayment(): Promise<never> {
        throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:443"), { code: "ECONNREFUSED" });
      }
    }
    setProcessor(new Down());
    const discount = await createDiscount(api.knex, orgId, { code: "OUTAGE", max_redemptions: 1 });
    const checkout = await polar.checkouts.create({ products: [productId] });
    await polar.checkouts.clientUpdate({ clientSecret: checkout.clientSecret, checkoutUpdatePublic: { discountCode: "OUTAGE" } });
    const err = await confirm(checkout.clientSecret, { discountCode: "OUTAGE" }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(PaymentError);
    expect((await polar.checkouts.get({ id: checkout.id })).status).toBe("open");
    expect(await api.knex("orders").where({ checkout_id: checkout.id })).toHaveLength(0);
    expect((await api.knex("discounts").where({ id: discount.id }).first()).redemptions_count).toBe(0);
  });

  describe("Stripe (stripe-mock)", () => {
    let mock: Awaited<ReturnType<typeof startStripeMock>>;
    beforeAll(async () => {
      mock = await startStripeMock();
    });
    afterAll(() => mock?.stop());

    it("confirms through a payment intent; an unpaid intent is a decline (the checkout open again)", async () => {
      setProcessor(new StripeProcessor("sk_test_borealis", { host: "127.0.0.1", port: mock.port, protocol: "http" }));
      const checkout = await polar.checkouts.create({ products: [productId] });
      const err = await confirm(checkout.clientSecret).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(PaymentError);
      expect((await polar.checkouts.get({ id: checkout.id })).status).toBe("open");
      const [payment] = await api.knex("payments").where({ checkout_id: checkout.id });
      expect(payment.status).toBe("failed");
      expect(payment.processor_ref).toMatch(/^pi_/);
    });

    it("pays an approved charge through Stripe and refunds it through Stripe", async () => {
      const approving = await startApprovingProxy(mock.port);
      try {
        const stripe = new StripeProcessor("sk_test_borealis", { host: "127.0.0.1", port: approving.port, protocol: "http" });
        const calls: { method: string; path: string; idempotency_key?: string }[] = [];
        stripe.client.on("request", (e: { method: string; path: string; idempotency_key?: string }) => calls.push(e));
        setProcessor(stripe);
        const checkout = await polar.checkouts.create({ products: [productId] });
        const confirmed = await confirm(checkout.clientSecret);
        expect(confirmed.status).toBe("confirmed");
        expect((await polar.checkouts.get({ id: checkout.id })).status).toBe("succeeded");
        expect(approving.intents).toHaveLength(1);
        const [order] = (await polar.orders.list({ checkoutId: checkout.id })).result.items;
        expect(order).toMatchObject({ status: "paid", paid: true, totalAmount: checkout.totalAmount });
        const [payment] = (await polar.payments.list({ orderId: order.id })).result.items;
        expect(payment).toMatchObject({ status: "succeeded", processor: "stripe", amount: order.totalAmount });
        expect((await api.knex("payments").where({ id: payment.id }).first()).processor_ref).toBe(approving.intents[0]);
        const intentCall = calls.find((c) => c.method === "POST" && c.path === "/v1/payment_intents");
        expect(intentCall?.idempotency_key).toContain(checkout.id);

        await polar.refunds.create({ orderId: order.id, reason: "customer_request", amount: order.netAmount });
        expect(await polar.orders.get({ id: order.id })).toMatchObject({ status: "refunded", refundedAmount: order.netAmount });
        const [refund] = (await polar.refunds.list({ orderId: order.id })).result.items;
        expect(refund.status).toBe("succeeded");
        const refundCall = calls.find((c) => c.method === "POST" && c.path === "/v1/refunds");
        expect(refundCall?.idempotency_key).toContain(refund.id);
      } finally {
        await approving.stop();
      }
    });
  });
});
