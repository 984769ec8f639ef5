// The buyer's confirm through the official client, on the sandbox processor: one-time fixed,
// pay-what-you-want, free, fixed and percentage discount codes, a 100% discount, declines, a
// subscription product, customer matching; and the races: 50 concurrent confirms of one checkout
// make one order and one charge; a discount with max_redemptions 5 over 50 checkouts redeems 5.
import { invalid } from "../harness/index.js";
import { describe, expect, it, beforeAll } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import { HTTPValidationError } from "@polar-sh/sdk/models/errors/httpvalidationerror.js";
import { NotOpenCheckout } from "@polar-sh/sdk/models/errors/notopencheckout.js";
import { PaymentError } from "@polar-sh/sdk/models/errors/paymenterror.js";
import { PaymentNotReady } from "@polar-sh/sdk/models/errors/paymentnotready.js";
import { ResourceNotFound } from "@polar-sh/sdk/models/errors/resourcenotfound.js";
import {
  createCheckoutProduct,
  createCustomer,
  createCustomField,
  createDiscount,
  orgWithToken,
  outboxTypes,
  rejects,
  useTestApi,
} from "../harness/index.js";
import { hashToken } from "../../server/kit/auth.js";

const api = useTestApi();

describe("checkout confirm", () => {
  let polar: Polar;
  let anon: Polar;
  let orgId: string;
  let fixed: { id: string };

  // A paid checkout asks for the billing country; FR needs no other line.
  const confirm = (secret: string, body: Record<string, unknown>) =>
    anon.checkouts.clientConfirm({
      clientSecret: secret,
      checkoutConfirmStripe: invalid({ customerBillingAddress: { country: "FR" }, ...body }),
    });
  const orders = (checkoutId: string) => api.knex("orders").where({ checkout_id: checkoutId });
  const payments = (checkoutId: string) => api.knex("payments").where({ checkout_id: checkoutId });

  beforeAll(async () => {
    const { org, token } = await orgWithToken(api.knex);
    orgId = org.id;
    polar = api.client(token);
    anon = new (polar.constructor as new (o: { serverURL: string }) => Polar)({ serverURL: api.url });
    fixed = (await createCheckoutProduct(api.knex, org.id, { name: "Fixed" })).product;
  });

  it("pays a one-time fixed price: customer, paid order, payment, session token", async () => {
    const checkout = await polar.checkouts.create({ products: [fixed.id] });
    const confirmed = await confirm(checkout.clientSecret, {
      customerEmail: "first@example.com",
      customerName: "First",
      confirmationTokenId: "tok_sandbox_success",
    });
    expect(confirmed.status).toBe("confirmed");
    expect(confirmed.customerSessionToken).toMatch(/^polar_cst_/);
    const session = await api
      .knex("customer_sessions")
      .where({ token_hash: hashToken(confirmed.customerSessionToken) })
      .first();
    expect(session).toBeTruthy();
    const after = await polar.checkouts.get({ id: checkout.id });
    expect(after.status).toBe("succeeded");
    expect(after.customerId).toBe(session.customer_id);
    const [order] = await orders(checkout.id);
    expect(order).toMatchObject({ status: "paid", billing_reason: "purchase", customer_id: session.customer_id });
    expect(Number(order.subtotal_amount)).toBe(2500);
    const [payment] = await payments(checkout.id);
    expect(payment).toMatchObject({
      status: "succeeded",
      order_id: order.id,
      method: "card",
      method_metadata: { brand: "visa", last4: "4242" },
    });
    expect(Number(payment.amount)).toBe(2500);
    const types = await outboxTypes(api.knex, orgId);
    for (const t of ["checkout.created", "checkout.updated", "customer.created", "order.created", "order.paid"]) expect(types).toContain(t);
    // Confirmed already: a second confirm is not open.
    await rejects(confirm(checkout.clientSecret, { confirmationTokenId: "tok_sandbox_success" }), NotOpenCheckout);
    await rejects(
      anon.checkouts.clientUpdate({ clientSecret: checkout.clientSecret, checkoutUpdatePublic: { customerName: "x" } }),
      NotOpenCheckout,
    );
    expect((await anon.checkouts.clientGet({ clientSecret: checkout.clientSecret })).status).toBe("succeeded");
  });

  it("answers 404 to another organization's token on confirm", async () => {
    const { token } = await orgWithToken(api.knex);
    const checkout = await polar.checkouts.create({ products: [fixed.id] });
    await rejects(
      api.client(token).checkouts.clientConfirm({
        clientSecret: checkout.clientSecret,
        checkoutConfirmStripe: {
          customerEmail: "x@example.com",
          customerBillingAddress: { country: "FR" },
          confirmationTokenId: "tok_sandbox_success",
        },
      }),
      ResourceNotFound,
    );
  });

  it("answers PaymentNotReady when a denied organization would take a payment", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const client = api.client(token);
    const { product } = await createCheckoutProduct(api.knex, org.id);
    await api.knex("organizations").where({ id: org.id }).update({ status: "denied" });
    const checkout = await client.checkouts.create({ products: [product.id] });
    await rejects(
      confirm(checkout.clientSecret, { customerEmail: "denied@example.com", confirmationTokenId: "tok_sandbox_success" }),
      PaymentNotReady,
    );
    expect((await client.checkouts.get({ id: checkout.id })).status).toBe("open");
  });

  it("matches an existing customer by email, case-insensitively; a merchant token is accepted", async () => {
    const customer = await createCustomer(api.knex, orgId, { email: "Known.Buyer@Example.com" });
    const checkout = await polar.checkouts.create({ products: [fixed.id] });
    await polar.checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: {
        customerEmail: "known.buyer@example.com",
        customerBillingAddress: { country: "FR" },
        confirmationTokenId: "4242424242424242",
      },
    });
    expect((await polar.checkouts.get({ id: checkout.id })).customerId).toBe(customer.id);
  });

  it("creates the customer with the merchant's external id, and finds it by that id next time", async () => {
    const first = await polar.checkouts.create({ products: [fixed.id], externalCustomerId: "ext-42", customerMetadata: { source: "ads" } });
    expect(first).toMatchObject({ externalCustomerId: "ext-42", customerExternalId: "ext-42", customerId: null });
    await confirm(first.clientSecret, { customerEmail: "ext42@example.com", confirmationTokenId: "tok_sandbox_success" });
    const customer = await api.knex("customers").where({ organization_id: orgId, external_id: "ext-42" }).first();
    expect(customer).toMatchObject({ email: "ext42@example.com", metadata: { source: "ads" } });
    const second = await polar.checkouts.create({ products: [fixed.id], externalCustomerId: "ext-42" });
    expect(second).toMatchObject({ customerId: customer.id, customerEmail: "ext42@example.com" });
  });

  it("pays what the buyer wants, within bounds", async () => {
    const { product } = await createCheckoutProduct(api.knex, orgId, {
      name: "Tip",
      price: { amount_type: "custom", price_currency: "usd", minimum_amount: 500, maximum_amount: 5000 },
    });
    const checkout = await polar.checkouts.create({ products: [product.id] });
    await rejects(
      anon.checkouts.clientUpdate({ clientSecret: checkout.clientSecret, checkoutUpdatePublic: { amount: 9000 } }),
      HTTPValidationError,
    );
    await rejects(
      confirm(checkout.clientSecret, { amount: 9000, customerEmail: "pwyw@example.com", confirmationTokenId: "tok_sandbox_success" }),
      HTTPValidationError,
    );
    const shown = await anon.checkouts.clientUpdate({ clientSecret: checkout.clientSecret, checkoutUpdatePublic: { amount: 1234 } });
    expect(shown.totalAmount).toBe(1234);
    await confirm(checkout.clientSecret, { amount: 1234, customerEmail: "pwyw@example.com", confirmationTokenId: "tok_sandbox_success" });
    const [payment] = await payments(checkout.id);
    expect(Number(payment.amount)).toBe(1234);
  });

  it("confirms a free product without a payment", async () => {
    const { product } = await createCheckoutProduct(api.knex, orgId, {
      name: "Free",
      price: { amount_type: "fixed", price_amount: 0, price_currency: "usd" },
    });
    const checkout = await polar.checkouts.create({ products: [product.id] });
    expect(checkout).toMatchObject({
      isFreeProductPrice: true,
      isPaymentRequired: false,
      isPaymentFormRequired: false,
      isDiscountApplicable: false,
      totalAmount: 0,
    });
    await confirm(checkout.clientSecret, { customerEmail: "free@example.com" });
    expect((await orders(checkout.id))[0]).toMatchObject({ status: "paid" });
    expect(await payments(checkout.id)).toHaveLength(0);
  });

  it("applies a fixed and a percentage discount code, and a 100% discount", async () => {
    const fixedOff = await createDiscount(api.knex, orgId, {
      code: "FIVEOFF",
      type: "fixed",
      amount: 500,
      currency: "usd",
      basis_points: null,
    });
    const pct = await createDiscount(api.knex, orgId, { code: "QUARTER", basis_points: 2500 });
    const all = await createDiscount(api.knex, orgId, { code: "ALLFREE", basis_points: 10000 });

    const a = await polar.checkouts.create({ products: [fixed.id] });
    const withFixed = await anon.checkouts.clientUpdate({
      clientSecret: a.clientSecret,
      checkoutUpdatePublic: { discountCode: "fiveoff" },
    });
    expect(withFixed).toMatchObject({ discountId: fixedOff.id, discountAmount: 500, netAmount: 2000, totalAmount: 2000 });
    await confirm(a.clientSecret, { customerEmail: "d1@example.com", confirmationTokenId: "tok_sandbox_success" });
    expect(Number((await payments(a.id))[0].amount)).toBe(2000);
    expect((await api.knex("discounts").where({ id: fixedOff.id }).first()).redemptions_count).toBe(1);

    const b = await polar.checkouts.create({ products: [fixed.id] });
    // A code first given with the confirm: the buyer has not seen that total yet, so nothing is
    // charged; the checkout now shows it, and the next confirm pays it.
    const unseen = await rejects(
      confirm(b.clientSecret, { discountCode: "QUARTER", customerEmail: "d2@example.com", confirmationTokenId: "tok_sandbox_success" }),
      HTTPValidationError,
    );
    expect(unseen.detail?.[0]?.loc).toEqual(["body", "discount_code"]);
    expect(await payments(b.id)).toHaveLength(0);
    expect(await anon.checkouts.clientGet({ clientSecret: b.clientSecret })).toMatchObject({
      status: "open",
      discountId: pct.id,
      totalAmount: 1875,
    });
    await confirm(b.clientSecret, { discountCode: "QUARTER", customerEmail: "d2@example.com", confirmationTokenId: "tok_sandbox_success" });
    const [orderB] = await orders(b.id);
    expect(Number(orderB.discount_amount)).toBe(625);
    expect(orderB.discount_id).toBe(pct.id);
    expect(Number((await payments(b.id))[0].amount)).toBe(1875);

    const c = await polar.checkouts.create({ products: [fixed.id] });
    const free = await anon.checkouts.clientUpdate({ clientSecret: c.clientSecret, checkoutUpdatePublic: { discountCode: "ALLFREE" } });
    expect(free).toMatchObject({ totalAmount: 0, isPaymentRequired: false, isPaymentFormRequired: false, discountId: all.id });
    await confirm(c.clientSecret, { customerEmail: "d3@example.com" });
    expect((await orders(c.id))[0]).toMatchObject({ status: "paid" });
    expect(await payments(c.id)).toHaveLength(0);
  });

  it("enforces every discount rule: window, redemptions, product, currency, allow flag", async () => {
    const other = (await createCheckoutProduct(api.knex, orgId, { name: "Other" })).product;
    await createDiscount(api.knex, orgId, { code: "ENDED", ends_at: new Date(Date.now() - 60_000) });
    await createDiscount(api.knex, orgId, { code: "LATER", starts_at: new Date(Date.now() + 3600_000) });
    await createDiscount(api.knex, orgId, { code: "USEDUP", max_redemptions: 1, redemptions_count: 1 });
    await createDiscount(api.knex, orgId, { code: "EUROS", type: "fixed", amount: 100, currency: "eur", basis_points: null });
    const restricted = await createDiscount(api.knex, orgId, { code: "ONLYOTHER" });
    await api.knex("discount_products").insert({ discount_id: restricted.id, product_id: other.id });

    const checkout = await polar.checkouts.create({ products: [fixed.id, other.id] });
    const apply = (code: string) =>
      anon.checkouts.clientUpdate({ clientSecret: checkout.clientSecret, checkoutUpdatePublic: { discountCode: code } });
    for (const code of ["ENDED", "LATER", "USEDUP", "EUROS", "ONLYOTHER", "NOSUCHCODE"]) await rejects(apply(code), HTTPValidationError);
    const onOther = await anon.checkouts.clientUpdate({
      clientSecret: checkout.clientSecret,
      checkoutUpdatePublic: { productId: other.id, discountCode: "ONLYOTHER" },
    });
    expect(onOther.discountId).toBe(restricted.id);
    // Switching back to a product the discount does not cover drops it.
    const back = await anon.checkouts.clientUpdate({ clientSecret: checkout.clientSecret, checkoutUpdatePublic: { productId: fixed.id } });
    expect(back.discountId).toBeNull();

    const closed = await polar.checkouts.create({ products: [other.id], allowDiscountCodes: false });
    await rejects(
      anon.checkouts.clientUpdate({ clientSecret: closed.clientSecret, checkoutUpdatePublic: { discountCode: "ONLYOTHER" } }),
      HTTPValidationError,
    );
  });

  it("a decline leaves the checkout open for another card, with no order and the discount released; the next card pays", async () => {
    const discount = await createDiscount(api.knex, orgId, { code: "DECLINED10", max_redemptions: 3 });
    let paid = 0;
    for (const [token, message] of [
      ["tok_sandbox_decline", /declined/],
      ["4000000000009995", /insufficient/],
    ] as const) {
      const checkout = await polar.checkouts.create({ products: [fixed.id] });
      await anon.checkouts.clientUpdate({ clientSecret: checkout.clientSecret, checkoutUpdatePublic: { discountCode: "DECLINED10" } });
      const err = await rejects(
        confirm(checkout.clientSecret, {
          customerEmail: `declined-${token}@example.com`,
          discountCode: "DECLINED10",
          confirmationTokenId: token,
        }),
        PaymentError,
      );
      expect(err.message).toMatch(message);
      expect((await polar.checkouts.get({ id: checkout.id })).status).toBe("open");
      expect(await orders(checkout.id)).toHaveLength(0);
      const [payment] = await payments(checkout.id);
      expect(payment).toMatchObject({ status: "failed", order_id: null });
      expect((await api.knex("discounts").where({ id: discount.id }).first()).redemptions_count).toBe(paid);
      expect(await api.knex("customers").where({ organization_id: orgId }).whereILike("email", "declined-%")).toHaveLength(paid);
      // A second decline is a charge of its own (its own idempotency key), not the first one answered again.
      await rejects(confirm(checkout.clientSecret, { confirmationTokenId: "tok_sandbox_decline" }), PaymentError);
      expect(await payments(checkout.id)).toHaveLength(2);
      // Then a good card pays it, with the code applied again.
      const confirmed = await confirm(checkout.clientSecret, { discountCode: "DECLINED10", confirmationTokenId: "tok_sandbox_success" });
      expect(confirmed.status).toBe("confirmed");
      paid += 1;
      expect((await polar.checkouts.get({ id: checkout.id })).status).toBe("succeeded");
      expect(await orders(checkout.id)).toHaveLength(1);
      expect((await payments(checkout.id)).map((p: { status: string }) => p.status).sort()).toEqual(["failed", "failed", "succeeded"]);
      await rejects(confirm(checkout.clientSecret, { confirmationTokenId: "tok_sandbox_success" }), NotOpenCheckout);
    }
    expect((await api.knex("discounts").where({ id: discount.id }).first()).redemptions_count).toBe(2);
  });

  it("requires what confirm needs: email, payment token, required fields, billing address", async () => {
    const field = await createCustomField(api.knex, orgId, { slug: "company-confirm" });
    const { product } = await createCheckoutProduct(api.knex, orgId, { name: "Needs", customFields: [{ id: field.id, required: true }] });
    const checkout = await polar.checkouts.create({ products: [product.id], requireBillingAddress: true });
    await rejects(confirm(checkout.clientSecret, { confirmationTokenId: "tok_sandbox_success" }), HTTPValidationError);
    await rejects(confirm(checkout.clientSecret, { customerEmail: "needs@example.com" }), HTTPValidationError);
    await rejects(
      confirm(checkout.clientSecret, { customerEmail: "needs@example.com", confirmationTokenId: "tok_sandbox_success" }),
      HTTPValidationError,
    );
    await rejects(
      confirm(checkout.clientSecret, {
        customerEmail: "needs@example.com",
        customFieldData: { "company-confirm": "Acme" },
        confirmationTokenId: "tok_sandbox_success",
        customerBillingAddress: { country: "FR" },
      }),
      HTTPValidationError,
    );
    expect((await polar.checkouts.get({ id: checkout.id })).status).toBe("open");
    await confirm(checkout.clientSecret, {
      customerEmail: "needs@example.com",
      customFieldData: { "company-confirm": "Acme" },
      customerBillingAddress: { country: "FR", line1: "1 rue de Rivoli", city: "Paris", postalCode: "75001" },
      confirmationTokenId: "tok_sandbox_success",
    });
    const [order] = await orders(checkout.id);
    expect(order.custom_field_data).toEqual({ "company-confirm": "Acme" });
    expect(order.billing_address).toMatchObject({ country: "FR", city: "Paris" });
  });

  it("creates a subscription_create order for a recurring product", async () => {
    const { product } = await createCheckoutProduct(api.knex, orgId, { name: "Monthly", recurringInterval: "month" });
    const checkout = await polar.checkouts.create({ products: [product.id] });
    expect(checkout.isPaymentSetupRequired).toBe(true);
    await confirm(checkout.clientSecret, { customerEmail: "sub@example.com", confirmationTokenId: "tok_sandbox_success" });
    const [order] = await orders(checkout.id);
    expect(order).toMatchObject({ billing_reason: "subscription_create", status: "paid" });
    // The card is kept for renewals: saved, default, on the customer's processor customer.
    const [method] = await api.knex("payment_methods").where({ customer_id: order.customer_id });
    expect(method).toMatchObject({ is_default: true, method_metadata: { brand: "visa", last4: "4242" } });
    expect(await api.knex("processor_customers").where({ customer_id: order.customer_id })).toHaveLength(1);

    // A 100% discount on a subscription still asks for a card, and saves it without a charge.
    await createDiscount(api.knex, orgId, { code: "SUBFREE", basis_points: 10000 });
    const free = await polar.checkouts.create({ products: [product.id] });
    const updated = await anon.checkouts.clientUpdate({
      clientSecret: free.clientSecret,
      checkoutUpdatePublic: { discountCode: "SUBFREE" },
    });
    expect(updated).toMatchObject({ totalAmount: 0, isPaymentRequired: false, isPaymentSetupRequired: true, isPaymentFormRequired: true });
    await rejects(confirm(free.clientSecret, { customerEmail: "subfree@example.com" }), HTTPValidationError);
    await confirm(free.clientSecret, { customerEmail: "subfree@example.com", confirmationTokenId: "tok_sandbox_success" });
    const [freeOrder] = await orders(free.id);
    expect(await payments(free.id)).toHaveLength(0);
    expect(await api.knex("payment_methods").where({ customer_id: freeOrder.customer_id })).toHaveLength(1);
  });

  it("50 concurrent confirms of one checkout: one order, one charge, the rest NotOpenCheckout", async () => {
    const checkout = await polar.checkouts.create({ products: [fixed.id] });
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () =>
        confirm(checkout.clientSecret, { customerEmail: "race@example.com", confirmationTokenId: "tok_sandbox_success" }),
      ),
    );
    const ok = results.filter((r) => r.status === "fulfilled");
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(ok).toHaveLength(1);
    expect(rejected.every((r) => r.reason instanceof NotOpenCheckout)).toBe(true);
    expect(await orders(checkout.id)).toHaveLength(1);
    expect(await payments(checkout.id)).toHaveLength(1);
  });

  it("max_redemptions 5 over 50 concurrent checkouts: exactly 5 redeemed", async () => {
    const discount = await createDiscount(api.knex, orgId, { code: "FIRSTFIVE", max_redemptions: 5 });
    const checkouts = await Promise.all(Array.from({ length: 50 }, () => polar.checkouts.create({ products: [fixed.id] })));
    // Every buyer sees the discounted total (nothing is redeemed before a confirm)...
    for (const c of checkouts) {
      const shown = await anon.checkouts.clientUpdate({
        clientSecret: c.clientSecret,
        checkoutUpdatePublic: { discountCode: "FIRSTFIVE" },
      });
      expect(shown.totalAmount).toBe(2250);
    }
    const results = await Promise.allSettled(
      checkouts.map((c, i) =>
        confirm(c.clientSecret, {
          customerEmail: `five-${i}@example.com`,
          discountCode: "FIRSTFIVE",
          confirmationTokenId: "tok_sandbox_success",
        }),
      ),
    );
    // ...five pay it, and the others are refused on the code: none is charged the full price.
    const ok = results.filter((r) => r.status === "fulfilled");
    expect(ok).toHaveLength(5);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected").map((r) => r.reason);
    expect(refused.every((e) => e instanceof HTTPValidationError && e.detail?.[0]?.loc.join(".") === "body.discount_code")).toBe(true);
    expect((await api.knex("discounts").where({ id: discount.id }).first()).redemptions_count).toBe(5);
    expect(await api.knex("orders").where({ discount_id: discount.id })).toHaveLength(5);
    const charged = await api.knex("payments").whereIn(
      "checkout_id",
      checkouts.map((c) => c.id),
    );
    expect(charged.map((p) => Number(p.amount))).toEqual([2250, 2250, 2250, 2250, 2250]);
  });
});
