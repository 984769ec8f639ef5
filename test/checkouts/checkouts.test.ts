// Checkouts, merchant side, through the official client: create from products (price choice,
// custom amounts, customer prefill, discount, metadata, success_url), get, update, list with
// every filter and sort key, expiry; the buyer's client-secret get and update.
import { invalid } from "../harness/index.js";
import { describe, expect, it, beforeAll } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import { HTTPValidationError } from "@polar-sh/sdk/models/errors/httpvalidationerror.js";
import { ResourceNotFound } from "@polar-sh/sdk/models/errors/resourcenotfound.js";
import { ExpiredCheckoutError } from "@polar-sh/sdk/models/errors/expiredcheckouterror.js";
import { NotOpenCheckout } from "@polar-sh/sdk/models/errors/notopencheckout.js";
import { Polar as Polar049 } from "polar-sdk-049";
import { HTTPValidationError as HTTPValidationError049 } from "polar-sdk-049/models/errors/httpvalidationerror.js";
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

const api = useTestApi();
/** A 422's issues as [loc, type] pairs. */
const issue = async (p: Promise<unknown>) => (await rejects(p, HTTPValidationError)).detail?.map((d) => [d.loc.join("."), d.type]);

describe("checkouts (merchant)", () => {
  let polar: Polar;
  let orgId: string;
  let fixed: { id: string };
  let custom: { id: string };
  let customPrice: { id: string };

  beforeAll(async () => {
    const { org, token } = await orgWithToken(api.knex);
    orgId = org.id;
    polar = api.client(token);
    fixed = (await createCheckoutProduct(api.knex, org.id, { name: "Fixed" })).product;
    const c = await createCheckoutProduct(api.knex, org.id, {
      name: "Tip",
      price: { amount_type: "custom", price_currency: "usd", minimum_amount: 500, maximum_amount: 10000, preset_amount: 1500 },
    });
    custom = c.product;
    customPrice = c.price;
  });

  it("creates from a products list with computed amounts and flags", async () => {
    const checkout = await polar.checkouts.create({
      products: [fixed.id, custom.id],
      metadata: { ref: "abc" },
      customerMetadata: { plan: "pro" },
      successUrl: "https://shop.example/thanks?checkout_id={CHECKOUT_ID}",
      embedOrigin: "https://shop.example",
    });
    expect(checkout).toMatchObject({
      status: "open",
      productId: fixed.id,
      amount: 2500,
      discountAmount: 0,
      netAmount: 2500,
      taxAmount: 0,
      totalAmount: 2500,
      currency: "usd",
      isFreeProductPrice: false,
      isPaymentRequired: true,
      isPaymentSetupRequired: false,
      isPaymentFormRequired: true,
      isDiscountApplicable: true,
      allowDiscountCodes: true,
      requireBillingAddress: false,
      metadata: { ref: "abc" },
      customerMetadata: { plan: "pro" },
      embedOrigin: "https://shop.example",
    });
    expect(checkout.successUrl).toBe(`https://shop.example/thanks?checkout_id=${checkout.id}`);
    expect(checkout.products.map((p) => p.id)).toEqual([fixed.id, custom.id]);
    expect(checkout.expiresAt.getTime()).toBeGreaterThan(Date.now());
    expect(await polar.checkouts.get({ id: checkout.id })).toEqual(checkout);
    expect(await outboxTypes(api.knex, orgId)).toContain("checkout.created");
  });

  it("chooses a custom price and amount within its bounds", async () => {
    const checkout = await polar.checkouts.create({ products: [custom.id], amount: 3000 });
    expect(checkout).toMatchObject({ productPriceId: customPrice.id, amount: 3000, totalAmount: 3000 });
    const preset = await polar.checkouts.create({ products: [custom.id] });
    expect(preset.amount).toBe(1500);
    await rejects(polar.checkouts.create({ products: [custom.id], amount: 100 }), HTTPValidationError);
    await rejects(polar.checkouts.create({ products: [custom.id], amount: 20000 }), HTTPValidationError);
    // Only the checkout's own products can be selected.
    await rejects(polar.checkouts.update({ id: checkout.id, checkoutUpdate: { productId: fixed.id } }), HTTPValidationError);
    const both = await polar.checkouts.create({ products: [fixed.id, custom.id] });
    const moved = await polar.checkouts.update({ id: both.id, checkoutUpdate: { productPriceId: customPrice.id, amount: 700 } });
    expect(moved).toMatchObject({ productId: custom.id, amount: 700 });
  });

  it("prefills from a customer and applies a merchant discount", async () => {
    const customer = await createCustomer(api.knex, orgId, {
      name: "Ada",
      billing_address: JSON.stringify({ country: "FR", line1: null, line2: null, city: null, postal_code: null, state: null }),
    });
    const discount = await createDiscount(api.knex, orgId, { type: "fixed", amount: 1000, currency: "usd", basis_points: null });
    const checkout = await polar.checkouts.create({ products: [fixed.id], customerId: customer.id, discountId: discount.id });
    expect(checkout).toMatchObject({
      customerId: customer.id,
      customerEmail: customer.email,
      customerName: "Ada",
      discountId: discount.id,
      discountAmount: 1000,
      netAmount: 1500,
      totalAmount: 1500,
    });
    expect(checkout.customerBillingAddress?.country).toBe("FR");
    await rejects(
      polar.checkouts.create({ products: [fixed.id], customerId: "00000000-0000-0000-0000-000000000000" }),
      HTTPValidationError,
    );
    const cleared = await polar.checkouts.update({ id: checkout.id, checkoutUpdate: { discountId: null, customerName: "Ada L." } });
    expect(cleared).toMatchObject({ discountId: null, totalAmount: 2500, customerName: "Ada L." });
  });

  it("refuses a customer email longer than RFC 5321 allows (254 characters, 64 before the @)", async () => {
    const overlong = `${"b".repeat(65)}@example.com`;
    expect(await issue(polar.checkouts.create({ products: [fixed.id], customerEmail: overlong }))).toEqual([
      ["body.customer_email", "value_error"],
    ]);
    const checkout = await polar.checkouts.create({ products: [fixed.id] });
    expect(
      await issue(polar.checkouts.update({ id: checkout.id, checkoutUpdate: { customerEmail: `buyer@${"d".repeat(250)}.com` } })),
    ).toEqual([["body.customer_email", "value_error"]]);
    expect(
      await issue(polar.checkouts.clientUpdate({ clientSecret: checkout.clientSecret, checkoutUpdatePublic: { customerEmail: overlong } })),
    ).toEqual([["body.customer_email", "value_error"]]);
    expect((await api.knex("checkouts").where({ id: checkout.id }).first()).customer_email).toBeNull();
  });

  it("takes customer_ip_address only as an IPv4 or IPv6 address", async () => {
    for (const bad of ["not-an-ip", "256.1.1.1", "1.2.3", "<script>", "2001:db8::g", ""]) {
      expect(await issue(polar.checkouts.create({ products: [fixed.id], customerIpAddress: bad })), bad).toEqual([
        ["body.customer_ip_address", "ip_any_address"],
      ]);
    }
    const v4 = await polar.checkouts.create({ products: [fixed.id], customerIpAddress: "203.0.113.7" });
    expect(v4.customerIpAddress).toBe("203.0.113.7");
    expect(await issue(polar.checkouts.update({ id: v4.id, checkoutUpdate: { customerIpAddress: "example.com" } }))).toEqual([
      ["body.customer_ip_address", "ip_any_address"],
    ]);
    const v6 = await polar.checkouts.update({ id: v4.id, checkoutUpdate: { customerIpAddress: "2001:db8::1" } });
    expect(v6.customerIpAddress).toBe("2001:db8::1");
    expect((await polar.checkouts.update({ id: v4.id, checkoutUpdate: { customerIpAddress: null } })).customerIpAddress).toBeNull();
  });

  it("lists with every filter and sort key", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const client = api.client(token);
    const p1 = (await createCheckoutProduct(api.knex, org.id)).product;
    const p2 = (await createCheckoutProduct(api.knex, org.id)).product;
    const customer = await createCustomer(api.knex, org.id);
    const c1 = await client.checkouts.create({ products: [p1.id], customerEmail: "zed@example.com" });
    const c2 = await client.checkouts.create({ products: [p2.id], customerId: customer.id });
    const c3 = await client.checkouts.create({ products: [p1.id], metadata: { tier: "gold" } });
    await api
      .knex("checkouts")
      .where({ id: c3.id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    const ids = async (req: Parameters<Polar["checkouts"]["list"]>[0]) => (await client.checkouts.list(req)).result.items.map((c) => c.id);
    expect(await ids({})).toEqual([c3.id, c2.id, c1.id]);
    expect(await ids({ productId: p1.id, sorting: ["created_at"] })).toEqual([c1.id, c3.id]);
    expect(await ids({ customerId: customer.id })).toEqual([c2.id]);
    // 0.49.0's filter by the customer's external id.
    await api.knex("customers").where({ id: customer.id }).update({ external_id: "ext-buyer" });
    const newer = new Polar049({ accessToken: token, serverURL: api.url });
    expect((await newer.checkouts.list({ externalCustomerId: "ext-buyer" })).result.items.map((c) => c.id)).toEqual([c2.id]);
    expect((await newer.checkouts.list({ externalCustomerId: ["ext-none"] })).result.items).toEqual([]);
    expect(await ids({ status: "expired" })).toEqual([c3.id]);
    expect(await ids({ status: ["open"], sorting: ["created_at"] })).toEqual([c1.id, c2.id]);
    expect(await ids({ query: "zed@" })).toEqual([c1.id]);
    expect(await ids({ sorting: ["-status", "created_at"] })).toEqual([c1.id, c2.id, c3.id]);
    expect(await ids({ sorting: ["expires_at"] })).toEqual([c3.id, c1.id, c2.id]);
    expect(await ids({ organizationId: org.id, limit: 1 })).toHaveLength(1);
    const pages = [];
    for await (const page of await client.checkouts.list({ limit: 2 })) pages.push(page.result.items.length);
    expect(pages).toEqual([2, 1]);
    await rejects(polar.checkouts.get({ id: c1.id }), ResourceNotFound);
  });

  it("expires: read as expired, client calls answer 410, merchant updates 403", async () => {
    const checkout = await polar.checkouts.create({ products: [fixed.id] });
    await api
      .knex("checkouts")
      .where({ id: checkout.id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expect((await polar.checkouts.get({ id: checkout.id })).status).toBe("expired");
    await rejects(polar.checkouts.clientGet({ clientSecret: checkout.clientSecret }), ExpiredCheckoutError);
    await rejects(
      polar.checkouts.clientUpdate({ clientSecret: checkout.clientSecret, checkoutUpdatePublic: { customerName: "x" } }),
      ExpiredCheckoutError,
    );
    await rejects(
      polar.checkouts.clientConfirm({
        clientSecret: checkout.clientSecret,
        checkoutConfirmStripe: { confirmationTokenId: "tok_sandbox_success" },
      }),
      ExpiredCheckoutError,
    );
    await rejects(polar.checkouts.update({ id: checkout.id, checkoutUpdate: { customerName: "x" } }), NotOpenCheckout);
    const raw = await fetch(`${api.url}/v1/checkouts/client/${checkout.clientSecret}`);
    expect(raw.status).toBe(410);
  });
});

describe("checkouts (client secret)", () => {
  let polar: Polar;
  let orgId: string;
  let product: { id: string };
  let anon: Polar;

  beforeAll(async () => {
    const { org, token } = await orgWithToken(api.knex);
    orgId = org.id;
    polar = api.client(token);
    anon = new (polar.constructor as new (o: { serverURL: string }) => Polar)({ serverURL: api.url });
    const text = await createCustomField(api.knex, org.id, {
      type: "text",
      slug: "company",
      properties: JSON.stringify({ form_label: "Company", min_length: 2, max_length: 10 }),
    });
    const num = await createCustomField(api.knex, org.id, {
      type: "number",
      slug: "seats",
      properties: JSON.stringify({ form_label: "Seats", ge: 1, le: 50 }),
    });
    const select = await createCustomField(api.knex, org.id, {
      type: "select",
      slug: "size",
      properties: JSON.stringify({
        form_label: "Size",
        options: [
          { value: "s", label: "S" },
          { value: "m", label: "M" },
        ],
      }),
    });
    product = (
      await createCheckoutProduct(api.knex, org.id, {
        customFields: [
          { id: text.id, required: true },
          { id: num.id, required: false },
          { id: select.id, required: false },
        ],
      })
    ).product;
  });

  it("gets by client secret with the organization and attached fields", async () => {
    const checkout = await polar.checkouts.create({ products: [product.id] });
    const pub = await anon.checkouts.clientGet({ clientSecret: checkout.clientSecret });
    expect(pub.id).toBe(checkout.id);
    expect(pub.organization.id).toBe(orgId);
    expect(pub.attachedCustomFields.map((f) => f.customField.slug)).toEqual(["company", "seats", "size"]);
    await rejects(anon.checkouts.clientGet({ clientSecret: "polar_c_unknown" }), ResourceNotFound);
  });

  it("validates custom field data, billing address and tax id on update", async () => {
    const checkout = await polar.checkouts.create({ products: [product.id], requireBillingAddress: true });
    const update = (body: Record<string, unknown>) =>
      anon.checkouts.clientUpdate({ clientSecret: checkout.clientSecret, checkoutUpdatePublic: invalid(body) });
    await rejects(update({ customFieldData: { company: "x" } }), HTTPValidationError);
    await rejects(update({ customFieldData: { company: "waytoolongcompany" } }), HTTPValidationError);
    await rejects(update({ customFieldData: { seats: 0 } }), HTTPValidationError);
    await rejects(update({ customFieldData: { seats: "ten" } }), HTTPValidationError);
    await rejects(update({ customFieldData: { size: "xl" } }), HTTPValidationError);
    await rejects(update({ customerEmail: "not-an-email" }), HTTPValidationError);
    await rejects(update({ customerBillingAddress: { country: "ZZ" } }), HTTPValidationError);
    const ok = await update({ customFieldData: { company: "Acme", seats: 5, size: "m" }, customerEmail: "buyer@example.com" });
    expect(ok.customFieldData).toEqual({ company: "Acme", seats: 5, size: "m" });
    expect(ok.billingAddressFields).toMatchObject({ country: "required", line1: "required", city: "required", postalCode: "required" });

    await rejects(update({ isBusinessCustomer: true, customerTaxId: "DE136695976" }), HTTPValidationError); // no country yet
    const business = await update({
      isBusinessCustomer: true,
      customerBillingName: "Acme GmbH",
      customerBillingAddress: { country: "DE", line1: "Hauptstr. 1", city: "Berlin", postalCode: "10115" },
      customerTaxId: "DE136695976",
    });
    expect(business).toMatchObject({ isBusinessCustomer: true, customerTaxId: "DE136695976", customerBillingName: "Acme GmbH" });
    await rejects(update({ customerTaxId: "DE12" }), HTTPValidationError);
    // the right shape, a wrong check digit
    await rejects(update({ customerTaxId: "DE136695977" }), HTTPValidationError);
    expect(await outboxTypes(api.knex, orgId)).toContain("checkout.updated");
  });
});

describe("checkouts with trials (0.49.0)", () => {
  let c49: Polar049;
  let anon49: Polar049;
  let token: string;
  let monthly: { id: string; priceId: string };
  let once: { id: string };
  const DAY = 86_400_000;
  const near = (d: Date | null, ms: number) => expect(Math.abs(d!.getTime() - (Date.now() + ms))).toBeLessThan(60_000);

  beforeAll(async () => {
    token = (await orgWithToken(api.knex)).token;
    c49 = api.client049(token);
    anon49 = new Polar049({ serverURL: api.url });
    const p = await c49.products.create({
      name: "Pro quarterly",
      recurringInterval: "month",
      recurringIntervalCount: 3,
      trialInterval: "day",
      trialIntervalCount: 14,
      prices: [{ amountType: "fixed", priceAmount: 4500, priceCurrency: "usd" }],
    });
    monthly = { id: p.id, priceId: p.prices[0].id };
    once = await c49.products.create({
      name: "Ebook",
      prices: [{ amountType: "fixed", priceAmount: 900, priceCurrency: "usd", taxBehavior: "exclusive" }],
    });
  });

  it("quotes the product's trial: nothing to pay now, a card to save, the price from the trial's end", async () => {
    const checkout = await c49.checkouts.create({ products: [monthly.id], returnUrl: "https://shop.example/pricing" });
    expect(checkout).toMatchObject({
      allowTrial: true,
      activeTrialInterval: "day",
      activeTrialIntervalCount: 14,
      trialInterval: null,
      trialIntervalCount: null,
      amount: 4500,
      totalAmount: 4500,
      isPaymentRequired: false,
      isPaymentSetupRequired: true,
      isPaymentFormRequired: true,
      returnUrl: "https://shop.example/pricing",
      organizationId: checkout.organizationId,
    });
    near(checkout.trialEnd, 14 * DAY);
    expect(Object.keys(checkout.prices!)).toEqual([monthly.id]);
    expect(checkout.prices![monthly.id].map((p) => p.id)).toEqual([monthly.priceId]);
    // The buyer sees the same, and the organization's plan-change settings.
    const pub = await anon49.checkouts.clientGet({ clientSecret: checkout.clientSecret });
    expect(pub).toMatchObject({
      activeTrialInterval: "day",
      activeTrialIntervalCount: 14,
      isPaymentRequired: false,
      returnUrl: "https://shop.example/pricing",
    });
    expect(pub.organization).toMatchObject({ allowCustomerUpdates: true, prorationBehavior: "prorate" });
    // The older client reads it too.
    expect(await api.client(token).checkouts.get({ id: checkout.id })).toMatchObject({
      id: checkout.id,
      isPaymentRequired: false,
      isPaymentSetupRequired: true,
    });
  });

  it("takes the checkout's own trial over the product's, and turns trials off (merchant, then buyer)", async () => {
    const own = await c49.checkouts.create({ products: [monthly.id], trialInterval: "week", trialIntervalCount: 1 });
    expect(own).toMatchObject({ trialInterval: "week", trialIntervalCount: 1, activeTrialInterval: "week", activeTrialIntervalCount: 1 });
    near(own.trialEnd, 7 * DAY);
    const off = await c49.checkouts.create({ products: [monthly.id], allowTrial: false });
    expect(off).toMatchObject({
      allowTrial: false,
      activeTrialInterval: null,
      activeTrialIntervalCount: null,
      trialEnd: null,
      isPaymentRequired: true,
    });
    const back = await c49.checkouts.update({ id: off.id, checkoutUpdate: { allowTrial: true } });
    expect(back).toMatchObject({ allowTrial: true, activeTrialIntervalCount: 14, isPaymentRequired: false });
    const declined = await anon49.checkouts.clientUpdate({ clientSecret: own.clientSecret, checkoutUpdatePublic: { allowTrial: false } });
    expect(declined).toMatchObject({
      allowTrial: false,
      activeTrialInterval: null,
      trialEnd: null,
      isPaymentRequired: true,
      totalAmount: 4500,
    });
    // Half a trial is refused; a one-time product has none, whatever the checkout says.
    const err = await rejects(c49.checkouts.create({ products: [monthly.id], trialInterval: "day" }), HTTPValidationError049);
    expect(err.detail?.map((d) => d.loc)).toEqual([["body", "trial_interval_count"]]);
    const oneTime = await c49.checkouts.create({ products: [once.id], trialInterval: "day", trialIntervalCount: 3 });
    expect(oneTime).toMatchObject({ trialInterval: "day", activeTrialInterval: null, trialEnd: null, isPaymentRequired: true });
  });

  it("gives no second trial to a buyer who had one when the organization prevents trial abuse", async () => {
    const made = await orgWithToken(api.knex);
    const polar = api.client049(made.token);
    const product = await polar.products.create({
      name: "Try me",
      recurringInterval: "month",
      trialInterval: "day",
      trialIntervalCount: 7,
      prices: [{ amountType: "fixed", priceAmount: 1000, priceCurrency: "usd" }],
    });
    const email = "trial-again@example.com";
    const withEmail = async () => {
      const checkout = await polar.checkouts.create({ products: [product.id] });
      return anon49.checkouts.clientUpdate({
        clientSecret: checkout.clientSecret,
        checkoutUpdatePublic: { customerEmail: email.toUpperCase() },
      });
    };
    // A first trial, taken.
    const first = await withEmail();
    expect(first.trialEnd).not.toBeNull();
    await anon49.checkouts.clientConfirm({
      clientSecret: first.clientSecret,
      checkoutConfirmStripe: { customerBillingAddress: { country: "FR" }, confirmationTokenId: "tok_sandbox_success" },
    });
    const settings = (await polar.organizations.get({ id: made.org.id })).subscriptionSettings;
    // Without the setting, the same buyer is offered a trial again; with it, no trial and the price now.
    expect((await withEmail()).trialEnd).not.toBeNull();
    await polar.organizations.update({
      id: made.org.id,
      organizationUpdate: { subscriptionSettings: { ...settings, preventTrialAbuse: true } },
    });
    const again = await withEmail();
    expect(again).toMatchObject({ trialEnd: null, activeTrialInterval: null, isPaymentRequired: true, totalAmount: 1000 });
    // Someone new still gets it.
    const checkout = await polar.checkouts.create({ products: [product.id] });
    const other = await anon49.checkouts.clientUpdate({
      clientSecret: checkout.clientSecret,
      checkoutUpdatePublic: { customerEmail: "first-time@example.com" },
    });
    expect(other.trialEnd).not.toBeNull();
  });

  it("sells private products, never drafts", async () => {
    const hidden = await c49.products.create({
      name: "Partner deal",
      visibility: "private",
      prices: [{ amountType: "fixed", priceAmount: 300, priceCurrency: "usd" }],
    });
    const draft = await c49.products.create({
      name: "Not yet",
      visibility: "draft",
      prices: [{ amountType: "fixed", priceAmount: 300, priceCurrency: "usd" }],
    });
    expect((await c49.checkouts.create({ products: [hidden.id] })).product?.visibility).toBe("private");
    const err = await rejects(c49.checkouts.create({ products: [hidden.id, draft.id] }), HTTPValidationError049);
    expect(err.detail?.map((d) => d.loc)).toEqual([["body", "products", 1]]);
  });

  it("shows the tax behavior: the price's own, else the buyer's country's, unknown before it", async () => {
    const priced = await c49.checkouts.create({ products: [once.id] });
    expect(priced.taxBehavior).toBe("exclusive");
    const byCountry = await c49.checkouts.create({ products: [monthly.id] });
    expect(byCountry.taxBehavior).toBeNull();
    const fr = await anon49.checkouts.clientUpdate({
      clientSecret: byCountry.clientSecret,
      checkoutUpdatePublic: { customerBillingAddress: { country: "FR" } },
    });
    expect(fr.taxBehavior).toBe("inclusive");
    const us = await anon49.checkouts.clientUpdate({
      clientSecret: byCountry.clientSecret,
      checkoutUpdatePublic: {
        customerBillingAddress: { country: "US", state: "US-NY", postalCode: "10001", line1: "1 Main St", city: "New York" },
      },
    });
    expect(us.taxBehavior).toBe("exclusive");
  });
});
