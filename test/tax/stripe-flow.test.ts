// Stripe Tax end to end against stripe-mock through the recorder: a checkout quoted on every
// change and paid, the order's tax recorded once by the worker after the commit, a refund's tax
// reverted once; Stripe failing is a 503 that changes nothing, an address it cannot place a 422.
// stripe-mock answers a fixed sample (1499 with 148 of tax), so the tests check what was sent and
// that what is stored is Stripe's answer.
import { randomUUID } from "node:crypto";
import { Polar } from "@polar-sh/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setStripeTaxConfig } from "../../server/tax/providers.js";
import { setWorkflowsDoor, temporalDoor } from "../../server/workflows-door.js";
import { createTaxSyncActivities } from "../../workflows/activities/tax-sync.js";
import { sweepTaxSyncs } from "../../workflows/backstop.js";
import { activityDeps, orgWithClient, plainJson, useTestApi, useTestWorker } from "../harness/index.js";
import { startStripeMock } from "../processors/stripe-mock.js";
import { startStripeRecorder } from "./stripe-recorder.js";
import { sleep } from "../../server/kit/time.js";

const api = useTestApi();
const temporal = useTestWorker("tax-sync", {
  activities: () => createTaxSyncActivities(activityDeps(api.knex)),
  install: (client, taskQueue) => {
    setWorkflowsDoor({ startTaxSyncs: temporalDoor(client, taskQueue).startTaxSyncs });
    return () => setWorkflowsDoor(null);
  },
});

let mock: Awaited<ReturnType<typeof startStripeMock>>;
let recorder: Awaited<ReturnType<typeof startStripeRecorder>>;

beforeAll(async () => {
  mock = await startStripeMock();
  recorder = await startStripeRecorder(mock.port);
  setStripeTaxConfig({ secretKey: "sk_test_borealis", apiBase: `http://127.0.0.1:${recorder.port}` });
});

afterAll(async () => {
  setStripeTaxConfig(null);
  await recorder?.stop();
  mock?.stop();
});

const sent = (path: string) => recorder.requests.filter((r) => r.method === "POST" && r.path === path);
const CALCULATIONS = "/v1/tax/calculations";
const RECORDS = "/v1/tax/transactions/create_from_calculation";
const REVERSALS = "/v1/tax/transactions/create_reversal";

async function until<T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await sleep(100);
  }
}

async function stripeShop() {
  const { org, token, polar } = await orgWithClient(api);
  const call = plainJson(api.url, token);
  const tax_settings = { provider: "stripe", origin_country: "FR", prices_include_tax: false, registrations: [{ country: "FR" }] };
  expect((await call("PATCH", `/v1/organizations/${org.id}`, { tax_settings })).status).toBe(200);
  const product = await polar.products.create({
    name: "Course",
    recurringInterval: null,
    prices: [{ amountType: "fixed", priceAmount: 1000, priceCurrency: "eur" }],
  });
  const checkout = await polar.checkouts.create({ products: [product.id] });
  return { polar, call, checkout, anon: new Polar({ serverURL: api.url }) };
}

describe("Stripe Tax end to end", () => {
  it("quotes a checkout with Stripe, records the paid order's tax once after the commit, and reverts a refund once", async () => {
    const { polar, checkout, anon } = await stripeShop();
    const customerBillingAddress = { country: "DE" as const, postalCode: "10115" };
    recorder.requests.splice(0);
    const quoted = await anon.checkouts.clientUpdate({
      clientSecret: checkout.clientSecret,
      checkoutUpdatePublic: { customerBillingAddress },
    });
    const [calculation] = sent(CALCULATIONS);
    expect(Object.fromEntries(calculation.form)).toMatchObject({
      currency: "eur",
      "line_items[0][amount]": "1000",
      "line_items[0][tax_behavior]": "exclusive",
      "line_items[0][tax_code]": "txcd_10000000",
      "customer_details[address][country]": "DE",
      "customer_details[address][postal_code]": "10115",
    });
    // Stripe's answer is the quote: its 148 of tax on its 1499.
    expect([quoted.taxAmount, quoted.totalAmount]).toEqual([148, 1647]);

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
    expect([order.status, order.taxAmount, order.totalAmount]).toEqual(["paid", 148, 1647]);
    const stored = await until(
      () => api.knex("orders").where({ id: order.id }).first(),
      (row) => row.tax_transaction_id !== null,
    );
    expect(stored.tax_transaction_id).toMatch(/^tax_/);
    expect(stored.tax_record_due_at).toBeNull();
    const records = sent(RECORDS);
    expect(records.map((r) => [r.idempotencyKey, r.form.get("reference")])).toEqual([[`tax-record:${order.id}`, order.id]]);
    expect(records[0].form.get("calculation")).toBe(stored.tax_calculation.processor_id);

    // The activity run again (a retry) finds the transaction stored and sends nothing.
    const activities = createTaxSyncActivities(activityDeps(api.knex));
    expect(await activities.syncTax({ kind: "record", id: order.id })).toBe(stored.tax_transaction_id);
    expect(sent(RECORDS)).toHaveLength(1);

    const refund = await polar.refunds.create({ orderId: order.id, reason: "customer_request", amount: order.netAmount });
    expect(refund?.taxAmount).toBe(148);
    const reverted = await until(
      () => api.knex("refunds").where({ id: refund!.id }).first(),
      (row) => row.tax_reversal_id !== null,
    );
    expect(reverted.tax_reversal_id).toMatch(/^tax_/);
    const reversals = sent(REVERSALS);
    expect(reversals.map((r) => [r.idempotencyKey, r.form.get("mode"), r.form.get("original_transaction")])).toEqual([
      [`tax-revert:${refund!.id}`, "full", stored.tax_transaction_id],
    ]);
    expect(await activities.syncTax({ kind: "revert", id: refund!.id })).toBe(reverted.tax_reversal_id);
    expect(sent(REVERSALS)).toHaveLength(1);
  });

  it("leaves a record whose start was lost due, and the backstop sweep makes it", async () => {
    const { polar, checkout, anon } = await stripeShop();
    const customerBillingAddress = { country: "DE" as const };
    await anon.checkouts.clientUpdate({ clientSecret: checkout.clientSecret, checkoutUpdatePublic: { customerBillingAddress } });
    setWorkflowsDoor({ startTaxSyncs: async () => {} });
    try {
      await anon.checkouts.clientConfirm({
        clientSecret: checkout.clientSecret,
        checkoutConfirmStripe: {
          customerEmail: `b-${randomUUID().slice(0, 8)}@example.com`,
          customerName: "B",
          customerBillingAddress,
          confirmationTokenId: "tok_sandbox_success",
        },
      });
    } finally {
      setWorkflowsDoor({ startTaxSyncs: temporalDoor(temporal.client, temporal.taskQueue).startTaxSyncs });
    }
    const [order] = (await polar.orders.list({ checkoutId: checkout.id })).result.items;
    const due = await api.knex("orders").where({ id: order.id }).first();
    expect([due.status, due.tax_transaction_id, due.tax_record_due_at]).toEqual(["paid", null, expect.any(Date)]);
    expect(sent(RECORDS).filter((r) => r.form.get("reference") === order.id)).toHaveLength(0);

    await sweepTaxSyncs(api.knex, temporalDoor(temporal.client, temporal.taskQueue), 0);
    const recorded = await until(
      () => api.knex("orders").where({ id: order.id }).first(),
      (row) => row.tax_transaction_id !== null,
    );
    expect(recorded.tax_record_due_at).toBeNull();
    expect(
      sent(RECORDS)
        .filter((r) => r.form.get("reference") === order.id)
        .map((r) => r.idempotencyKey),
    ).toEqual([`tax-record:${order.id}`]);
  });

  it("answers a 503 that changes nothing while Stripe fails, and a 422 at confirm for an address Stripe can't place", async () => {
    const { checkout, anon } = await stripeShop();
    await anon.checkouts.clientUpdate({
      clientSecret: checkout.clientSecret,
      checkoutUpdatePublic: { customerBillingAddress: { country: "DE" } },
    });
    const path = `/v1/checkouts/client/${checkout.clientSecret}`;
    const patch = (body: unknown) =>
      fetch(`${api.url}${path}`, { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

    recorder.failWith({ status: 500, error: { type: "api_error", message: "Stripe is down" } });
    try {
      const res = await patch({ customer_billing_address: { country: "FR" } });
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
      expect(await res.json()).toMatchObject({ error: "TaxUnavailable", detail: expect.stringContaining("try again") });
    } finally {
      recorder.failWith(null);
    }
    // The checkout kept its last quote: the address and Stripe's tax from before.
    const kept = await anon.checkouts.clientGet({ clientSecret: checkout.clientSecret });
    expect([kept.customerBillingAddress?.country, kept.taxAmount, kept.totalAmount]).toEqual(["DE", 148, 1647]);

    recorder.failWith({
      status: 400,
      error: {
        type: "invalid_request_error",
        code: "customer_tax_location_invalid",
        param: "customer_details[address]",
        message: "We could not determine the customer's tax location.",
      },
    });
    try {
      const res = await patch({ customer_billing_address: { country: "US", postal_code: "00000" } });
      expect(res.status).toBe(200);
      const confirm = await fetch(`${api.url}${path}/confirm`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          customer_email: "c@example.com",
          customer_name: "C",
          customer_billing_address: { country: "US", postal_code: "00000", state: "CA" },
          confirmation_token_id: "tok_sandbox_success",
        }),
      });
      expect(confirm.status).toBe(422);
      const body = (await confirm.json()) as { detail: { loc: string[] }[] };
      expect(body.detail.map((d) => d.loc.join("."))).toEqual(["body.customer_billing_address"]);
    } finally {
      recorder.failWith(null);
    }
  });
});
