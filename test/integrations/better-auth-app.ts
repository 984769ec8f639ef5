// A small app that signs its users in with better-auth (memory adapter) and sells through
// Borealis with @polar-sh/better-auth, unchanged: only its Polar client is pointed at Borealis
// (serverURL). On 127.0.0.1: better-auth at /api/auth (the plugins' routes under it) and the
// page the checkout's success_url comes back to, /thanks.
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { checkout, polar, portal, usage, webhooks } from "@polar-sh/better-auth";
import { Polar } from "@polar-sh/sdk";
import type { WebhookOrderPaidPayload } from "@polar-sh/sdk/models/components/webhookorderpaidpayload.js";
import { betterAuth } from "better-auth";
import { memoryAdapter } from "better-auth/adapters/memory";
import { toNodeHandler } from "better-auth/node";

export interface ShopAppOptions {
  /** Borealis' API, and an organization access token for it. */
  serverURL: string;
  accessToken: string;
  /** What the checkout plugin sells, by slug. */
  products: { productId: string; slug: string }[];
  /** The secret of the Borealis webhook endpoint that points at /api/auth/polar/webhooks. */
  webhookSecret: string;
  onOrderPaid: (payload: WebhookOrderPaidPayload) => Promise<void>;
}

export interface ShopApp {
  url: string;
  close(): Promise<void>;
}

export const THANKS_HEADING = "Thanks for your order";

/**
 * Listens first, then builds the app from what `configure` makes of its URL (the webhook
 * endpoint that points at it, and so its secret, can only be made once the URL is known).
 */
export async function startShopApp(configure: (url: string) => Promise<ShopAppOptions>): Promise<ShopApp> {
  // better-auth's handler, once the app is built.
  const mounted: { auth?: ReturnType<typeof toNodeHandler> } = {};
  const server = createServer((req, res) => {
    if (mounted.auth && req.url?.startsWith("/api/auth/")) {
      void mounted.auth(req, res);
    } else if (req.url?.startsWith("/thanks")) {
      res
        .writeHead(200, { "content-type": "text/html" })
        .end(`<!doctype html><html lang="en"><title>Thanks</title><main><h1>${THANKS_HEADING}</h1></main></html>`);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const options = await configure(url);

  const auth = betterAuth({
    baseURL: url,
    secret: randomBytes(32).toString("hex"),
    database: memoryAdapter({ user: [], session: [], account: [], verification: [] }),
    emailAndPassword: { enabled: true },
    plugins: [
      polar({
        client: new Polar({ accessToken: options.accessToken, serverURL: options.serverURL }),
        createCustomerOnSignUp: true,
        use: [
          checkout({ products: options.products, successUrl: "/thanks?checkout_id={CHECKOUT_ID}", authenticatedUsersOnly: true }),
          portal(),
          usage(),
          webhooks({ secret: options.webhookSecret, onOrderPaid: options.onOrderPaid }),
        ],
      }),
    ],
  });
  mounted.auth = toNodeHandler(auth);
  return {
    url,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
