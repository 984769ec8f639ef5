// Prepaid wallets: the merchant credits a customer's wallet (wallets:credit), the customer reads it
// through 0.49.0's customerPortal.wallets (and its ledger), a renewal order spends the balance before
// the card is charged, and concurrent debits never take the balance below zero nor off the ledger.
import { beforeAll, describe, expect, it } from "vitest";
import type { Polar as Polar049 } from "polar-sdk-049";
import { HTTPValidationError } from "polar-sdk-049/models/errors/httpvalidationerror.js";
import { ResourceNotFound } from "polar-sdk-049/models/errors/resourcenotfound.js";
import { BalanceCreditOrderMetadata$inboundSchema } from "polar-sdk-049/models/components/balancecreditordermetadata.js";
import { runStep } from "../../server/subscriptions/billing.js";
import { InsufficientWalletBalance } from "../../server/wallets/errors.js";
import { ledgerSum } from "../../server/wallets/repository.js";
import { debitWallet } from "../../server/wallets/service.js";
import {
  createCustomer,
  createCustomerSessionToken,
  createSubscriptionFixture,
  orgWithToken,
  rejects,
  useTestApi,
} from "../harness/index.js";

const api = useTestApi();

async function credit(token: string, body: Record<string, unknown>) {
  const res = await fetch(`${api.url}/v1/wallets/credit`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function listWallets(token: string, query: string) {
  const res = await fetch(`${api.url}/v1/wallets/?${query}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as { items: Record<string, unknown>[]; pagination: unknown } };
}

describe("wallets", () => {
  let portal: Polar049;
  let orgId: string;
  let token: string;

  beforeAll(async () => {
    const made = await orgWithToken(api.knex);
    orgId = made.org.id;
    token = made.token;
    portal = api.client049("unused");
  });

  it("credits a wallet per currency and shows it to its customer only", async () => {
    const customer = await createCustomer(api.knex, orgId);
    const first = await credit(token, { customer_id: customer.id, amount: 2500, currency: "usd", description: "Prepaid pack" });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ customer_id: customer.id, balance: 2500, currency: "usd" });
    const again = await credit(token, { customer_id: customer.id, amount: 500, currency: "usd" });
    expect(again.body).toMatchObject({ id: first.body.id, balance: 3000 });
    await credit(token, { customer_id: customer.id, amount: 100, currency: "eur" });

    const session = { customerSession: await createCustomerSessionToken(api.knex, customer.id) };
    const page = (await portal.customerPortal.wallets.list(session, { sorting: ["-balance"] })).result;
    expect(page.pagination).toEqual({ totalCount: 2, maxPage: 1 });
    expect(page.items.map((w) => [w.currency, w.balance])).toEqual([
      ["usd", 3000],
      ["eur", 100],
    ]);
    const usd = await portal.customerPortal.wallets.get(session, { id: String(first.body.id) });
    expect(usd).toMatchObject({ id: first.body.id, customerId: customer.id, balance: 3000, currency: "usd" });
    expect(usd.createdAt).toBeInstanceOf(Date);
    expect(usd.modifiedAt).toBeInstanceOf(Date);

    const ledger = await fetch(`${api.url}/v1/customer-portal/wallets/${String(first.body.id)}/transactions`, {
      headers: { authorization: `Bearer ${session.customerSession}` },
    });
    expect(ledger.status).toBe(200);
    const entries = (
      (await ledger.json()) as { items: { amount: number; balance_after: number; kind: string; description: string | null }[] }
    ).items;
    expect(entries.map((e) => [e.kind, e.amount, e.balance_after])).toEqual([
      ["credit", 500, 3000],
      ["credit", 2500, 2500],
    ]);
    expect(entries[1].description).toBe("Prepaid pack");

    // Another customer of the same organization, and another organization, see none of it.
    const other = await createCustomer(api.knex, orgId);
    const otherSession = { customerSession: await createCustomerSessionToken(api.knex, other.id) };
    expect((await portal.customerPortal.wallets.list(otherSession, {})).result.items).toEqual([]);
    await rejects(portal.customerPortal.wallets.get(otherSession, { id: String(first.body.id) }), ResourceNotFound);
    const otherOrg = await orgWithToken(api.knex);
    expect((await listWallets(otherOrg.token, `customer_id=${customer.id}`)).body.items).toEqual([]);
    expect((await credit(otherOrg.token, { customer_id: customer.id, amount: 1, currency: "usd" })).status).toBe(404);
    expect((await listWallets(token, `customer_id=${customer.id}&currency=usd`)).body.items).toEqual([
      expect.objectContaining({ id: first.body.id, balance: 3000 }),
    ]);
  });

  it("answers the contract's errors", async () => {
    const customer = await createCustomer(api.knex, orgId);
    const session = { customerSession: await createCustomerSessionToken(api.knex, customer.id) };
    await rejects(portal.customerPortal.wallets.get(session, { id: "00000000-0000-4000-8000-000000000000" }), ResourceNotFound);
    await rejects(portal.customerPortal.wallets.get(session, { id: "not-a-uuid" }), HTTPValidationError);
    await rejects(portal.customerPortal.wallets.list(session, { limit: 101 }), HTTPValidationError);
    for (const [body, loc] of [
      [{ customer_id: customer.id, amount: 0, currency: "usd" }, ["body", "amount"]],
      [{ customer_id: customer.id, amount: 10, currency: "usdx" }, ["body", "currency"]],
      [{ customer_id: "nope", amount: 10, currency: "usd" }, ["body", "customer_id"]],
    ] as const) {
      const res = await credit(token, body);
      expect(res.status).toBe(422);
      expect((res.body.detail as { loc: string[] }[])[0].loc).toEqual(loc);
    }
    const reader = await orgWithToken(api.knex, { scopes: ["customers:read"] });
    expect((await credit(reader.token, { customer_id: customer.id, amount: 10, currency: "usd" })).status).toBe(403);
    const anonymous = await fetch(`${api.url}/v1/customer-portal/wallets/`);
    expect(anonymous.status).toBe(401);
  });

  it("keeps the balance exact and never below zero under concurrent debits", async () => {
    const customer = await createCustomer(api.knex, orgId);
    const wallet = (await credit(token, { customer_id: customer.id, amount: 1000, currency: "usd" })).body;
    const walletId = String(wallet.id);
    const scope = { organizationId: orgId };
    // 20 debits of 70 and 5 credits of 10 at once: the 1000 alone pays 14; the 15th is paid when
    // the credits land before the debits run out, else refused (the balance then ends at 70).
    const debits = Array.from({ length: 20 }, () =>
      api.knex
        .transaction((trx) => debitWallet(trx, scope, walletId, 70))
        .then(
          () => "debited",
          (err: unknown) => (err instanceof InsufficientWalletBalance ? "refused" : Promise.reject(err)),
        ),
    );
    const credits = Array.from({ length: 5 }, () => credit(token, { customer_id: customer.id, amount: 10, currency: "usd" }));
    const [outcomes, credited] = await Promise.all([Promise.all(debits), Promise.all(credits)]);
    expect(credited.every((c) => c.status === 201)).toBe(true);
    const debited = outcomes.filter((o) => o === "debited").length;
    const row = await api.knex("wallets").where({ id: walletId }).first();
    expect(row.balance).toBe(1050 - 70 * debited);
    expect(row.balance).toBeGreaterThanOrEqual(0);
    expect([14, 15]).toContain(debited);
    expect(await ledgerSum(api.knex, walletId)).toBe(row.balance);
    // Each ledger entry's balance_after follows the one before it.
    const entries = await api.knex("wallet_transactions").where({ wallet_id: walletId }).orderBy("balance_after", "desc");
    expect(entries).toHaveLength(1 + 5 + debited);
    expect(entries.every((e: { balance_after: number }) => e.balance_after >= 0)).toBe(true);
  });

  it("pays a renewal from the wallet first and charges the card the rest", async () => {
    const startedAt = new Date("2027-05-01T00:00:00Z");
    const f = await createSubscriptionFixture(api.knex, { startedAt, interval: "month", amount: 1000, organizationId: orgId });
    const wallet = (await credit(token, { customer_id: f.customerId, amount: 400, currency: "usd" })).body;
    await runStep(api.knex, f.subscription.id, Date.parse("2027-06-01T01:00:00Z"));
    const order = await api.knex("orders").where({ subscription_id: f.subscription.id, billing_reason: "subscription_cycle" }).first();
    expect(order).toMatchObject({ status: "paid", applied_balance_amount: -400 });
    const payments = await api.knex("payments").where({ order_id: order.id });
    expect(payments.map((p: { amount: number; status: string }) => [p.amount, p.status])).toEqual([[600, "succeeded"]]);
    expect((await api.knex("wallets").where({ id: wallet.id }).first()).balance).toBe(0);
    expect(await api.knex("wallet_transactions").where({ order_id: order.id })).toEqual([
      expect.objectContaining({ kind: "order", amount: -400, balance_after: 0 }),
    ]);
    const read = await api.client049(token).orders.get({ id: order.id });
    expect(read).toMatchObject({ appliedBalanceAmount: -400, totalAmount: 1000, dueAmount: 0 });

    // A wallet that holds the whole amount pays it alone: nothing is charged.
    await credit(token, { customer_id: f.customerId, amount: 5000, currency: "usd" });
    await runStep(api.knex, f.subscription.id, Date.parse("2027-07-01T01:00:00Z"));
    const next = await api
      .knex("orders")
      .where({ subscription_id: f.subscription.id, billing_reason: "subscription_cycle" })
      .orderBy("created_at", "desc")
      .first();
    expect(next).toMatchObject({ status: "paid", applied_balance_amount: -1000 });
    expect(await api.knex("payments").where({ order_id: next.id })).toEqual([]);
    expect((await api.knex("wallets").where({ id: wallet.id }).first()).balance).toBe(4000);
    expect(await ledgerSum(api.knex, String(wallet.id))).toBe(4000);

    // Polar records the order paid with no charge as a balance.credit_order system event (the one
    // paid partly by card gets none), and sends no webhook for a wallet's change.
    const res = await fetch(`${api.url}/v1/events/?customer_id=${f.customerId}&name=balance.credit_order`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const events = ((await res.json()) as { items: Record<string, unknown>[] }).items;
    expect(events).toEqual([
      expect.objectContaining({
        source: "system",
        name: "balance.credit_order",
        label: "Order paid from balance",
        customer_id: f.customerId,
        timestamp: new Date(next.created_at).toISOString().replace(".000Z", "Z"),
      }),
    ]);
    expect(BalanceCreditOrderMetadata$inboundSchema.parse(events[0].metadata)).toEqual({
      orderId: next.id,
      productId: f.subscription.product_id,
      subscriptionId: f.subscription.id,
      amount: 1000,
      currency: "usd",
      taxAmount: 0,
      fee: 0,
    });
    const types = await api.knex("outbox").where({ organization_id: orgId }).distinct("type").pluck("type");
    expect(types.filter((t: string) => !/^(order|subscription|customer)\./.test(t))).toEqual([]);
  });
});
