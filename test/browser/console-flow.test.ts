// The merchant's day in the console, in Chromium against the running stack (the flow):
// sign in → create a product with two prices → create a checkout link → a buyer pays through the
// public checkout (the API) → see the order → refund half → see the refund and the webhook
// delivery → a subscription through a checkout on a test clock → advance the clock a month → see
// the renewal order → cancel at period end.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Polar } from "@polar-sh/sdk";
import { Receiver } from "../webhooks/receiver.js";
import { createMeter, orgWithToken } from "../harness/index.js";
import { useBrowserStack } from "./harness.js";
import { signIn } from "./console-helpers.js";

const FLAGS = { WEBHOOKS_ALLOW_HTTP: "1", WEBHOOKS_ALLOW_LOOPBACK: "1" };

describe("merchant console: the flow", { timeout: 300_000 }, () => {
  const stack = useBrowserStack();
  const receiver = new Receiver();
  const saved: Record<string, string | undefined> = {};

  beforeAll(async () => {
    for (const [k, v] of Object.entries(FLAGS)) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
    await receiver.start();
  });
  afterAll(async () => {
    await receiver.stop();
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  it("product → link → purchase → refund → webhook → subscription on a test clock → renewal → cancel", async () => {
    const { org, token } = await orgWithToken(stack.knex);
    const polar = stack.polar(token);
    await createMeter(stack.knex, org.id, { name: "API calls" });
    const page = await stack.newPage();
    await signIn(stack, page, token);

    // a webhook endpoint for refunds, its secret shown once
    await page.goto(`${stack.url}/dashboard/webhooks-endpoints/create`);
    await page.getByLabel("URL").fill(`${receiver.url}/hooks`);
    await page.getByLabel("order.refunded").check();
    await page.getByRole("button", { name: "Save" }).click();
    const secret = await page.getByTestId("secret").textContent();
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole("button", { name: "I have copied it" }).click();
    await page.getByRole("tab", { name: "Deliveries" }).waitFor();

    // a product with two prices: $20.00 a month, and $0.50 per API call
    await page.goto(`${stack.url}/dashboard/products/create`);
    await page.getByLabel("Name").first().fill("Pro plan");
    await page.getByLabel("Billing").click();
    await page.getByRole("option", { name: "Month" }).click();
    await page.getByRole("spinbutton", { name: /^Price/ }).fill("20");
    await page.getByRole("button", { name: "Add" }).first().click();
    const second = page.locator(".RaSimpleFormIterator-line").nth(1);
    await second.getByLabel(/^Amount type/).click();
    await page.getByRole("option", { name: "Metered (per unit)" }).click();
    await second.getByRole("combobox", { name: /^Meter( \*)?$/ }).fill("API");
    await page.getByRole("option", { name: "API calls" }).click();
    await second.getByLabel(/Per unit/).fill("50");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("$20.00 / month").waitFor();
    await page.getByText("per unit of API calls").waitFor();
    const productId = page.url().match(/products\/([^/]+)\/show/)![1];
    await stack.check(page, "flow-product", { mobile: false });

    // a checkout link for it, copied from the list
    await page.getByRole("link", { name: "Checkout link" }).click();
    await page.getByLabel("Label").fill("Pricing page");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Pricing page").first().waitFor();
    const link = await polar.checkoutLinks.list({ productId });
    expect(link.result.items).toHaveLength(1);
    const linkUrl = link.result.items[0].url;

    // a buyer pays through the public checkout (the link opens a checkout; the API confirms it)
    const opened = await fetch(linkUrl, { redirect: "manual" });
    expect(opened.status).toBe(302);
    const clientSecret = new URL(opened.headers.get("location")!, stack.url).pathname.split("/").pop()!;
    const anon = new Polar({ serverURL: stack.url });
    await anon.checkouts.clientConfirm({
      clientSecret,
      checkoutConfirmStripe: {
        customerEmail: "first@example.com",
        customerName: "First Buyer",
        customerBillingAddress: { country: "FR" },
        confirmationTokenId: "tok_sandbox_success",
      },
    });

    // the order, then half of it refunded
    await page.goto(`${stack.url}/dashboard/orders`);
    await page.getByText("first@example.com").first().click();
    await page.getByText("$20.00").first().waitFor();
    await page.getByRole("button", { name: "Refund" }).click();
    const dialog = page.getByRole("dialog", { name: "Refund order" });
    await dialog.getByRole("spinbutton", { name: /^Amount to refund/ }).fill("10");
    await dialog.getByRole("button", { name: "Refund" }).click();
    await page.getByText("Refunded $10.00").waitFor();
    await page.getByRole("cell", { name: "Customer request" }).waitFor();
    await stack.check(page, "flow-order-refunded", { mobile: false });

    // the refund in the refunds list, and its webhook delivered to the endpoint
    await page.goto(`${stack.url}/dashboard/refunds`);
    await page.getByText("$10.00").first().waitFor();
    await expect.poll(() => receiver.received.filter((r) => r.path === "/hooks").length, { timeout: 30_000 }).toBeGreaterThan(0);
    await page.goto(`${stack.url}/dashboard/webhooks-endpoints`);
    await page.getByText(`${receiver.url}/hooks`).click();
    await page.getByText("order.refunded").first().waitFor();
    await page.getByText("Delivered").first().waitFor();
    await stack.check(page, "flow-webhook-delivery", { mobile: false });

    // a subscription through a checkout, for a customer on a test clock
    const customer = await polar.customers.create({ email: "clocked@example.com", name: "Clocked Buyer" });
    const clockRes = await fetch(`${stack.url}/v1/test-clocks/`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Flow clock", frozen_time: "2028-01-01T00:00:00Z" }),
    });
    const clock = (await clockRes.json()) as { id: string };
    await page.goto(`${stack.url}/dashboard/test-clocks/${clock.id}/show`);
    await page.getByRole("button", { name: "Attach customer" }).click();
    await page.getByRole("combobox", { name: /^Customer/ }).fill("clocked");
    await page.getByRole("option", { name: "clocked@example.com" }).click();
    await page.getByRole("button", { name: "Attach" }).click();
    await page.getByText("Customer attached").waitFor();
    const checkout = await polar.checkouts.create({ products: [productId], customerId: customer.id });
    await anon.checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: { customerBillingAddress: { country: "FR" }, confirmationTokenId: "tok_sandbox_success" },
    });

    // a month on the clock: the renewal order appears
    await page.reload();
    await page.getByRole("button", { name: "+1 month" }).click();
    await expect.poll(async () => (await polar.orders.list({ customerId: customer.id })).result.items.length, { timeout: 60_000 }).toBe(2);
    // the page follows the clock until it is ready again; let it finish before leaving
    await expect.poll(() => page.getByRole("button", { name: "+1 month" }).isEnabled(), { timeout: 60_000 }).toBe(true);
    await page.waitForLoadState("networkidle");
    await page.goto(`${stack.url}/dashboard/customers/${customer.id}/show/orders`);
    await page.getByText("Subscription cycle").waitFor();
    await stack.check(page, "flow-renewal", { mobile: false });

    // cancel at the end of the period
    const [sub] = (await polar.subscriptions.list({ customerId: customer.id })).result.items;
    await page.goto(`${stack.url}/dashboard/subscriptions/${sub.id}/show`);
    await page.getByRole("button", { name: "Cancel" }).click();
    const cancel = page.getByRole("dialog", { name: "Cancel at the end of the period" });
    await cancel.getByLabel("Reason").click();
    await page.getByRole("option", { name: "Too expensive" }).click();
    await cancel.getByRole("button", { name: "Cancel" }).click();
    await page.getByText("Subscription updated").waitFor();
    await page.getByRole("button", { name: "Uncancel" }).waitFor();
    expect((await polar.subscriptions.get({ id: sub.id })).cancelAtPeriodEnd).toBe(true);
    await stack.check(page, "flow-subscription-canceling", { mobile: false });
  });
});
