// Draft orders and receipts through the 0.49.0 client: a draft for a one-time product charges
// nothing and has no invoice number; finalizing charges the saved card off-session (paid, numbered,
// benefits granted, order.paid), or answers 402 and leaves the draft to try again (a decline, a card
// needing 3-D Secure, no card); a second finalize is 412; the receipt of a paid order is a PDF, for
// the merchant and in the portal, which never shows a draft.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { HTTPValidationError } from "polar-sdk-049/models/errors/httpvalidationerror.js";
import { OrderNotDraft } from "polar-sdk-049/models/errors/ordernotdraft.js";
import { PaymentActionRequired } from "polar-sdk-049/models/errors/paymentactionrequired.js";
import { PaymentFailed } from "polar-sdk-049/models/errors/paymentfailed.js";
import { ResourceNotFound } from "polar-sdk-049/models/errors/resourcenotfound.js";
import { SDKError } from "polar-sdk-049/models/errors/sdkerror.js";
import type { Polar } from "polar-sdk-049";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalStorage, setStorage } from "../../server/files/storage.js";
import {
  createBenefit,
  createCustomer,
  createCustomerSessionToken,
  createPaymentMethod,
  orgWithToken,
  outboxTypes,
  rejects,
  useLifecycleWorker,
  useTestApi,
} from "../harness/index.js";

const api = useTestApi();

describe("draft orders", () => {
  useLifecycleWorker("draft-orders", () => api.knex);
  let polar: Polar;
  let orgId: string;
  let product: string;

  /** A customer whose saved card is this sandbox card. */
  async function customerWithCard(card = "4242424242424242") {
    const customer = await createCustomer(api.knex, orgId);
    const method = await createPaymentMethod(api.knex, orgId, customer.id, {
      processor_ref: `pm_sandbox_${card}_${customer.id.slice(0, 8)}`,
    });
    return { customer, method };
  }

  let filesDir: string;

  beforeAll(async () => {
    filesDir = await mkdtemp(path.join(os.tmpdir(), "receipts-"));
    setStorage(new LocalStorage(filesDir));
    process.env.PUBLIC_API_URL = api.url;
    const made = await orgWithToken(api.knex);
    orgId = made.org.id;
    polar = api.client049(made.token);
    const benefit = await createBenefit(api.knex, orgId, {
      type: "custom",
      description: "Consulting",
      properties: JSON.stringify({ note: "Hi" }),
    });
    product = (
      await polar.products.create({ name: "Consulting hour", prices: [{ amountType: "fixed", priceAmount: 12000, priceCurrency: "usd" }] })
    ).id;
    await polar.products.updateBenefits({ id: product, productBenefitsUpdate: { benefits: [benefit.id] } });
  });

  afterAll(async () => {
    setStorage(null);
    delete process.env.PUBLIC_API_URL;
    await rm(filesDir, { recursive: true, force: true });
  });

  it("makes a draft that charges nothing, then finalizes it on the saved card", async () => {
    const { customer } = await customerWithCard();
    const draft = await polar.orders.create({
      customerId: customer.id,
      productId: product,
      amount: 9000,
      description: "March retainer",
      metadata: { po: "42" },
    });
    expect(draft).toMatchObject({
      status: "draft",
      paid: false,
      invoiceNumber: null,
      totalAmount: 9000,
      currency: "usd",
      billingReason: "purchase",
    });
    expect(draft.items.map((i) => [i.label, i.amount])).toEqual([["March retainer", 9000]]);
    expect(await api.knex("payments").where({ order_id: draft.id })).toHaveLength(0);

    const paid = await polar.orders.finalize({ id: draft.id });
    expect(paid).toMatchObject({ id: draft.id, status: "paid", paid: true, totalAmount: 9000 });
    expect(paid.invoiceNumber).toMatch(/-\d{4}$/);
    const payments = await api.knex("payments").where({ order_id: draft.id });
    expect(payments.map((p) => [p.status, p.amount])).toEqual([["succeeded", 9000]]);
    const types = await outboxTypes(api.knex, orgId);
    expect(types.filter((t) => t.startsWith("order."))).toEqual(expect.arrayContaining(["order.created", "order.updated", "order.paid"]));
    await expect
      .poll(async () => (await api.knex("benefit_grants").where({ order_id: draft.id }).whereNotNull("granted_at")).length, {
        timeout: 20_000,
      })
      .toBe(1);

    const again = await rejects(polar.orders.finalize({ id: draft.id }), OrderNotDraft);
    expect(again.detail).toBe("The order is not a draft.");
  });

  it("answers 402 and keeps the draft when the card is declined, needs 3-D Secure, or is missing", async () => {
    const cases: [string | null, typeof PaymentFailed | typeof PaymentActionRequired][] = [
      ["4000000000000002", PaymentFailed],
      ["4000002500003155", PaymentActionRequired],
      [null, PaymentFailed],
    ];
    for (const [card, error] of cases) {
      const customer = card ? (await customerWithCard(card)).customer : await createCustomer(api.knex, orgId);
      const draft = await polar.orders.create({ customerId: customer.id, productId: product });
      const err = await polar.orders.finalize({ id: draft.id }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(error);
      expect(err).toMatchObject({ statusCode: 402 });
      const after = await polar.orders.get({ id: draft.id });
      expect(after).toMatchObject({ status: "draft", invoiceNumber: null });
      expect((await api.knex("payments").where({ order_id: draft.id })).map((p) => p.status)).toEqual(card ? ["failed"] : []);
    }
    // A card saved later pays the same draft.
    const { customer } = await customerWithCard("4000000000000002");
    const draft = await polar.orders.create({ customerId: customer.id, productId: product });
    await rejects(polar.orders.finalize({ id: draft.id }), PaymentFailed);
    const good = await createPaymentMethod(api.knex, orgId, customer.id, {
      processor_ref: `pm_sandbox_4242424242424242_${customer.id.slice(0, 6)}`,
    });
    expect((await polar.orders.finalize({ id: draft.id, orderFinalize: { paymentMethodId: good.id } })).status).toBe("paid");
  });

  it("refuses subscriptions, unknown products and customers, and other organizations' orders", async () => {
    const { customer } = await customerWithCard();
    const monthly = (
      await polar.products.create({
        name: "Monthly",
        recurringInterval: "month",
        prices: [{ amountType: "fixed", priceAmount: 900, priceCurrency: "usd" }],
      })
    ).id;
    const custom = (await polar.products.create({ name: "Tip", prices: [{ amountType: "custom", priceCurrency: "usd" }] })).id;
    const cases: [Parameters<Polar["orders"]["create"]>[0], string, string][] = [
      [{ customerId: customer.id, productId: monthly }, "product_id", "Subscription products are not supported"],
      [{ customerId: customer.id, productId: custom }, "product_id", "Off-session charges only support fixed-price products."],
      [{ customerId: customer.id, productId: "00000000-0000-4000-8000-000000000000" }, "product_id", "Product does not exist."],
      [{ customerId: "00000000-0000-4000-8000-000000000000", productId: product }, "customer_id", "Customer does not exist."],
      [{ customerId: customer.id, productId: product, currency: "eur" }, "currency", "Product has no price in currency 'eur'."],
      [{ customerId: customer.id, productId: product, amount: 10 }, "amount", "greater than or equal to 50"],
    ];
    for (const [body, field, msg] of cases) {
      const err = await rejects(polar.orders.create(body), HTTPValidationError);
      expect(err.data$.detail?.[0].loc).toEqual(["body", field]);
      expect(err.data$.detail?.[0].msg).toContain(msg);
    }
    const draft = await polar.orders.create({ customerId: customer.id, productId: product });
    const other = await orgWithToken(api.knex);
    await rejects(api.client049(other.token).orders.finalize({ id: draft.id }), ResourceNotFound);
    const reader = await orgWithToken(api.knex, { scopes: ["orders:read"] });
    expect(
      (await rejects(api.client049(reader.token).orders.create({ customerId: customer.id, productId: product }), SDKError)).statusCode,
    ).toBe(403);
  });

  it("gives a paid order's receipt as a PDF, to the merchant and in the portal, which never shows a draft", async () => {
    const { customer } = await customerWithCard();
    const draft = await polar.orders.create({ customerId: customer.id, productId: product });
    await rejects(polar.orders.receipt({ id: draft.id }), ResourceNotFound);
    const session = { customerSession: await createCustomerSessionToken(api.knex, customer.id) };
    const portal = api.client049("unused");
    expect((await portal.customerPortal.orders.list(session, {})).result.items).toHaveLength(0);
    await rejects(portal.customerPortal.orders.get(session, { id: draft.id }), ResourceNotFound);

    const paid = await polar.orders.finalize({ id: draft.id });
    const receipt = await polar.orders.receipt({ id: paid.id });
    const pdf = Buffer.from(await (await fetch(receipt!.url)).arrayBuffer());
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    const text = pdf.toString("latin1");
    expect(text).toContain(`Receipt number: ${paid.receiptNumber}`);
    expect(text).toContain(`Invoice number: ${paid.invoiceNumber}`);
    expect(text).toContain("Amount paid");
    const mine = await portal.customerPortal.orders.receipt(session, { id: paid.id });
    expect(new URL(mine!.url).pathname).toBe(new URL(receipt!.url).pathname);
  });
});
