// What the console's browser tests share: signing in, and an organization with one of everything
// (made through the official client) so every screen has something to show.
import type { Polar } from "@polar-sh/sdk";
import type { Page } from "playwright-core";
import { createBenefit, createCheckoutProduct, createCustomField, createMeter, orgWithToken } from "../harness/index.js";
import type { BrowserStack } from "./harness.js";

/** Signs in to the console with an organization access token; lands on Home. */
export async function signIn(stack: BrowserStack, page: Page, token: string): Promise<void> {
  await page.goto(`${stack.url}/dashboard/`);
  await page.getByRole("button", { name: "Use an access token" }).click({ timeout: 60_000 });
  // the first load of the console's bundle can be slow on a busy machine
  await page.getByLabel("Access token").waitFor({ timeout: 60_000 });
  await page.getByLabel("Access token").fill(token);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.getByRole("heading", { name: "Last 30 days" }).waitFor();
  // metrics answered (charts, or the alert naming the error)
  await page.locator('[data-testid="metrics-ready"], [data-testid="metrics-error"]').first().waitFor();
  // Home's calls done: a navigation now would cut them short (a failed request to the guard)
  await page.waitForLoadState("networkidle");
}

/** Chooses `option` in a react-admin autocomplete labelled `label`, typing its first letters. */
export async function pickOption(page: Page, label: string, option: string): Promise<void> {
  await page.getByRole("combobox", { name: label }).fill(option.slice(0, 4));
  await page.getByRole("option", { name: option }).click();
}

/** A $25 "Course" bought by disputer@example.com with the sandbox's dispute card: its order, which a dispute holds. */
export async function disputedPurchase(stack: BrowserStack, orgId: string, token: string): Promise<{ id: string }> {
  const polar = stack.polar(token);
  const { product } = await createCheckoutProduct(stack.knex, orgId, { name: "Course" });
  const checkout = await polar.checkouts.create({ products: [product.id] });
  await polar.checkouts.clientConfirm({
    clientSecret: checkout.clientSecret,
    checkoutConfirmStripe: {
      customerEmail: "disputer@example.com",
      customerBillingAddress: { country: "FR" },
      confirmationTokenId: "4000000000000259",
    },
  });
  return stack.knex("orders").where({ checkout_id: checkout.id }).first();
}

export interface Seeded {
  token: string;
  orgId: string;
  polar: Polar;
  productId: string;
  customerId: string;
  orderId: string;
  subscriptionId: string;
  checkoutId: string;
  benefitId: string;
  customFieldId: string;
  meterId: string;
  discountId: string;
  linkId: string;
  endpointId: string;
  clockId: string;
}

/** An organization with a product, a customer who bought it (order, subscription), and one of every other resource. */
export async function seedOrganization(stack: BrowserStack): Promise<Seeded> {
  const { org, token } = await orgWithToken(stack.knex);
  const polar = stack.polar(token);
  const benefit = await createBenefit(stack.knex, org.id);
  const field = await createCustomField(stack.knex, org.id, { name: "Company", slug: "company" });
  const meter = await createMeter(stack.knex, org.id);
  const product = await polar.products.create({
    name: "Team plan",
    recurringInterval: "month",
    prices: [{ amountType: "fixed", priceAmount: 2900, priceCurrency: "usd" }],
    attachedCustomFields: [{ customFieldId: field.id, required: false }],
  });
  await polar.products.updateBenefits({ id: product.id, productBenefitsUpdate: { benefits: [benefit.id] } });
  const discount = await polar.discounts.create({
    name: "Launch",
    code: "LAUNCH",
    type: "percentage",
    basisPoints: 1000,
    duration: "once",
  });
  const link = await polar.checkoutLinks.create({ paymentProcessor: "stripe", productId: product.id, label: "Website" });
  const endpoint = await polar.webhooks.createWebhookEndpoint({
    url: "https://example.com/hooks",
    format: "raw",
    events: ["order.paid", "order.refunded"],
  });
  const checkout = await polar.checkouts.create({
    products: [product.id],
    customerEmail: "buyer@example.com",
    customFieldData: { company: "Acme" },
  });
  await polar.checkouts.clientConfirm({
    clientSecret: checkout.clientSecret,
    checkoutConfirmStripe: {
      customerName: "Ada Buyer",
      customerBillingAddress: { country: "FR" },
      confirmationTokenId: "tok_sandbox_success",
    },
  });
  const [order] = (await polar.orders.list({ productId: product.id })).result.items;
  const [subscription] = (await polar.subscriptions.list({ productId: product.id })).result.items;
  const clock = await fetch(`${stack.url}/v1/test-clocks/`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "Renewals", frozen_time: "2028-01-01T00:00:00Z" }),
  }).then((r) => r.json() as Promise<{ id: string }>);
  return {
    token,
    orgId: org.id,
    polar,
    productId: product.id,
    customerId: order.customerId,
    orderId: order.id,
    subscriptionId: subscription.id,
    checkoutId: checkout.id,
    benefitId: benefit.id,
    customFieldId: field.id,
    meterId: meter.id,
    discountId: discount.id,
    linkId: link.id,
    endpointId: endpoint.id,
    clockId: clock.id,
  };
}
