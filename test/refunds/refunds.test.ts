// Refunds through the official client: partial then full refund with the order's amounts and
// status following, proportional tax, RefundAmountTooHigh, RefundedAlready, revoke_benefits,
// events, every list filter and sort key, and concurrent refunds that can't exceed the order.
import type { RefundSortProperty } from "@polar-sh/sdk/models/components/refundsortproperty.js";
import { beforeAll, describe, expect, it } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import { Polar as Polar032 } from "polar-sdk-032";
import { Polar as Polar047 } from "polar-sdk-047";
import type { Refund } from "@polar-sh/sdk/models/components/refund.js";
import { HTTPValidationError } from "@polar-sh/sdk/models/errors/httpvalidationerror.js";
import { RefundAmountTooHigh } from "@polar-sh/sdk/models/errors/refundamounttoohigh.js";
import { RefundedAlready } from "@polar-sh/sdk/models/errors/refundedalready.js";
import {
  collectPages,
  createCustomer,
  createOrder,
  createPayment,
  createProductWithPrice,
  orgWithToken,
  outboxTypes,
  rejects,
  useTestApi,
} from "../harness/index.js";

const api = useTestApi();

async function collect(polar: Polar, req: Parameters<Polar["refunds"]["list"]>[0]): Promise<Refund[]> {
  return collectPages(await polar.refunds.list(req));
}

describe("refunds", () => {
  let polar: Polar;
  let token: string;
  let orgId: string;
  let customerId: string;
  let productId: string;

  /** A paid order of 10.00 + 2.00 tax with its succeeded card payment. */
  async function paidOrder(overrides: Record<string, unknown> = {}) {
    const order = await createOrder(api.knex, orgId, { customerId, productId }, { subtotal_amount: 1000, tax_amount: 200, ...overrides });
    await createPayment(api.knex, orgId, { order_id: order.id, amount: 1200 });
    return order;
  }

  beforeAll(async () => {
    const made = await orgWithToken(api.knex);
    token = made.token;
    orgId = made.org.id;
    polar = api.client(token);
    customerId = (await createCustomer(api.knex, orgId)).id;
    productId = (await createProductWithPrice(api.knex, orgId)).product.id;
  });

  it("refunds partially, then fully; the order follows; then RefundedAlready", async () => {
    const order = await paidOrder();
    const first = await polar.refunds.create({
      orderId: order.id,
      reason: "customer_request",
      amount: 400,
      comment: "half-ish",
      metadata: { ticket: "T-1" },
    });
    expect(first).toMatchObject({
      status: "succeeded",
      reason: "customer_request",
      amount: 400,
      taxAmount: 80,
      currency: "usd",
      orderId: order.id,
      customerId,
      organizationId: orgId,
      subscriptionId: null,
      revokeBenefits: false,
      metadata: { ticket: "T-1" },
    });
    let o = await polar.orders.get({ id: order.id });
    expect(o).toMatchObject({ status: "partially_refunded", refundedAmount: 400, refundedTaxAmount: 80, paid: true });
    // What is left to refund, as the order shows it; 0.49.0 reads the refund, with no dispute behind it.
    const shown = await (await fetch(`${api.url}/v1/orders/${order.id}`, { headers: { authorization: `Bearer ${token}` } })).json();
    expect(shown).toMatchObject({ refundable_amount: 600, refundable_tax_amount: 120 });
    expect(
      await api
        .client049(token)
        .refunds.list({ orderId: order.id })
        .then((p) => p.result.items),
    ).toMatchObject([{ id: first?.id, amount: 400, dispute: null }]);

    await rejects(polar.refunds.create({ orderId: order.id, reason: "other", amount: 601 }), RefundAmountTooHigh);
    const second = await polar.refunds.create({ orderId: order.id, reason: "other", amount: 600, revokeBenefits: true });
    expect(second).toMatchObject({ amount: 600, taxAmount: 120, revokeBenefits: true, status: "succeeded" });
    o = await polar.orders.get({ id: order.id });
    expect(o).toMatchObject({ status: "refunded", refundedAmount: 1000, refundedTaxAmount: 200 });

    const err = await rejects(polar.refunds.create({ orderId: order.id, reason: "other", amount: 1 }), RefundedAlready);
    expect(err.error).toBe("RefundedAlready");
    const types = await outboxTypes(api.knex, orgId);
    expect(types.filter((t) => t === "refund.created")).toHaveLength(2);
    expect(types.filter((t) => t === "refund.updated")).toHaveLength(2);
    expect(types.filter((t) => t === "order.refunded")).toHaveLength(2);
    expect(types).toContain("order.updated");
  });

  it("answers 201 with the refund, and 200 to the clients that read it only from a 200", async () => {
    const order = await paidOrder();
    // Official clients on both sides of the change: each reads the refund from the status it expects.
    const clients = [
      ["0.32.16", new Polar032({ accessToken: token, serverURL: api.url })],
      ["0.34.17", polar],
      ["0.47.1", new Polar047({ accessToken: token, serverURL: api.url })],
      ["0.49.0", api.client049(token)],
    ] as const;
    for (const [version, client] of clients) {
      expect(await client.refunds.create({ orderId: order.id, reason: "other", amount: 10 }), version).toMatchObject({
        orderId: order.id,
        amount: 10,
      });
    }
    // The rule, by the user-agent each Speakeasy client sends (Python's from 0.29.0 on: 201).
    const statusWith = async (userAgent: string | null) => {
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, "content-type": "application/json" };
      if (userAgent) headers["user-agent"] = userAgent;
      const res = await fetch(`${api.url}/v1/refunds/`, {
        method: "POST",
        headers,
        body: JSON.stringify({ order_id: order.id, reason: "other", amount: 1 }),
      });
      expect(await res.json()).toMatchObject({ order_id: order.id, amount: 1 });
      return res.status;
    };
    expect(await statusWith(null)).toBe(201);
    expect(await statusWith("speakeasy-sdk/typescript 0.43.0 2.730.5 0.1.0 @polar-sh/sdk")).toBe(200);
    expect(await statusWith("speakeasy-sdk/typescript 0.43.1 2.801.2 0.1.0 @polar-sh/sdk")).toBe(201);
    expect(await statusWith("speakeasy-sdk/python 0.28.4 2.792.0 0.1.0 polar-sdk")).toBe(200);
    expect(await statusWith("speakeasy-sdk/python 0.29.0 2.801.2 0.1.0 polar-sdk")).toBe(201);
    expect(await statusWith("speakeasy-sdk/go 0.1.0 2.801.2 0.1.0 polar-go")).toBe(201);
    expect((await polar.orders.get({ id: order.id })).refundedAmount).toBe(46);
  });

  it("answers RefundAmountTooHigh past the net amount, and 422 for unpaid, foreign or unknown orders", async () => {
    const order = await paidOrder();
    const tooHigh = await rejects(polar.refunds.create({ orderId: order.id, reason: "other", amount: 1001 }), RefundAmountTooHigh);
    expect(tooHigh.error).toBe("RefundAmountTooHigh");
    const pending = await createOrder(api.knex, orgId, { customerId, productId }, { status: "pending" });
    await rejects(polar.refunds.create({ orderId: pending.id, reason: "other", amount: 100 }), HTTPValidationError);
    await rejects(
      polar.refunds.create({ orderId: "00000000-0000-4000-8000-000000000000", reason: "other", amount: 100 }),
      HTTPValidationError,
    );
    const other = await orgWithToken(api.knex);
    const oc = await createCustomer(api.knex, other.org.id);
    const op = await createProductWithPrice(api.knex, other.org.id);
    const foreign = await createOrder(api.knex, other.org.id, { customerId: oc.id, productId: op.product.id });
    await rejects(polar.refunds.create({ orderId: foreign.id, reason: "other", amount: 100 }), HTTPValidationError);
    await rejects(polar.refunds.create({ orderId: order.id, reason: "other", amount: 0 }), HTTPValidationError);
    expect((await polar.orders.get({ id: order.id })).refundedAmount).toBe(0);
  });

  it("serializes concurrent refunds: ten of 300 on a 1000 order refund exactly three", async () => {
    const order = await paidOrder();
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => polar.refunds.create({ orderId: order.id, reason: "duplicate", amount: 300 })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(3);
    for (const r of results) if (r.status === "rejected") expect(r.reason).toBeInstanceOf(RefundAmountTooHigh);
    const o = await polar.orders.get({ id: order.id });
    expect(o).toMatchObject({ refundedAmount: 900, status: "partially_refunded" });
  });

  it("lists with every filter and sort key", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const p = api.client(token);
    const c1 = await createCustomer(api.knex, org.id);
    const c2 = await createCustomer(api.knex, org.id);
    const prod = (await createProductWithPrice(api.knex, org.id)).product.id;
    const o1 = await createOrder(api.knex, org.id, { customerId: c1.id, productId: prod }, { subtotal_amount: 1000 });
    const o2 = await createOrder(api.knex, org.id, { customerId: c2.id, productId: prod }, { subtotal_amount: 1000 });
    await createPayment(api.knex, org.id, { order_id: o1.id, amount: 1000 });
    await createPayment(api.knex, org.id, { order_id: o2.id, amount: 1000 });
    const r1 = (await p.refunds.create({ orderId: o1.id, reason: "other", amount: 500 }))!;
    const r2 = (await p.refunds.create({ orderId: o2.id, reason: "other", amount: 200 }))!;
    const r3 = (await p.refunds.create({ orderId: o1.id, reason: "other", amount: 300 }))!;
    await api.knex("refunds").where({ id: r3.id }).update({ status: "failed" });
    const of = async (req: Parameters<Polar["refunds"]["list"]>[0]) => (await collect(p, req)).map((r) => r.id).sort();
    const s = (...xs: string[]) => xs.sort();
    expect(await of({})).toEqual(s(r1.id, r2.id, r3.id));
    expect(await of({ id: r2.id })).toEqual([r2.id]);
    expect(await of({ id: [r1.id, r2.id] })).toEqual(s(r1.id, r2.id));
    expect(await of({ organizationId: org.id })).toHaveLength(3);
    expect(await of({ orderId: o1.id })).toEqual(s(r1.id, r3.id));
    expect(await of({ customerId: c2.id })).toEqual([r2.id]);
    // 0.49.0's filter by the customer's external id.
    await api.knex("customers").where({ id: c2.id }).update({ external_id: "ext-c2" });
    const newer = api.client049(token);
    expect((await newer.refunds.list({ externalCustomerId: "ext-c2" })).result.items.map((r) => r.id)).toEqual([r2.id]);
    expect((await newer.refunds.list({ externalCustomerId: ["ext-c2", "ext-none"] })).result.items.map((r) => r.id)).toEqual([r2.id]);
    expect((await newer.refunds.list({ externalCustomerId: "ext-none" })).result.items).toEqual([]);
    expect(await of({ subscriptionId: "00000000-0000-4000-8000-000000000000" })).toEqual([]);
    expect(await of({ succeeded: true })).toEqual(s(r1.id, r2.id));
    expect(await of({ succeeded: false })).toEqual([r3.id]);
    const order = async (key: RefundSortProperty) => (await collect(p, { sorting: [key] })).map((r) => r.id);
    expect(await order("amount")).toEqual([r2.id, r3.id, r1.id]);
    expect(await order("-amount")).toEqual([r1.id, r3.id, r2.id]);
    expect(await order("created_at")).toEqual([r1.id, r2.id, r3.id]);
    expect(await order("-created_at")).toEqual([r3.id, r2.id, r1.id]);
    const page = await p.refunds.list({ limit: 2 });
    expect(page.result.pagination).toEqual({ totalCount: 3, maxPage: 2 });
  });
});
