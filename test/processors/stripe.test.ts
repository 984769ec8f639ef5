// The Stripe adapter against stripe-mock (started here on a free port): customers, payment
// intents confirmed with a confirmation token, saved payment methods, refunds, closing a dispute,
// each call with the idempotency key we give it; Stripe's disputes in our terms; and the sandbox's
// deterministic test tokens.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type Stripe from "stripe";
import { disputeFromStripe, StripeProcessor, type StripeDisputeFields } from "../../server/processors/stripe.js";
import { SandboxProcessor, parseSandboxToken } from "../../server/processors/sandbox.js";
import { startStripeMock } from "./stripe-mock.js";

describe("Stripe adapter against stripe-mock", () => {
  let mock: Awaited<ReturnType<typeof startStripeMock>>;
  let stripe: StripeProcessor;
  const requests: { method: string; path: string; idempotency_key?: string }[] = [];

  beforeAll(async () => {
    mock = await startStripeMock();
    stripe = new StripeProcessor("sk_test_borealis", { host: "127.0.0.1", port: mock.port, protocol: "http" });
    stripe.client.on("request", (e: { method: string; path: string; idempotency_key?: string }) => requests.push(e));
  });
  afterAll(() => {
    mock?.stop();
  });

  it("creates a customer with our idempotency key", async () => {
    const id = await stripe.createCustomer({
      email: "buyer@example.com",
      name: "Buyer",
      idempotencyKey: "customer:abc",
      metadata: { customer_id: "abc" },
    });
    expect(id).toMatch(/^cus_/);
    expect(requests.at(-1)).toMatchObject({ method: "POST", path: "/v1/customers", idempotency_key: "customer:abc" });
  });

  it("confirms a payment intent with a confirmation token and maps its status", async () => {
    const result = await stripe.confirmPayment({
      amount: 2500,
      currency: "usd",
      confirmationToken: "ctoken_test",
      customerRef: null,
      setupFutureUsage: false,
      idempotencyKey: "checkout:xyz:confirm",
      metadata: { checkout_id: "xyz" },
    });
    expect(requests.at(-1)).toMatchObject({ method: "POST", path: "/v1/payment_intents", idempotency_key: "checkout:xyz:confirm" });
    // stripe-mock answers its fixture intent (status requires_payment_method): not paid, so declined.
    expect(result.status).toBe("declined");
    expect(result.paymentRef).toMatch(/^pi_/);
  });

  it("saves a payment method with its card details", async () => {
    const saved = await stripe.savePaymentMethod({ customerRef: "cus_123", confirmationToken: "ctoken_test", idempotencyKey: "setup:abc" });
    expect(saved.paymentMethodRef).toMatch(/^pm_/);
    expect(saved.card).toEqual({ brand: "visa", last4: "4242", expMonth: 8, expYear: 2030 }); // stripe-mock's fixture card
    expect(requests.at(-1)).toMatchObject({ path: "/v1/setup_intents", idempotency_key: "setup:abc" });
  });

  it("refunds with an idempotency key", async () => {
    const refund = await stripe.refund({ paymentRef: "pi_123", amount: 1000, idempotencyKey: "refund:r1" });
    expect(refund.refundRef).toMatch(/^re_/);
    expect(refund.status).toBe("succeeded");
    expect(requests.at(-1)).toMatchObject({ path: "/v1/refunds", idempotency_key: "refund:r1" });
  });

  it("closes a dispute with an idempotency key and answers its status", async () => {
    const closed = await stripe.closeDispute({ disputeRef: "du_123", idempotencyKey: "dispute:d1:accept" });
    // stripe-mock answers its fixture dispute, whose status is needs_response.
    expect(closed).toEqual({ status: "needs_response" });
    expect(requests.at(-1)).toMatchObject({ method: "POST", path: "/v1/disputes/du_123/close", idempotency_key: "dispute:d1:accept" });
  });

  it("reads a Stripe dispute in our terms", () => {
    const dispute = (
      status: Stripe.Dispute.Status,
      payment_intent: StripeDisputeFields["payment_intent"] = "pi_1",
    ): StripeDisputeFields => ({
      id: "du_1",
      amount: 2500,
      currency: "usd",
      reason: "fraudulent",
      status,
      payment_intent,
      evidence_details: { due_by: 1767225600, past_due: false },
    });
    expect(disputeFromStripe(dispute("needs_response"))).toEqual({
      ref: "du_1",
      paymentRef: "pi_1",
      status: "needs_response",
      amount: 2500,
      currency: "usd",
      reason: "fraudulent",
      evidenceDueBy: "2026-01-01T00:00:00.000Z",
      pastDue: false,
    });
    const statuses: Stripe.Dispute.Status[] = [
      "warning_needs_response",
      "under_review",
      "warning_under_review",
      "warning_closed",
      "won",
      "lost",
    ];
    expect(statuses.map((s) => disputeFromStripe(dispute(s))?.status)).toEqual([
      "needs_response",
      "under_review",
      "under_review",
      "prevented",
      "won",
      "lost",
    ]);
    expect(disputeFromStripe(dispute("lost", { id: "pi_2" }))?.paymentRef).toBe("pi_2");
    expect(disputeFromStripe(dispute("lost", null))).toBeNull();
  });
});

describe("sandbox processor", () => {
  it("maps its test tokens and card numbers deterministically", async () => {
    expect(parseSandboxToken("tok_sandbox_success")?.outcome).toBe("success");
    expect(parseSandboxToken("4000000000000002")?.outcome).toBe("generic_decline");
    expect(parseSandboxToken("tok_sandbox_4000000000009995")?.outcome).toBe("insufficient_funds");
    expect(parseSandboxToken("tok_sandbox_requires_action")?.outcome).toBe("requires_action");
    expect(parseSandboxToken("4000000000000259")?.outcome).toBe("dispute");
    expect(parseSandboxToken("tok_unknown")).toBeNull();
    // An expiry suffix gives the card its expiry; the card behaves as without it.
    expect(parseSandboxToken("tok_sandbox_success_exp_01_2029")).toEqual({
      outcome: "success",
      card: { brand: "visa", last4: "4242", expMonth: 1, expYear: 2029 },
    });
    expect(parseSandboxToken("tok_sandbox_4000000000000002_exp_12_2030")).toMatchObject({
      outcome: "generic_decline",
      card: { last4: "0002", expMonth: 12 },
    });
    expect(parseSandboxToken("tok_sandbox_success")?.card).toEqual({ brand: "visa", last4: "4242" });
    expect(parseSandboxToken("tok_sandbox_success_exp_13_2029")).toBeNull();
    const sandbox = new SandboxProcessor();
    const input = {
      amount: 100,
      currency: "usd",
      confirmationToken: "4242424242424242",
      customerRef: null,
      setupFutureUsage: true,
      idempotencyKey: "k",
      metadata: {},
    };
    const first = await sandbox.confirmPayment(input);
    expect(first).toMatchObject({ status: "succeeded", card: { brand: "visa", last4: "4242" } });
    // Same key, same answer (even with another token): never charged twice.
    expect(await sandbox.confirmPayment({ ...input, confirmationToken: "tok_sandbox_decline" })).toEqual(first);
    expect(await sandbox.confirmPayment({ ...input, idempotencyKey: "k2", confirmationToken: "tok_sandbox_decline" })).toMatchObject({
      status: "declined",
      code: "card_declined",
    });
  });
});
