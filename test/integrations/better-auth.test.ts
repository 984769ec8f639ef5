// @polar-sh/better-auth 1.8.4, unchanged, in a small better-auth app (better-auth-app.ts) whose
// Polar client points at Borealis: sign-up makes the customer (external id = user id); the checkout
// plugin's checkout is paid in Chromium; the webhooks plugin receives order.paid; the portal
// plugin opens the portal; the usage plugin ingests events a meter counts.
import { randomUUID } from "node:crypto";
import type { WebhookOrderPaidPayload } from "@polar-sh/sdk/models/components/webhookorderpaidpayload.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useBrowserStack } from "../browser/harness.js";
import { card, expectText, openShop, see, type Shop } from "../browser/shop.js";
import { startShopApp, THANKS_HEADING, type ShopApp } from "./better-auth-app.js";

const FLAGS = { WEBHOOKS_ALLOW_HTTP: "1", WEBHOOKS_ALLOW_LOOPBACK: "1" };

/** A user of the app as their browser calls it: the app's origin, and the cookies it was given. */
class Visitor {
  private cookies = new Map<string, string>();
  constructor(private readonly appUrl: string) {}

  /** A call to better-auth's routes (a POST when there is a body); fails on anything but a 200. */
  async call<T>(path: string, body?: object): Promise<T> {
    const headers: Record<string, string> = { origin: this.appUrl, cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ") };
    if (body) headers["content-type"] = "application/json";
    const res = await fetch(`${this.appUrl}/api/auth${path}`, {
      method: body ? "POST" : "GET",
      headers,
      body: body && JSON.stringify(body),
    });
    for (const set of res.headers.getSetCookie()) {
      const [pair] = set.split(";");
      const at = pair.indexOf("=");
      this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const text = await res.text();
    expect(res.status, `${path}: ${text}`).toBe(200);
    return JSON.parse(text);
  }
}

describe("@polar-sh/better-auth against Borealis", { timeout: 120_000 }, () => {
  const stack = useBrowserStack();
  const saved: Record<string, string | undefined> = {};
  const paid: WebhookOrderPaidPayload[] = [];
  const user = { email: `ada-${randomUUID().slice(0, 8)}@example.com`, password: "correct horse battery staple", name: "Ada Lovelace" };
  let shop: Shop;
  let app: ShopApp;
  let visitor: Visitor;
  let product: { id: string };
  let meter: { id: string };
  let userId = "";
  let customerId = "";
  let orderId = "";

  beforeAll(async () => {
    for (const [k, v] of Object.entries(FLAGS)) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
    shop = await openShop(stack, "Aurora Apps");
    product = await shop.polar.products.create({
      name: "Aurora Pass",
      recurringInterval: null,
      prices: [{ amountType: "fixed", priceAmount: 2000, priceCurrency: "usd" }],
    });
    meter = await shop.polar.meters.create({
      name: "API calls",
      filter: { conjunction: "and", clauses: [{ property: "name", operator: "eq", value: "api-call" }] },
      aggregation: { func: "count" },
    });
    app = await startShopApp(async (url) => {
      const endpoint = await shop.polar.webhooks.createWebhookEndpoint({
        url: `${url}/api/auth/polar/webhooks`,
        format: "raw",
        events: ["order.paid"],
      });
      return {
        serverURL: stack.url,
        accessToken: shop.token,
        products: [{ productId: product.id, slug: "pass" }],
        webhookSecret: endpoint.secret,
        onOrderPaid: async (payload) => {
          paid.push(payload);
        },
      };
    });
    visitor = new Visitor(app.url);
  });
  afterAll(async () => {
    await app?.close();
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  it("sign-up creates the customer, with the user's id as its external id", async () => {
    const { user: created } = await visitor.call<{ user: { id: string } }>("/sign-up/email", user);
    userId = created.id;
    const customer = await shop.polar.customers.getExternal({ externalId: userId });
    expect(customer).toMatchObject({ email: user.email, name: user.name, externalId: userId });
    customerId = customer.id;
  });

  it("the checkout plugin opens a checkout, the buyer pays in Chromium and comes back to the app", async () => {
    const opened = await visitor.call<{ url: string; redirect: boolean }>("/checkout", { slug: "pass", redirect: false });
    expect(opened.url).toMatch(new RegExp(`^${stack.url}/checkout/`));
    const page = await stack.newPage();
    await page.goto(opened.url);
    await page.getByRole("heading", { name: "Aurora Pass" }).waitFor();
    // The checkout is the signed-up customer's.
    expect(await page.getByRole("textbox", { name: "Email", exact: true }).inputValue()).toBe(user.email);
    await page.getByLabel("Country").selectOption("FR");
    await card(page, "4242 4242 4242 4242");
    await page.getByRole("button", { name: "Pay $20" }).click();
    await page.waitForURL((url) => url.href.startsWith(`${app.url}/thanks?checkout_id=`), { timeout: 30_000 });
    await page.getByRole("heading", { name: THANKS_HEADING }).waitFor();

    const checkoutId = new URL(page.url()).searchParams.get("checkout_id");
    const orders = (await shop.polar.orders.list({ customerId })).result.items;
    expect(orders.map((o) => ({ status: o.status, checkoutId: o.checkoutId, productId: o.productId, totalAmount: o.totalAmount }))).toEqual(
      [{ status: "paid", checkoutId, productId: product.id, totalAmount: 2000 }],
    );
    orderId = orders[0].id;
  });

  it("the webhooks plugin receives the order's order.paid", async () => {
    await expect.poll(() => paid.length, { timeout: 30_000 }).toBeGreaterThan(0);
    expect(paid.map((p) => ({ type: p.type, id: p.data.id, externalId: p.data.customer.externalId }))).toEqual([
      { type: "order.paid", id: orderId, externalId: userId },
    ]);
  });

  it("the portal plugin opens the customer portal", async () => {
    const opened = await visitor.call<{ url: string }>("/customer/portal", { redirect: false });
    expect(opened.url).toMatch(new RegExp(`^${stack.url}/${shop.org.slug}/portal`));
    const page = await stack.newPage();
    await page.goto(opened.url);
    await expectText(page, "signed-in-as", user.email);
    await see(page, "Aurora Pass");
  });

  it("the usage plugin ingests events that the meter counts", async () => {
    const from = new Date(Date.now() - 60_000);
    for (const route of ["/v1/forecast", "/v1/forecast", "/v1/alerts"]) {
      expect(await visitor.call<{ inserted: number }>("/usage/ingest", { event: "api-call", metadata: { route } })).toMatchObject({
        inserted: 1,
      });
    }
    const until = new Date(Date.now() + 60_000);
    const total = async () =>
      (await shop.polar.meters.quantities({ id: meter.id, startTimestamp: from, endTimestamp: until, interval: "day", customerId })).total;
    await expect.poll(total, { timeout: 30_000 }).toBe(3);
    // The plugin's list of the user's meters: the customer meter the counted events gave them.
    const listed = async () => {
      const page = await visitor.call<{ result: { items: { meterId: string; consumedUnits: number }[] } }>(
        "/usage/meters/list?page=1&limit=10",
      );
      return page.result.items.map((m) => ({ meterId: m.meterId, consumedUnits: m.consumedUnits }));
    };
    await expect.poll(listed, { timeout: 30_000 }).toEqual([{ meterId: meter.id, consumedUnits: 3 }]);
  });
});
