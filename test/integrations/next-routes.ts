// @polar-sh/nextjs' Checkout and CustomerPortal as route handlers of your own, whose Polar client
// can have Borealis as its serverURL: the same query parameters and redirects.
import { Polar } from "@polar-sh/sdk";
import { NextResponse, type NextRequest } from "next/server.js";

/** GET ?products=<id>[&customerExternalId=…]: opens a checkout and sends the buyer to it. */
export function checkoutRoute(polar: Polar, successUrl?: string) {
  return async function GET(req: NextRequest): Promise<Response> {
    const query = req.nextUrl.searchParams;
    const products = query.getAll("products");
    if (products.length === 0) return NextResponse.json({ error: "Missing products in query params" }, { status: 400 });
    const checkout = await polar.checkouts.create({
      products,
      successUrl,
      customerId: query.get("customerId") ?? undefined,
      externalCustomerId: query.get("customerExternalId") ?? undefined,
      customerEmail: query.get("customerEmail") ?? undefined,
      customerName: query.get("customerName") ?? undefined,
    });
    return NextResponse.redirect(checkout.url);
  };
}

/** GET: a customer session for your signed-in user, and a redirect to their portal. */
export function customerPortalRoute(polar: Polar, getExternalCustomerId: (req: NextRequest) => Promise<string>) {
  return async function GET(req: NextRequest): Promise<Response> {
    const session = await polar.customerSessions.create({ externalCustomerId: await getExternalCustomerId(req) });
    return NextResponse.redirect(session.customerPortalUrl);
  };
}
