// Refunds of wallet-paid orders, as Polar's: only the cash part is refundable, and each refund takes
// back from the customer's positive balance up to the cash it returns (a `refund` ledger entry), once
// per refund even when retried or raced; the ledger's sum stays the balance. No webhook for it.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import { RefundAmountTooHigh } from "@polar-sh/sdk/models/errors/refundamounttoohigh.js";
import { runStep } from "../../server/subscriptions/billing.js";
import { ledgerSum } from "../../server/wallets/repository.js";
import {
  createCustomer,
  createCustomerSessionToken,
  createOrder,
  createPayment,
  createProductWithPrice,
  createSubscriptionFixture,
  orgWithToken,
  rejects,
  useTestApi,
} from "../harness/index.js";

const api = useTestApi();

interface Entry {
  kind: string;
  amount: number;
  balance_after: number;
  order_id: string | null;
  refund_id: string | null;
}

describe("wallet refunds", () => {
  let polar: Polar;
  let token: string;
  let orgId: string;

  beforeAll(async () => {
    const made = await orgWithToken(api.knex);
    orgId = made.org.id;
    token = made.token;
    polar = api.client(token);
  });

  async function credit(customerId: string, amount: number): Promise<string> {
    const res = await fetch(`${api.url}/v1/wallets/credit`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ customer_id: customerId, amount, currency: "usd" }),
    });
    expect(res.status).toBe(201);
    return String(((await res.json()) as { id: string }).id);
  }

  /** A refund through the official client (which types its answer as possibly empty). */
  async function refund(body: Parameters<Polar["refunds"]["create"]>[0], options?: Parameters<Polar["refunds"]["create"]>[1]) {
    const made = await polar.refunds.create(body, options);
    if (!made) throw new Error("The refund create answered no body.");
    return made;
  }

  const balance = async (walletId: string): Promise<number> => Number((await api.knex("wallets").where({ id: walletId }).first()).balance);

  /** A paid order of 10.00 of which the wallet paid `applied`, and its card payment of the rest (if any). */
  async function walletPaidOrder(customerId: string, applied: number) {
    const { product } = await createProductWithPrice(api.knex, orgId);
    const order = await createOrder(
      api.knex,
      orgId,
      { customerId, productId: product.id },
      { subtotal_amount: 1000, tax_amount: 0, applied_balance_amount: -applied },
    );
    if (applied < 1000) await createPayment(api.knex, orgId, { order_id: order.id, amount: 1000 - applied });
    return order;
  }

  it("refunds a wallet-paid renewal's cash part only and takes the refunded cash back from the balance", async () => {
    const f = await createSubscriptionFixture(api.knex, {
      startedAt: new Date("2027-05-01T00:00:00Z"),
      amount: 1000,
      organizationId: orgId,
    });
    const walletId = await credit(f.customerId, 400);
    await runStep(api.knex, f.subscription.id, Date.parse("2027-06-01T01:00:00Z"));
    const order = await api.knex("orders").where({ subscription_id: f.subscription.id, billing_reason: "subscription_cycle" }).first();
    expect(order).toMatchObject({ applied_balance_amount: -400, status: "paid" });
    // The wallet paid 400 of 1000: 600 went through the card, and only that is refundable.
    await rejects(polar.refunds.create({ orderId: order.id, reason: "customer_request", amount: 601 }), RefundAmountTooHigh);

    // The customer holds a balance again; a partial refund of 200 takes 200 of it back.
    await credit(f.customerId, 500);
    const first = await refund({ orderId: order.id, reason: "customer_request", amount: 200 });
    expect(first).toMatchObject({ amount: 200, status: "succeeded" });
    expect(await balance(walletId)).toBe(300);
    // The rest (400) takes what is left of the balance (300), never more.
    const rest = await refund({ orderId: order.id, reason: "customer_request", amount: 400 });
    expect(await balance(walletId)).toBe(0);
    expect(await polar.orders.get({ id: order.id })).toMatchObject({ status: "refunded", refundedAmount: 600 });
    expect(await ledgerSum(api.knex, walletId)).toBe(0);

    // The portal's ledger shows each refund's entry, linked to its refund and its order.
    const session = await createCustomerSessionToken(api.knex, f.customerId);
    const res = await fetch(`${api.url}/v1/customer-portal/wallets/${walletId}/transactions`, {
      headers: { authorization: `Bearer ${session}` },
    });
    const entries = ((await res.json()) as { items: Entry[] }).items;
    expect(entries.filter((e) => e.kind === "refund")).toEqual([
      expect.objectContaining({ amount: -300, balance_after: 0, order_id: order.id, refund_id: rest.id }),
      expect.objectContaining({ amount: -200, balance_after: 300, order_id: order.id, refund_id: first.id }),
    ]);
    expect(entries.find((e) => e.kind === "order")).toMatchObject({ amount: -400, order_id: order.id, refund_id: null });
  });

  it("refunds nothing of an order the wallet paid in full", async () => {
    const customer = await createCustomer(api.knex, orgId);
    const order = await walletPaidOrder(customer.id, 1000);
    await rejects(polar.refunds.create({ orderId: order.id, reason: "other", amount: 1 }), RefundAmountTooHigh);
  });

  it("takes back once for a retried refund and writes only the refund's and order's events", async () => {
    const customer = await createCustomer(api.knex, orgId);
    const order = await walletPaidOrder(customer.id, 300);
    const walletId = await credit(customer.id, 1000);
    const outboxBefore = Number((await api.knex("outbox").where({ organization_id: orgId }).max({ id: "id" }).first())?.id ?? 0);
    const options = { headers: { "Idempotency-Key": randomUUID() } };
    const a = await refund({ orderId: order.id, reason: "duplicate", amount: 250 }, options);
    const b = await refund({ orderId: order.id, reason: "duplicate", amount: 250 }, options);
    expect(b.id).toBe(a.id);
    expect(await balance(walletId)).toBe(750);
    expect(await api.knex("wallet_transactions").where({ wallet_id: walletId, kind: "refund" })).toEqual([
      expect.objectContaining({ amount: -250, refund_id: a.id }),
    ]);
    // Polar sends no webhook for a wallet change: the outbox holds the refund's and the order's only.
    const types = await api.knex("outbox").where({ organization_id: orgId }).where("id", ">", outboxBefore).orderBy("id").pluck("type");
    expect(types).toEqual(["refund.created", "refund.updated", "order.updated", "order.refunded"]);
  });

  it("never takes back more than the refunds return, nor below zero, under concurrent refunds", async () => {
    const customer = await createCustomer(api.knex, orgId);
    const order = await walletPaidOrder(customer.id, 100);
    const walletId = await credit(customer.id, 500);
    // 900 refundable: six refunds of 200 at once, four go through (800), taking 500 in all.
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () => polar.refunds.create({ orderId: order.id, reason: "duplicate", amount: 200 })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(4);
    for (const r of results) if (r.status === "rejected") expect(r.reason).toBeInstanceOf(RefundAmountTooHigh);
    expect(await balance(walletId)).toBe(0);
    expect(await ledgerSum(api.knex, walletId)).toBe(0);
    const taken = await api.knex("wallet_transactions").where({ wallet_id: walletId, kind: "refund" }).pluck("amount");
    expect(taken.map(Number).sort((x, y) => x - y)).toEqual([-200, -200, -100]);
  });
});
