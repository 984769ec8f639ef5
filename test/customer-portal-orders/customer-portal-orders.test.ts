// The portal's orders and payment methods through the official client with a customer session:
// isolation between customers and organizations, every list filter and sort key, billing updates,
// invoices, payment status, retrying a failed payment, and saved cards (a card paying a live
// subscription cannot be deleted until it is revoked).
import type { CustomerOrderSortProperty } from "@polar-sh/sdk/models/components/customerordersortproperty.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Polar } from "@polar-sh/sdk";
import { Polar as Polar049 } from "polar-sdk-049";
import type { CustomerOrder } from "@polar-sh/sdk/models/components/customerorder.js";
import { HTTPValidationError } from "@polar-sh/sdk/models/errors/httpvalidationerror.js";
import { MissingInvoiceBillingDetails } from "@polar-sh/sdk/models/errors/missinginvoicebillingdetails.js";
import { NotPaidOrder } from "@polar-sh/sdk/models/errors/notpaidorder.js";
import { OrderNotEligibleForRetry } from "@polar-sh/sdk/models/errors/ordernoteligibleforretry.js";
import { PaymentMethodInUseByActiveSubscription } from "@polar-sh/sdk/models/errors/paymentmethodinusebyactivesubscription.js";
import { PaymentAlreadyInProgress } from "@polar-sh/sdk/models/errors/paymentalreadyinprogress.js";
import { ResourceNotFound } from "@polar-sh/sdk/models/errors/resourcenotfound.js";
import { SDKError } from "@polar-sh/sdk/models/errors/sdkerror.js";
import { setWorkflowsDoor } from "../../server/workflows-door.js";
import {
  createCustomer,
  createCustomerSessionToken,
  createOrder,
  createPayment,
  createPaymentMethod,
  createProductWithPrice,
  createSubscriptionFixture,
  orgWithToken,
  outboxTypes,
  rejects,
  useTestApi,
} from "../harness/index.js";

const api = useTestApi();

describe("customer portal: orders and payment methods", () => {
  let portal: Polar;
  let orgId: string;
  let token: string;
  let alice: { customerSession: string };
  let bob: { customerSession: string };
  const ids: Record<string, string> = {};

  async function collect(
    security: { customerSession: string },
    req: Parameters<Polar["customerPortal"]["orders"]["list"]>[1],
  ): Promise<CustomerOrder[]> {
    const out: CustomerOrder[] = [];
    for await (const page of await portal.customerPortal.orders.list(security, req)) out.push(...page.result.items);
    return out;
  }

  beforeAll(async () => {
    const k = api.knex;
    const made = await orgWithToken(k);
    const org = made.org;
    token = made.token;
    orgId = org.id;
    portal = new Polar({ serverURL: api.url });
    const a = await createCustomer(k, orgId, { email: "alice@example.com" });
    const b = await createCustomer(k, orgId, { email: "bob@example.com" });
    ids.alice = a.id;
    ids.bob = b.id;
    alice = { customerSession: await createCustomerSessionToken(k, a.id) };
    bob = { customerSession: await createCustomerSessionToken(k, b.id) };
    const book = await createProductWithPrice(k, orgId, { name: "Book" }, { amount: 1000 });
    const plan = await createProductWithPrice(k, orgId, { name: "Plan", recurring_interval: "month" }, { amount: 3000 });
    ids.book = book.product.id;
    ids.plan = plan.product.id;
    const t0 = Date.now() - 60_000;
    ids.a1 = (
      await createOrder(
        k,
        orgId,
        { customerId: a.id, productId: book.product.id, productPriceId: book.price.id },
        { subtotal_amount: 1000, created_at: new Date(t0) },
      )
    ).id;
    ids.a2 = (
      await createOrder(
        k,
        orgId,
        { customerId: a.id, productId: plan.product.id, productPriceId: plan.price.id },
        {
          subtotal_amount: 3000,
          discount_amount: 500,
          created_at: new Date(t0 + 1000),
          subscription_id: "00000000-0000-4000-8000-0000000000aa",
        },
      )
    ).id;
    ids.a3 = (
      await createOrder(
        k,
        orgId,
        { customerId: a.id, productId: book.product.id },
        { subtotal_amount: 200, created_at: new Date(t0 + 2000), status: "pending" },
      )
    ).id;
    ids.b1 = (await createOrder(k, orgId, { customerId: b.id, productId: book.product.id })).id;
    const other = await orgWithToken(k);
    const oc = await createCustomer(k, other.org.id);
    const op = await createProductWithPrice(k, other.org.id);
    ids.foreign = (await createOrder(k, other.org.id, { customerId: oc.id, productId: op.product.id })).id;
  });

  it("lists only the customer's own orders, with the portal shape", async () => {
    const mine = await collect(alice, {});
    expect(mine.map((o) => o.id).sort()).toEqual([ids.a1, ids.a2, ids.a3].sort());
    expect((await collect(bob, {})).map((o) => o.id)).toEqual([ids.b1]);
    const a2 = mine.find((o) => o.id === ids.a2)!;
    expect(a2).toMatchObject({
      netAmount: 2500,
      totalAmount: 2500,
      paid: true,
      customerId: ids.alice,
      userId: ids.alice,
      subscription: null,
      nextPaymentAttemptAt: null,
    });
    expect(a2.product).toMatchObject({ id: ids.plan, name: "Plan", isRecurring: true });
    expect(a2.product.organization.id).toBe(orgId);
    expect(a2.product.prices).toHaveLength(1);
    expect(a2.items).toHaveLength(1);
  });

  it("answers 404 for another customer's or another organization's order", async () => {
    await rejects(portal.customerPortal.orders.get(bob, { id: ids.a1 }), ResourceNotFound);
    await rejects(portal.customerPortal.orders.get(alice, { id: ids.foreign }), ResourceNotFound);
    await rejects(portal.customerPortal.orders.getPaymentStatus(alice, { id: ids.b1 }), ResourceNotFound);
    await rejects(portal.customerPortal.orders.invoice(alice, { id: ids.b1 }), ResourceNotFound);
    await rejects(
      portal.customerPortal.orders.update(bob, { id: ids.a1, customerOrderUpdate: { billingName: "x", billingAddress: null } }),
      ResourceNotFound,
    );
    expect((await portal.customerPortal.orders.get(alice, { id: ids.a1 })).id).toBe(ids.a1);
  });

  it("filters and sorts by every key", async () => {
    const of = async (req: Parameters<Polar["customerPortal"]["orders"]["list"]>[1]) => (await collect(alice, req)).map((o) => o.id);
    const s = (...xs: string[]) => xs.sort();
    expect((await of({ organizationId: orgId })).sort()).toEqual(s(ids.a1, ids.a2, ids.a3));
    expect((await of({ productId: ids.book })).sort()).toEqual(s(ids.a1, ids.a3));
    expect(await of({ productBillingType: "recurring" })).toEqual([ids.a2]);
    expect((await of({ productBillingType: "one_time" })).sort()).toEqual(s(ids.a1, ids.a3));
    expect(await of({ subscriptionId: "00000000-0000-4000-8000-0000000000aa" })).toEqual([ids.a2]);
    expect(await of({ query: "plan" })).toEqual([ids.a2]);
    const { a1, a2, a3 } = ids;
    const sorted = (key: CustomerOrderSortProperty) => of({ sorting: [key] });
    expect(await sorted("created_at")).toEqual([a1, a2, a3]);
    expect(await sorted("-created_at")).toEqual([a3, a2, a1]);
    expect(await sorted("amount")).toEqual([a3, a1, a2]);
    expect(await sorted("-amount")).toEqual([a2, a1, a3]);
    expect(await sorted("net_amount")).toEqual([a3, a1, a2]);
    expect(await sorted("-net_amount")).toEqual([a2, a1, a3]);
    expect((await sorted("product"))[2]).toBe(a2);
    expect((await sorted("-product"))[0]).toBe(a2);
    expect((await sorted("-subscription"))[0]).toBe(a2);
    expect((await sorted("subscription"))[2]).toBe(a2);
    const page = await portal.customerPortal.orders.list(alice, { limit: 2 });
    expect(page.result.pagination).toEqual({ totalCount: 3, maxPage: 2 });
  });

  it("updates billing details of an own order", async () => {
    const o = await portal.customerPortal.orders.update(alice, {
      id: ids.a1,
      customerOrderUpdate: { billingName: "Alice Corp", billingAddress: { country: "DE", city: "Berlin" } },
    });
    expect(o).toMatchObject({ billingName: "Alice Corp", billingAddress: { country: "DE", city: "Berlin" } });
    expect(await outboxTypes(api.knex, orgId)).toContain("order.updated");
  });

  it("answers the invoice rules for portal customers", async () => {
    await rejects(portal.customerPortal.orders.generateInvoice(alice, { id: ids.a3 }), NotPaidOrder);
    const noName = await createOrder(api.knex, orgId, { customerId: ids.alice, productId: ids.book }, { billing_name: null });
    await rejects(portal.customerPortal.orders.generateInvoice(alice, { id: noName.id }), MissingInvoiceBillingDetails);
    await rejects(portal.customerPortal.orders.invoice(alice, { id: ids.a1 }), ResourceNotFound);
    // Another customer's order is not found (the generate operation declares no 404 body: the client sees a generic error).
    const err = await portal.customerPortal.orders.generateInvoice(bob, { id: ids.a1 }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(SDKError);
    expect((err as SDKError).statusCode).toBe(404);
  });

  it("reports the payment status and retries a failed payment", async () => {
    const k = api.knex;
    const order = await createOrder(
      k,
      orgId,
      { customerId: ids.alice, productId: ids.book },
      { status: "pending", subtotal_amount: 1500, tax_amount: 100 },
    );
    expect(await portal.customerPortal.orders.getPaymentStatus(alice, { id: order.id })).toMatchObject({ status: "no_payment" });
    await createPayment(k, orgId, {
      order_id: order.id,
      status: "failed",
      amount: 1600,
      decline_reason: "card_declined",
      decline_message: "Your card was declined.",
    });
    expect(await portal.customerPortal.orders.getPaymentStatus(alice, { id: order.id })).toEqual({
      status: "failed",
      error: "Your card was declined.",
    });

    const declined = await portal.customerPortal.orders.confirmRetryPayment(alice, {
      id: order.id,
      customerOrderConfirmPayment: { confirmationTokenId: "tok_sandbox_decline" },
    });
    expect(declined).toMatchObject({ status: "failed", error: "Your card was declined." });
    const ok = await portal.customerPortal.orders.confirmRetryPayment(alice, {
      id: order.id,
      customerOrderConfirmPayment: { confirmationTokenId: "tok_sandbox_success" },
    });
    expect(ok).toMatchObject({ status: "succeeded" });
    expect(await portal.customerPortal.orders.getPaymentStatus(alice, { id: order.id })).toMatchObject({ status: "succeeded" });
    const paid = await portal.customerPortal.orders.get(alice, { id: order.id });
    expect(paid).toMatchObject({ status: "paid", paid: true });
    const payments = await k("payments").where({ order_id: order.id }).orderBy("created_at");
    expect(payments.map((p) => [p.status, Number(p.amount)])).toEqual([
      ["failed", 1600],
      ["failed", 1600],
      ["succeeded", 1600],
    ]);
    // The customer's own retries say so; 0.49.0 reads why each payment was made.
    const newer = api.client049(token);
    expect((await newer.payments.get({ id: payments[2].id })).trigger).toBe("retry_customer");
    expect((await newer.payments.get({ id: payments[1].id })).trigger).toBe("retry_customer");
    expect(await outboxTypes(k, orgId)).toContain("order.paid");

    const notEligible = await rejects(
      portal.customerPortal.orders.confirmRetryPayment(alice, {
        id: order.id,
        customerOrderConfirmPayment: { confirmationTokenId: "tok_sandbox_success" },
      }),
      OrderNotEligibleForRetry,
    );
    expect(notEligible.error).toBe("OrderNotEligibleForRetry");
  });

  it("answers PaymentAlreadyInProgress while a payment is pending, and requires_action for 3-D Secure cards", async () => {
    const order = await createOrder(api.knex, orgId, { customerId: ids.alice, productId: ids.book }, { status: "pending" });
    const action = await portal.customerPortal.orders.confirmRetryPayment(alice, {
      id: order.id,
      customerOrderConfirmPayment: { confirmationTokenId: "tok_sandbox_requires_action" },
    });
    expect(action.status).toBe("requires_action");
    expect(action.clientSecret).toBeTruthy();
    const err = await rejects(
      portal.customerPortal.orders.confirmRetryPayment(alice, {
        id: order.id,
        customerOrderConfirmPayment: { confirmationTokenId: "tok_sandbox_success" },
      }),
      PaymentAlreadyInProgress,
    );
    expect(err.error).toBe("PaymentAlreadyInProgress");
    // Without a card (the operation's only 422 body is OrderNotEligibleForRetry).
    const fresh = await createOrder(api.knex, orgId, { customerId: ids.alice, productId: ids.book }, { status: "pending" });
    await rejects(
      portal.customerPortal.orders.confirmRetryPayment(alice, { id: fresh.id, customerOrderConfirmPayment: {} }),
      OrderNotEligibleForRetry,
    );
    await rejects(
      portal.customerPortal.orders.confirmRetryPayment(alice, {
        id: fresh.id,
        customerOrderConfirmPayment: { paymentMethodId: "00000000-0000-4000-8000-000000000000" },
      }),
      OrderNotEligibleForRetry,
    );
    await rejects(
      portal.customerPortal.orders.confirmRetryPayment(bob, {
        id: fresh.id,
        customerOrderConfirmPayment: { confirmationTokenId: "tok_sandbox_success" },
      }),
      ResourceNotFound,
    );
  });

  it("pays a retry with a saved payment method", async () => {
    const order = await createOrder(api.knex, orgId, { customerId: ids.alice, productId: ids.book }, { status: "pending" });
    const pm = await portal.customerPortal.customers.addPaymentMethod(alice, {
      confirmationTokenId: "tok_sandbox_4242424242424242",
      setDefault: true,
      returnUrl: "https://example.com/back",
    });
    // The sandbox charges a saved method by its reference as a token: map it to a success card.
    await api.knex("payment_methods").where({ id: pm.id }).update({ processor_ref: "tok_sandbox_success" });
    const ok = await portal.customerPortal.orders.confirmRetryPayment(alice, {
      id: order.id,
      customerOrderConfirmPayment: { paymentMethodId: pm.id },
    });
    expect(ok.status).toBe("succeeded");
    await rejects(
      portal.customerPortal.orders.confirmRetryPayment(bob, { id: ids.b1, customerOrderConfirmPayment: { paymentMethodId: pm.id } }),
      OrderNotEligibleForRetry,
    );
  });

  it("adds, lists, defaults and deletes saved cards", async () => {
    const k = api.knex;
    const carol = await createCustomer(k, orgId);
    const sec = { customerSession: await createCustomerSessionToken(k, carol.id) };
    const first = await portal.customerPortal.customers.addPaymentMethod(sec, {
      confirmationTokenId: "tok_sandbox_success",
      setDefault: false,
      returnUrl: "https://example.com",
    });
    expect(first).toMatchObject({ customerId: carol.id, processor: "stripe", type: "card" });
    expect((first as { methodMetadata: { brand: string; last4: string } }).methodMetadata).toMatchObject({ brand: "visa", last4: "4242" });
    const second = await portal.customerPortal.customers.addPaymentMethod(sec, {
      confirmationTokenId: "5555555555554444",
      setDefault: true,
      returnUrl: "https://example.com",
    });
    expect((second as { methodMetadata: { brand: string } }).methodMetadata.brand).toBe("mastercard");
    const defaults = await k("payment_methods").where({ customer_id: carol.id, is_default: true }).pluck("id");
    expect(defaults).toEqual([second.id]);

    const listed = await portal.customerPortal.customers.listPaymentMethods(sec, {});
    expect(listed.result.items.map((m) => m.id)).toEqual([second.id, first.id]);
    expect(listed.result.pagination).toEqual({ totalCount: 2, maxPage: 1 });
    // Another customer's cards are not listed nor deletable.
    expect((await portal.customerPortal.customers.listPaymentMethods(bob, {})).result.items).toEqual([]);
    await rejects(portal.customerPortal.customers.deletePaymentMethod(bob, { id: first.id }), ResourceNotFound);

    await rejects(
      portal.customerPortal.customers.addPaymentMethod(sec, {
        confirmationTokenId: "tok_unknown",
        setDefault: false,
        returnUrl: "https://example.com",
      }),
      HTTPValidationError,
    );

    // Carol has no subscription: nothing blocks a delete (a card paying one: the next test).
    await portal.customerPortal.customers.deletePaymentMethod(sec, { id: second.id });
    expect((await portal.customerPortal.customers.listPaymentMethods(sec, {})).result.items.map((m) => m.id)).toEqual([first.id]);
    await rejects(portal.customerPortal.customers.deletePaymentMethod(sec, { id: second.id }), ResourceNotFound);
    // A card saved by a checkout has brand and last4 only: it still lists in the contract's shape.
    const fromCheckout = await createPaymentMethod(k, orgId, carol.id, { method_metadata: { brand: "visa", last4: "1881" } });
    const again = await portal.customerPortal.customers.listPaymentMethods(sec, {});
    expect(again.result.items.find((m) => m.id === fromCheckout.id)).toMatchObject({
      methodMetadata: { brand: "visa", last4: "1881", expMonth: 0, expYear: 0 },
    });
    const foreignOrg = await orgWithToken(k);
    const fc = await createCustomer(k, foreignOrg.org.id);
    const foreignPm = await createPaymentMethod(k, foreignOrg.org.id, fc.id);
    await rejects(portal.customerPortal.customers.deletePaymentMethod(sec, { id: foreignPm.id }), ResourceNotFound);
  });

  it("answers 0.49.0 with the saved card under payment_method, or the 3-D Secure it needs first", async () => {
    const k = api.knex;
    const dave = await createCustomer(k, orgId);
    const sec = { customerSession: await createCustomerSessionToken(k, dave.id) };
    const newer = new Polar049({ serverURL: api.url }).customerPortal.customers;
    const saved = await newer.addPaymentMethod(sec, {
      confirmationTokenId: "tok_sandbox_success",
      setDefault: true,
      returnUrl: "https://example.com",
    });
    expect(saved).toMatchObject({
      status: "succeeded",
      paymentMethod: { customerId: dave.id, type: "card", methodMetadata: { brand: "visa", last4: "4242" } },
    });
    // A card its holder must authenticate: the setup's client secret, and nothing saved (0.34.17 cannot read this answer).
    const pending = await newer.addPaymentMethod(sec, {
      confirmationTokenId: "tok_sandbox_requires_action",
      setDefault: true,
      returnUrl: "https://example.com",
    });
    expect(pending).toEqual({ status: "requires_action", clientSecret: expect.stringMatching(/^seti_sandbox_\w+_secret$/) });
    const listed = await newer.listPaymentMethods(sec, {});
    expect(listed.result.items.map((m) => m.id)).toEqual([saved.status === "succeeded" ? saved.paymentMethod.id : ""]);
    expect(await k("payment_methods").where({ customer_id: dave.id, is_default: true }).pluck("id")).toEqual(
      listed.result.items.map((m) => m.id),
    );
  });

  describe("a card that pays a subscription", () => {
    // The lifecycle workflow is not under test here: the revoke's after-commit poke goes nowhere.
    beforeAll(() => setWorkflowsDoor({ pokeSubscriptions: async () => {} }));
    afterAll(() => setWorkflowsDoor(null));

    it("cannot be deleted while the subscription is live, and can once it is revoked", async () => {
      const k = api.knex;
      const { org, token } = await orgWithToken(k);
      const sub = await createSubscriptionFixture(k, { startedAt: new Date(), organizationId: org.id });
      const sec = { customerSession: await createCustomerSessionToken(k, sub.customerId) };
      const spare = await portal.customerPortal.customers.addPaymentMethod(sec, {
        confirmationTokenId: "tok_sandbox_success",
        setDefault: false,
        returnUrl: "https://example.com",
      });

      for (const status of ["active", "trialing", "past_due"]) {
        await k("subscriptions").where({ id: sub.subscription.id }).update({ status });
        const err = await rejects(
          portal.customerPortal.customers.deletePaymentMethod(sec, { id: sub.paymentMethodId }),
          PaymentMethodInUseByActiveSubscription,
        );
        expect(err.data$).toMatchObject({ error: "PaymentMethodInUseByActiveSubscription" });
        expect(err.data$.detail).toMatch(/active subscription/);
      }
      // Refused means untouched: the card still lists, and another card of the customer still deletes.
      const listed = (await portal.customerPortal.customers.listPaymentMethods(sec, {})).result.items.map((m) => m.id);
      expect(listed.sort()).toEqual([sub.paymentMethodId, spare.id].sort());
      await portal.customerPortal.customers.deletePaymentMethod(sec, { id: spare.id });

      await k("subscriptions").where({ id: sub.subscription.id }).update({ status: "active" });
      const revoked = await new Polar({ accessToken: token, serverURL: api.url }).subscriptions.revoke({ id: sub.subscription.id });
      expect(revoked.status).toBe("canceled");
      await portal.customerPortal.customers.deletePaymentMethod(sec, { id: sub.paymentMethodId });
      expect((await portal.customerPortal.customers.listPaymentMethods(sec, {})).result.items).toEqual([]);
    });
  });
});
