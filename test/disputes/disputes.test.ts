// Disputes through the 0.49.0 client: opened by Stripe's charge.dispute.* events (signed as Stripe
// signs them) and by the sandbox's dispute card; listed with every filter, sort key and paging,
// read, conceded (accept: lost at the processor, the order's subscription or benefits revoked,
// once), with the error contract, scopes and tenant isolation; no refund while one holds the money.
import Stripe from "stripe";
import { beforeAll, describe, expect, it } from "vitest";
import type { Polar as Polar049 } from "polar-sdk-049";
import { DisputeNotOpenError } from "polar-sdk-049/models/errors/disputenotopenerror.js";
import { HTTPValidationError } from "polar-sdk-049/models/errors/httpvalidationerror.js";
import { ResourceNotFound } from "polar-sdk-049/models/errors/resourcenotfound.js";
import { SDKError } from "polar-sdk-049/models/errors/sdkerror.js";
import {
  createBenefit,
  createBenefitGrant,
  createCheckoutProduct,
  createCustomer,
  createOrder,
  createPayment,
  orgWithToken,
  rejects,
  useTestApi,
} from "../harness/index.js";

const SECRET = "whsec_borealis_disputes";
const api = useTestApi({ env: { STRIPE_WEBHOOK_SECRET: SECRET } });
const stripe = new Stripe("sk_test_unused");
let eventSeq = 0;

/** Delivers a charge.dispute.* event for the dispute `id` on the payment intent `paymentRef`, signed as Stripe does. */
async function stripeEvent(
  type: string,
  dispute: { id: string; paymentRef: string | null; status: string; amount?: number; reason?: string; dueBy?: number | null },
) {
  const payload = JSON.stringify({
    id: `evt_dispute_${++eventSeq}_${Date.now()}`,
    object: "event",
    type,
    data: {
      object: {
        id: dispute.id,
        object: "dispute",
        amount: dispute.amount ?? 2750,
        currency: "usd",
        charge: "ch_1",
        payment_intent: dispute.paymentRef,
        reason: dispute.reason ?? "product_not_received",
        status: dispute.status,
        evidence_details: { due_by: dispute.dueBy === undefined ? 1767225600 : dispute.dueBy, past_due: false, has_evidence: false },
      },
    },
  });
  const res = await fetch(`${api.url}/v1/integrations/stripe/webhook`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "stripe-signature": stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET }),
    },
    body: payload,
  });
  expect(res.status).toBe(200);
}

/** A paid one-time order (2500 net + 250 tax) and its Stripe payment. */
async function paidOrder(orgId: string, opts: { subtotal?: number; tax?: number } = {}) {
  const customer = await createCustomer(api.knex, orgId, { email: `buyer-${++eventSeq}@example.com` });
  const { product } = await createCheckoutProduct(api.knex, orgId);
  const subtotal = opts.subtotal ?? 2500;
  const tax = opts.tax ?? 250;
  const order = await createOrder(
    api.knex,
    orgId,
    { customerId: customer.id, productId: product.id },
    { subtotal_amount: subtotal, tax_amount: tax, items: [{ label: "E-book", amount: subtotal, tax_amount: tax }] },
  );
  const payment = await createPayment(api.knex, orgId, { order_id: order.id, amount: subtotal + tax });
  const paymentRef = (await api.knex("payments").where({ id: payment.id }).first()).processor_ref as string;
  return { customer, product, order, payment, paymentRef };
}

/** A dispute opened by Stripe on a new paid order. */
async function openedDispute(orgId: string, opts: { amount?: number; subtotal?: number } = {}) {
  const paid = await paidOrder(orgId, { subtotal: opts.subtotal, tax: 0 });
  const ref = `du_${paid.order.id.slice(0, 8)}`;
  await stripeEvent("charge.dispute.created", {
    id: ref,
    paymentRef: paid.paymentRef,
    status: "needs_response",
    amount: opts.amount ?? opts.subtotal ?? 2500,
  });
  const row = await api.knex("disputes").where({ processor: "stripe", processor_ref: ref }).first();
  return Object.assign(paid, { ref, disputeId: row.id as string });
}

describe("disputes", () => {
  let polar: Polar049;
  let orgId: string;

  beforeAll(async () => {
    const { org, token } = await orgWithToken(api.knex);
    orgId = org.id;
    polar = api.client049(token);
  });

  it("opens a dispute from charge.dispute.created and follows Stripe's updates", async () => {
    const { order, payment, paymentRef, customer } = await paidOrder(orgId);
    await stripeEvent("charge.dispute.created", { id: "du_follow", paymentRef, status: "warning_needs_response" });
    const [opened] = (await polar.disputes.list({ orderId: order.id })).result.items;
    expect(opened).toMatchObject({
      status: "needs_response",
      resolved: false,
      closed: false,
      // 2750 disputed of a 2500 + 250 order: the tax in the order's proportion.
      amount: 2500,
      taxAmount: 250,
      currency: "usd",
      reason: "product_not_received",
      evidenceDueBy: new Date("2026-01-01T00:00:00Z"),
      pastDue: false,
      orderId: order.id,
      paymentId: payment.id,
      caseId: null,
      modifiedAt: null,
      customer: { id: customer.id, email: customer.email, organizationId: orgId },
    });
    expect(await polar.disputes.get({ id: opened.id })).toEqual(opened);

    await stripeEvent("charge.dispute.updated", { id: "du_follow", paymentRef, status: "under_review", reason: "fraudulent" });
    expect(await polar.disputes.get({ id: opened.id })).toMatchObject({ status: "under_review", reason: "fraudulent", closed: false });
    await stripeEvent("charge.dispute.closed", { id: "du_follow", paymentRef, status: "won", dueBy: null });
    const won = await polar.disputes.get({ id: opened.id });
    expect(won).toMatchObject({ status: "won", resolved: true, closed: true, evidenceDueBy: null });
    expect(won.modifiedAt).toBeInstanceOf(Date);
    // A late event does not reopen a closed dispute.
    await stripeEvent("charge.dispute.updated", { id: "du_follow", paymentRef, status: "needs_response" });
    expect((await polar.disputes.get({ id: opened.id })).status).toBe("won");
    expect(await api.knex("disputes").where({ processor_ref: "du_follow" })).toHaveLength(1);
    // The order's amounts are not a refund's: a dispute's money is its own record.
    expect(await api.knex("orders").where({ id: order.id }).first()).toMatchObject({ status: "paid", refunded_amount: 0 });
  });

  it("refuses a refund while a dispute holds the order's money, and allows it once the dispute is won", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const opened = await openedDispute(org.id);
    const refund = () =>
      fetch(`${api.url}/v1/refunds/`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ order_id: opened.order.id, reason: "customer_request", amount: 100 }),
      });
    const refused = await refund();
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      error: "RefundDisputedPayment",
      detail: "The order's payment is disputed: it can't be refunded.",
    });
    await stripeEvent("charge.dispute.updated", { id: opened.ref, paymentRef: opened.paymentRef, status: "under_review" });
    expect((await refund()).status).toBe(403);
    await stripeEvent("charge.dispute.closed", { id: opened.ref, paymentRef: opened.paymentRef, status: "won" });
    expect((await refund()).status).toBe(201);
  });

  it("ignores a dispute on a payment that is not ours", async () => {
    const before = await api.knex("disputes").count({ n: "*" });
    await stripeEvent("charge.dispute.created", { id: "du_foreign", paymentRef: "pi_not_ours", status: "needs_response" });
    await stripeEvent("charge.dispute.created", { id: "du_no_intent", paymentRef: null, status: "needs_response" });
    expect(await api.knex("disputes").count({ n: "*" })).toEqual(before);
  });

  it("revokes a one-time purchase's benefits when Stripe closes the dispute as lost", async () => {
    const { order, paymentRef, customer } = await paidOrder(orgId);
    const benefit = await createBenefit(api.knex, orgId);
    const grant = await createBenefitGrant(api.knex, benefit.id, customer.id, { order_id: order.id });
    await stripeEvent("charge.dispute.created", { id: "du_lost_event", paymentRef, status: "needs_response" });
    expect(await api.knex("benefit_grant_jobs").where({ grant_id: grant.id })).toHaveLength(0);
    await stripeEvent("charge.dispute.closed", { id: "du_lost_event", paymentRef, status: "lost" });
    const [dispute] = (await polar.disputes.list({ orderId: order.id })).result.items;
    expect(dispute).toMatchObject({ status: "lost", resolved: true, closed: true });
    expect(await api.knex("benefit_grant_jobs").where({ grant_id: grant.id })).toMatchObject([{ action: "revoke" }]);
    // funds_withdrawn follows the closing: nothing is revoked twice.
    await stripeEvent("charge.dispute.funds_withdrawn", { id: "du_lost_event", paymentRef, status: "lost" });
    expect(await api.knex("benefit_grant_jobs").where({ grant_id: grant.id })).toHaveLength(1);
  });

  it("lists with filters, sorting and pages, only the organization's own", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const own = api.client049(token);
    const small = await openedDispute(org.id, { subtotal: 1000 });
    const large = await openedDispute(org.id, { subtotal: 5000 });
    const middle = await openedDispute(org.id, { subtotal: 3000 });
    await stripeEvent("charge.dispute.updated", { id: middle.ref, paymentRef: middle.paymentRef, status: "under_review", amount: 3000 });
    const ids = async (req: Parameters<Polar049["disputes"]["list"]>[0]) => (await own.disputes.list(req)).result.items.map((d) => d.id);

    expect(await ids({})).toEqual([middle.disputeId, large.disputeId, small.disputeId]);
    expect(await ids({ sorting: ["amount"] })).toEqual([small.disputeId, middle.disputeId, large.disputeId]);
    expect(await ids({ sorting: ["-amount"] })).toEqual([large.disputeId, middle.disputeId, small.disputeId]);
    expect(await ids({ sorting: ["created_at"] })).toEqual([small.disputeId, large.disputeId, middle.disputeId]);
    expect(await ids({ status: "under_review" })).toEqual([middle.disputeId]);
    expect(await ids({ status: ["needs_response", "won"], sorting: ["amount"] })).toEqual([small.disputeId, large.disputeId]);
    expect(await ids({ orderId: [small.order.id, large.order.id], sorting: ["amount"] })).toEqual([small.disputeId, large.disputeId]);
    expect(await ids({ organizationId: org.id })).toHaveLength(3);
    expect(await ids({ organizationId: orgId })).toEqual([]);

    const first = await own.disputes.list({ limit: 2, sorting: ["amount"] });
    expect(first.result.pagination).toEqual({ totalCount: 3, maxPage: 2 });
    const pages: string[][] = [];
    for await (const page of first) pages.push(page.result.items.map((d) => d.id));
    expect(pages).toEqual([[small.disputeId, middle.disputeId], [large.disputeId]]);

    // Another organization's disputes are not found.
    expect((await polar.disputes.list({ orderId: small.order.id })).result.items).toEqual([]);
    await rejects(polar.disputes.get({ id: small.disputeId }), ResourceNotFound);
    await rejects(polar.disputes.accept({ id: small.disputeId }), ResourceNotFound);
    await rejects(own.disputes.get({ id: "not-a-uuid" }), ResourceNotFound);
    await rejects(own.disputes.get({ id: "00000000-0000-4000-8000-000000000000" }), ResourceNotFound);
  });

  it("refuses bad filters with 422", async () => {
    const bad = async (query: string, loc: (string | number)[]) => {
      const res = await fetch(`${api.url}/v1/disputes/?${query}`, {
        headers: { authorization: `Bearer ${(await orgWithToken(api.knex)).token}` },
      });
      expect(res.status).toBe(422);
      expect((await res.json()).detail[0].loc).toEqual(loc);
    };
    await bad("status=open", ["query", "status", 0]);
    await bad("order_id=nope", ["query", "order_id", 0]);
    await bad("sorting=reason", ["query", "sorting", 0]);
    await bad("limit=101", ["query", "limit"]);
    const err = await rejects(polar.disputes.list({ limit: 0 }), HTTPValidationError);
    expect(err.data$.detail?.[0]?.loc).toEqual(["query", "limit"]);
  });

  it("accepts a dispute once: lost at the processor, benefits revoked, then DisputeNotOpenError", async () => {
    const opened = await openedDispute(orgId);
    const benefit = await createBenefit(api.knex, orgId);
    const grant = await createBenefitGrant(api.knex, benefit.id, opened.customer.id, { order_id: opened.order.id });
    const accepted = await polar.disputes.accept({ id: opened.disputeId });
    expect(accepted).toMatchObject({ id: opened.disputeId, status: "lost", resolved: true, closed: true, orderId: opened.order.id });
    expect(await polar.disputes.get({ id: opened.disputeId })).toEqual(accepted);
    expect(await api.knex("benefit_grant_jobs").where({ grant_id: grant.id })).toMatchObject([{ action: "revoke" }]);

    const again = await rejects(polar.disputes.accept({ id: opened.disputeId }), DisputeNotOpenError);
    expect(again.data$).toMatchObject({ error: "DisputeNotOpenError", detail: "The dispute is lost, not awaiting a response." });
    expect(again.statusCode).toBe(409);
    // Stripe's own closing event afterwards changes nothing more.
    await stripeEvent("charge.dispute.closed", { id: opened.ref, paymentRef: opened.paymentRef, status: "lost" });
    expect(await api.knex("benefit_grant_jobs").where({ grant_id: grant.id })).toHaveLength(1);

    const reviewed = await openedDispute(orgId);
    await stripeEvent("charge.dispute.updated", { id: reviewed.ref, paymentRef: reviewed.paymentRef, status: "under_review" });
    await rejects(polar.disputes.accept({ id: reviewed.disputeId }), DisputeNotOpenError);
    expect((await polar.disputes.get({ id: reviewed.disputeId })).status).toBe("under_review");
  });

  it("accepts once when two accepts race, and opens one dispute when two of its events race", async () => {
    const opened = await openedDispute(orgId);
    const results = await Promise.allSettled([
      polar.disputes.accept({ id: opened.disputeId }),
      polar.disputes.accept({ id: opened.disputeId }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(results.find((r) => r.status === "rejected")?.reason).toBeInstanceOf(DisputeNotOpenError);

    const { paymentRef } = await paidOrder(orgId);
    await Promise.all([
      stripeEvent("charge.dispute.created", { id: "du_race", paymentRef, status: "needs_response" }),
      stripeEvent("charge.dispute.updated", { id: "du_race", paymentRef, status: "needs_response" }),
      stripeEvent("charge.dispute.funds_withdrawn", { id: "du_race", paymentRef, status: "needs_response" }),
    ]);
    expect(await api.knex("disputes").where({ processor_ref: "du_race" })).toHaveLength(1);
  });

  it("answers a retried accept with an Idempotency-Key as the first time", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const opened = await openedDispute(org.id);
    const accept = () =>
      fetch(`${api.url}/v1/disputes/${opened.disputeId}/accept`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "idempotency-key": `accept-${opened.disputeId}` },
      });
    const first = await accept();
    const again = await accept();
    expect([first.status, again.status]).toEqual([200, 200]);
    const body = await first.json();
    expect(body).toMatchObject({ id: opened.disputeId, status: "lost" });
    expect(await again.json()).toEqual(body);
  });

  it("opens a dispute with the sandbox's dispute card; accepting it revokes the subscription", async () => {
    const { product } = await createCheckoutProduct(api.knex, orgId, { recurringInterval: "month" });
    const checkout = await polar.checkouts.create({ products: [product.id] });
    await polar.checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: {
        customerEmail: "chargeback@example.com",
        customerBillingAddress: { country: "FR" },
        confirmationTokenId: "4000000000000259",
      },
    });
    const order = await api.knex("orders").where({ checkout_id: checkout.id }).first();
    const [dispute] = (await polar.disputes.list({ orderId: order.id })).result.items;
    expect(dispute).toMatchObject({ status: "needs_response", reason: "fraudulent", amount: 2500, taxAmount: 0, currency: "usd" });
    expect(dispute.evidenceDueBy?.getTime()).toBeGreaterThan(Date.now());
    expect(dispute.customer.email).toBe("chargeback@example.com");
    expect((await polar.subscriptions.get({ id: order.subscription_id })).status).toBe("active");

    await polar.disputes.accept({ id: dispute.id });
    const subscription = await polar.subscriptions.get({ id: order.subscription_id });
    expect(subscription).toMatchObject({ status: "canceled" });
    expect(subscription.endedAt).toBeInstanceOf(Date);
    const types = (await api.knex("outbox").where({ organization_id: orgId }).select("type", "payload")).filter(
      (r) => r.payload?.data?.id === order.subscription_id,
    );
    expect(types.map((r) => r.type)).toContain("subscription.revoked");
  });

  it("needs disputes:read to read and disputes:write to accept", async () => {
    const opened = await openedDispute(orgId);
    const reader = api.client049((await orgWithToken(api.knex, { scopes: ["disputes:read"] })).token);
    // The reader's token is another organization's: its list is empty, its accept is refused first.
    expect((await reader.disputes.list({})).result.items).toEqual([]);
    const refused = await rejects(reader.disputes.accept({ id: opened.disputeId }), SDKError);
    expect(refused.statusCode).toBe(403);
    const none = api.client049((await orgWithToken(api.knex, { scopes: ["orders:read"] })).token);
    expect((await rejects(none.disputes.list({}), SDKError)).statusCode).toBe(403);
    expect((await rejects(none.disputes.get({ id: opened.disputeId }), SDKError)).statusCode).toBe(403);
  });
});
