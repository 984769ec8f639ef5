// The README's route handlers for @polar-sh/nextjs' Checkout and CustomerPortal with Borealis
// (next-routes.ts, shown there verbatim), called with a NextRequest as Next.js calls them, their
// Polar client (0.47.1) pointed at the API: the checkout and the portal they redirect to are
// Borealis' own.
import { readFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { Polar } from "@polar-sh/sdk";
import { NextRequest } from "next/server.js";
import { beforeAll, describe, expect, it } from "vitest";
import { orgWithClient, useTestApi } from "../harness/index.js";
import { checkoutRoute, customerPortalRoute } from "./next-routes.js";

describe("@polar-sh/nextjs' Checkout and CustomerPortal, as the README writes them for Borealis", () => {
  const api = useTestApi();
  let merchant: Awaited<ReturnType<typeof orgWithClient>>;
  let polar: Polar;

  beforeAll(async () => {
    merchant = await orgWithClient(api);
    polar = new Polar({ accessToken: merchant.token, serverURL: api.url });
  });

  it("the README shows next-routes.ts as it is", () => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    const code = readFileSync(new URL("./next-routes.ts", import.meta.url), "utf8");
    expect(readme).toContain("```ts\n" + code + "```\n");
  });

  it("the checkout route opens a Borealis checkout for the products asked and redirects to it", async () => {
    const product = await merchant.polar.products.create({
      name: "Aurora Pass",
      recurringInterval: null,
      prices: [{ amountType: "fixed", priceAmount: 2000, priceCurrency: "usd" }],
    });
    const GET = checkoutRoute(polar, "https://shop.example/thanks?checkout_id={CHECKOUT_ID}");
    const res = await GET(new NextRequest(`https://shop.example/checkout?products=${product.id}&customerEmail=ada@example.com`));
    expect(res.status).toBe(307);
    const location = new URL(res.headers.get("location") ?? "");
    const [checkout] = (await merchant.polar.checkouts.list({})).result.items;
    expect(location.pathname).toBe(`/checkout/${checkout.clientSecret}`);
    expect(checkout).toMatchObject({
      productId: product.id,
      customerEmail: "ada@example.com",
      successUrl: `https://shop.example/thanks?checkout_id=${checkout.id}`,
    });

    const none = await GET(new NextRequest("https://shop.example/checkout"));
    expect(none.status).toBe(400);
  });

  it("the portal route opens the signed-in user's portal", async () => {
    const externalId = `user-${randomUUID().slice(0, 8)}`;
    await merchant.polar.customers.create({ email: `${externalId}@example.com`, externalId });
    const GET = customerPortalRoute(polar, async () => externalId);
    const res = await GET(new NextRequest("https://shop.example/portal"));
    expect(res.status).toBe(307);
    const location = new URL(res.headers.get("location") ?? "");
    expect(location.pathname).toBe(`/${merchant.org.slug}/portal`);
    // The session token in the link is the customer's.
    const customerSession = location.searchParams.get("customer_session_token") ?? "";
    expect(await api.client("").customerPortal.customers.get({ customerSession })).toMatchObject({ email: `${externalId}@example.com` });
  });
});
