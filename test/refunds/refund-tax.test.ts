// A refund's tax: its share of the order's tax, reverted with the provider that
// recorded the order's. A fast-check property over sequences of partial refunds: the refunds of
// one order never hand back more tax than the order carried, and all of it once fully refunded;
// each share is one the provider's reversal accepts. Then through the official client: a taxed
// order refunded in part and then in full, and another at once, each with its reversal stored.
import { randomUUID } from "node:crypto";
import { Polar } from "@polar-sh/sdk";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { refundTax } from "../../server/refunds/tax.js";
import { builtinTaxProvider, type TaxTransaction } from "../../server/tax/provider.js";
import type { TaxCalculation } from "../../server/tax/models.js";
import { orgWithClient, plainJson, useTestApi } from "../harness/index.js";

const api = useTestApi();

/** A recorded built-in transaction of one line: `net` with `tax` on top. */
function transactionOf(net: number, tax: number): TaxTransaction {
  const line = {
    reference: null,
    category: "digital_service" as const,
    amount: net,
    net_amount: net,
    tax_amount: tax,
    total_amount: net + tax,
    rate_pcm: 0,
    basis_points: 0,
    taxability_reason: "standard_rated" as const,
    jurisdiction: null,
    components: [],
  };
  const calculation: TaxCalculation = {
    provider: "builtin",
    processor_id: null,
    currency: "eur",
    date: "2028-01-01",
    prices_include_tax: false,
    lines: [line],
    net_amount: net,
    tax_amount: tax,
    total_amount: net + tax,
    taxability_reason: "standard_rated",
    jurisdiction: null,
  };
  return { provider: "builtin", id: "builtin:o", reference: "o", calculation };
}

describe("refund tax", () => {
  it("never hands back more tax than the order's, and all of it once the order is fully refunded", async () => {
    const order = fc.record({ net: fc.integer({ min: 1, max: 1_000_000 }), ratePct: fc.integer({ min: 0, max: 27 }) });
    // Each refund takes a share of what is left (1 to 1000 thousandths of it, at least one cent).
    const shares = fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 1, maxLength: 12 });
    await fc.assert(
      fc.asyncProperty(order, shares, fc.boolean(), async ({ net, ratePct }, parts, finish) => {
        const tax = Math.round((net * ratePct) / 100);
        const row = {
          subtotal_amount: net,
          discount_amount: 0,
          tax_amount: tax,
          applied_balance_amount: 0,
          refunded_amount: 0,
          refunded_tax_amount: 0,
        };
        const transaction = transactionOf(net, tax);
        const amounts = parts.map(() => 0);
        parts.forEach((p, i) => (amounts[i] = Math.max(1, Math.floor(((net - row.refunded_amount) * p) / 1000))));
        if (finish) amounts.push(net);
        for (const wanted of amounts) {
          const left = net - row.refunded_amount;
          if (left <= 0) break;
          const amount = Math.min(wanted, left);
          const share = refundTax(row, amount);
          expect(share).toBeGreaterThanOrEqual(0);
          // The provider takes the share as it is (its own checks: within the order's tax and total).
          const reversal = await builtinTaxProvider.revert(transaction, randomUUID(), { total_amount: amount + share, tax_amount: share });
          expect(reversal.tax_amount).toBe(share);
          row.refunded_amount += amount;
          row.refunded_tax_amount += share;
          expect(row.refunded_tax_amount).toBeLessThanOrEqual(tax);
        }
        if (row.refunded_amount === net) expect(row.refunded_tax_amount).toBe(tax);
      }),
      { numRuns: 300 },
    );
  });

  it("rounds a share half away from zero: half of 1 cent of tax is 1, and nothing is left for the next", () => {
    const row = {
      subtotal_amount: 100,
      discount_amount: 0,
      tax_amount: 1,
      applied_balance_amount: 0,
      refunded_amount: 0,
      refunded_tax_amount: 0,
    };
    expect(refundTax(row, 50)).toBe(1);
    expect(refundTax({ ...row, refunded_amount: 50, refunded_tax_amount: 1 }, 25)).toBe(0);
  });

  it("reverts a taxed order's refunds with the built-in provider, in part and in full, and stores each reversal", async () => {
    const { org, token, polar } = await orgWithClient(api);
    const call = plainJson(api.url, token);
    const tax_settings = { provider: "builtin", origin_country: "FR", prices_include_tax: false, registrations: [{ country: "FR" }] };
    expect((await call("PATCH", `/v1/organizations/${org.id}`, { tax_settings })).status).toBe(200);
    const product = await polar.products.create({
      name: "Course",
      recurringInterval: null,
      prices: [{ amountType: "fixed", priceAmount: 1000, priceCurrency: "eur" }],
    });
    const anon = new Polar({ serverURL: api.url });
    /** A paid order of 10.00 + 2.00 French VAT. */
    const buy = async () => {
      const checkout = await polar.checkouts.create({ products: [product.id] });
      const customerBillingAddress = { country: "FR" as const };
      await anon.checkouts.clientUpdate({ clientSecret: checkout.clientSecret, checkoutUpdatePublic: { customerBillingAddress } });
      await anon.checkouts.clientConfirm({
        clientSecret: checkout.clientSecret,
        checkoutConfirmStripe: {
          customerEmail: `b-${randomUUID().slice(0, 8)}@example.com`,
          customerName: "B",
          customerBillingAddress,
          confirmationTokenId: "tok_sandbox_success",
        },
      });
      const [order] = (await polar.orders.list({ checkoutId: checkout.id })).result.items;
      expect([order.netAmount, order.taxAmount, order.totalAmount]).toEqual([1000, 200, 1200]);
      return order;
    };
    const reversalOf = async (refundId: string) => (await api.knex("refunds").where({ id: refundId }).first()).tax_reversal_id;

    const order = await buy();
    const transaction = (await api.knex("orders").where({ id: order.id }).first()).tax_transaction_id;
    expect(transaction).toBe(`builtin:${order.id}`);
    const first = await polar.refunds.create({ orderId: order.id, reason: "customer_request", amount: 333 });
    expect(first?.taxAmount).toBe(67); // 200 × 333 / 1000 = 66.6
    expect(await reversalOf(first!.id)).toBe(`${transaction}:reversal:${first!.id}`);
    const rest = await polar.refunds.create({ orderId: order.id, reason: "customer_request", amount: 667 });
    expect(rest?.taxAmount).toBe(133);
    expect(await reversalOf(rest!.id)).toBe(`${transaction}:reversal:${rest!.id}`);
    expect(await polar.orders.get({ id: order.id })).toMatchObject({ status: "refunded", refundedAmount: 1000, refundedTaxAmount: 200 });

    const whole = await buy();
    const all = await polar.refunds.create({ orderId: whole.id, reason: "other", amount: 1000 });
    expect(all?.taxAmount).toBe(200);
    expect(await reversalOf(all!.id)).toBe(`builtin:${whole.id}:reversal:${all!.id}`);
    expect(await polar.orders.get({ id: whole.id })).toMatchObject({ status: "refunded", refundedTaxAmount: 200 });
  });
});
