// Stripe webhooks at POST /v1/integrations/stripe/webhook: a valid signature is applied, a bad
// one answers 400, a replayed event is applied once. A payment that needed action (sandbox card
// 4000002500003155) completes when payment_intent.succeeded arrives: one order, however many
// deliveries.
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import { createCheckoutProduct, orgWithToken, useTestApi } from "../harness/index.js";

const api = useTestApi();
const SECRET = "whsec_borealis_test";
const stripe = new Stripe("sk_test_unused");

function post(payload: string, signature: string) {
  return fetch(`${api.url}/v1/integrations/stripe/webhook`, {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": signature },
    body: payload,
  });
}

function signed(event: Record<string, unknown>) {
  const payload = JSON.stringify(event);
  return { payload, signature: stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET }) };
}

describe("Stripe webhooks", () => {
  let polar: Polar;
  let productId: string;
  const previous = process.env.STRIPE_WEBHOOK_SECRET;

  beforeAll(async () => {
    process.env.STRIPE_WEBHOOK_SECRET = SECRET;
    const { org, token } = await orgWithToken(api.knex);
    polar = api.client(token);
    productId = (await createCheckoutProduct(api.knex, org.id)).product.id;
  });
  afterAll(() => {
    process.env.STRIPE_WEBHOOK_SECRET = previous;
  });

  it("accepts a valid signature and rejects a bad one", async () => {
    const { payload, signature } = signed({ id: "evt_valid_1", object: "event", type: "customer.created", data: { object: {} } });
    const ok = await post(payload, signature);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ received: true, duplicate: false });
    const bad = await post(payload, signature.replace(/v1=[0-9a-f]{6}/, "v1=000000"));
    expect(bad.status).toBe(400);
    const tampered = await post(payload.replace("customer.created", "customer.deleted"), signature);
    expect(tampered.status).toBe(400);
    const unsigned = await post(payload, "");
    expect(unsigned.status).toBe(400);
  });

  it("completes a payment that needed action, once however often it is delivered", async () => {
    const checkout = await polar.checkouts.create({ products: [productId] });
    const confirmed = await polar.checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: {
        customerEmail: "action@example.com",
        customerBillingAddress: { country: "FR" },
        confirmationTokenId: "tok_sandbox_requires_action",
      },
    });
    expect(confirmed.paymentProcessorMetadata.intent_status).toBe("requires_action");
    expect((await polar.checkouts.get({ id: checkout.id })).status).toBe("confirmed");
    expect(await api.knex("orders").where({ checkout_id: checkout.id })).toHaveLength(0);

    const intentId = (await api.knex("checkouts").where({ id: checkout.id }).first()).payment_ref;
    const { payload, signature } = signed({
      id: "evt_pi_succeeded_1",
      object: "event",
      type: "payment_intent.succeeded",
      data: {
        object: {
          id: intentId,
          object: "payment_intent",
          metadata: { checkout_id: checkout.id },
          payment_method: { id: "pm_3ds", object: "payment_method", card: { brand: "visa", last4: "3155" } },
        },
      },
    });
    const deliveries = await Promise.all([post(payload, signature), post(payload, signature), post(payload, signature)]);
    expect(deliveries.every((r) => r.status === 200)).toBe(true);
    expect((await post(payload, signature)).status).toBe(200);
    expect((await polar.checkouts.get({ id: checkout.id })).status).toBe("succeeded");
    expect(await api.knex("orders").where({ checkout_id: checkout.id })).toHaveLength(1);
    const payments = await api.knex("payments").where({ checkout_id: checkout.id });
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({ status: "succeeded", processor_ref: intentId, method_metadata: { brand: "visa", last4: "3155" } });
    expect(await api.knex("processed_events").where({ event_id: "evt_pi_succeeded_1" })).toHaveLength(1);
  });

  it("opens the checkout again on payment_intent.payment_failed", async () => {
    const checkout = await polar.checkouts.create({ products: [productId] });
    await polar.checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: {
        customerEmail: "action2@example.com",
        customerBillingAddress: { country: "FR" },
        confirmationTokenId: "tok_sandbox_requires_action",
      },
    });
    const { payload, signature } = signed({
      id: "evt_pi_failed_1",
      object: "event",
      type: "payment_intent.payment_failed",
      data: {
        object: {
          id: "pi_x",
          object: "payment_intent",
          metadata: { checkout_id: checkout.id },
          last_payment_error: { code: "card_declined", message: "Declined." },
        },
      },
    });
    expect((await post(payload, signature)).status).toBe(200);
    expect((await polar.checkouts.get({ id: checkout.id })).status).toBe("open");
    expect(await api.knex("orders").where({ checkout_id: checkout.id })).toHaveLength(0);
  });
});
