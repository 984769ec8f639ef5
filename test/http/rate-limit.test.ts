// Rate limits (server/kit/rate-limits.ts): 429 with Retry-After and RateLimit headers on public
// doors per address and door, counted together by two API processes over one database; wrong
// tokens from an address block it; a merchant token and a customer session each have their own
// budget. A checkout link's redirect reuses the visitor's checkout instead of writing one per
// visit, and the anonymous storefront lists at most 100 products.
import { randomUUID } from "node:crypto";
import { Polar } from "@polar-sh/sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { STOREFRONT_PRODUCTS_MAX } from "../../server/products/repository.js";
import { rateLimitSettings, type RateLimitSettings } from "../../server/kit/rate-limits.js";
import {
  createCheckoutProduct,
  createCustomer,
  createCustomerSessionToken,
  createLicenseKey,
  orgWithToken,
  useTestApi,
} from "../harness/index.js";

const api = useTestApi();

/** A 429's Retry-After: the seconds left of a window of `window` s that began a moment ago, the RateLimit header's reset too. */
function expectRetryAfter(res: Response, window: number): void {
  const seconds = Number(res.headers.get("retry-after"));
  expect(seconds).toBeGreaterThan(window - 5);
  expect(seconds).toBeLessThanOrEqual(window);
  expect(res.headers.get("ratelimit")).toMatch(new RegExp(`remaining=0, reset=${seconds}$`));
}

describe("rate limits", () => {
  let org: { id: string; slug: string };
  let token: string;
  let secret: string;

  /** An API with its own policies and counters (a namespace per test). */
  async function limited(settings: RateLimitSettings, namespace: string) {
    return (await api.startAnother({ rateLimits: settings, rateLimitNamespace: namespace })).url;
  }
  const only = (policies: RateLimitSettings): RateLimitSettings => ({
    public: null,
    auth_failure: null,
    token: null,
    customer: null,
    ...policies,
  });

  beforeAll(async () => {
    const made = await orgWithToken(api.knex);
    org = made.org;
    token = made.token;
    const { product } = await createCheckoutProduct(api.knex, org.id);
    secret = (await api.client(token).checkouts.create({ products: [product.id] })).clientSecret;
  });

  it("reads its policies from the environment", () => {
    expect(rateLimitSettings({})).toMatchObject({
      public: { points: 120, durationSeconds: 60 },
      token: { points: 1200, durationSeconds: 60 },
    });
    expect(rateLimitSettings({ RATE_LIMIT_PUBLIC: "5/10", RATE_LIMIT_TOKEN: "off" })).toMatchObject({
      public: { points: 5, durationSeconds: 10 },
      token: null,
    });
    expect(() => rateLimitSettings({ RATE_LIMIT_PUBLIC: "lots" })).toThrow(/RATE_LIMIT_PUBLIC/);
  });

  it("answers 429 with Retry-After past a public door's limit, per door, counted by two API processes together", async () => {
    const ns = `t${randomUUID().slice(0, 8)}:`;
    const settings = only({ public: { points: 5, durationSeconds: 60 } });
    const [one, two] = [await limited(settings, ns), await limited(settings, ns)];
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`${i % 2 ? two : one}/v1/checkouts/client/${secret}`);
      statuses.push(res.status);
      if (i === 0) {
        expect(res.headers.get("ratelimit-policy")).toBe("5;w=60");
        expect(res.headers.get("ratelimit")).toMatch(/^limit=5, remaining=4, reset=\d+$/);
      }
      if (res.status === 429) {
        expectRetryAfter(res, 60);
        expect(await res.json()).toEqual({ error: "TooManyRequests", detail: expect.stringMatching(/retry in \d+ s/) });
      }
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    // Another door has its own count; the official client sees a 429 as an error of its own.
    const key = await createLicenseKey(api.knex, org.id);
    const validate = () =>
      fetch(`${one}/v1/customer-portal/license-keys/validate`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ key: key.key, organization_id: org.id }),
      });
    expect((await validate()).status).toBe(200);
    const anon = new Polar({ serverURL: two });
    await expect(anon.checkouts.clientGet({ clientSecret: secret })).rejects.toMatchObject({ statusCode: 429 });
    // The storefront lookup is a door too.
    expect((await fetch(`${one}/v1/customer-portal/organizations/${org.slug}`)).status).toBe(200);
  });

  it("blocks an address after too many wrong tokens, even for a good token, until the window ends", async () => {
    const url = await limited(only({ auth_failure: { points: 3, durationSeconds: 60 } }), `t${randomUUID().slice(0, 8)}:`);
    const call = (bearer: string) => fetch(`${url}/v1/products/`, { headers: { authorization: `Bearer ${bearer}` } });
    const wrong: number[] = [];
    for (let i = 0; i < 4; i++) wrong.push((await call(`polar_oat_wrong${i}`)).status);
    expect(wrong).toEqual([401, 401, 401, 401]);
    const refused = await call(token);
    expect(refused.status).toBe(429);
    expectRetryAfter(refused, 60);
  });

  it("gives each merchant token and each customer session its own budget", async () => {
    const url = await limited(
      only({ token: { points: 3, durationSeconds: 60 }, customer: { points: 2, durationSeconds: 60 } }),
      `t${randomUUID().slice(0, 8)}:`,
    );
    const other = await orgWithToken(api.knex);
    const listed = (bearer: string) => fetch(`${url}/v1/products/`, { headers: { authorization: `Bearer ${bearer}` } });
    const list = (bearer: string) => listed(bearer).then((r) => r.status);
    expect([await list(token), await list(token), await list(token)]).toEqual([200, 200, 200]);
    const refused = await listed(token);
    expect(refused.status).toBe(429);
    expectRetryAfter(refused, 60);
    expect(await list(other.token)).toBe(200);
    const session = await createCustomerSessionToken(api.knex, (await createCustomer(api.knex, org.id)).id);
    const mine = () => fetch(`${url}/v1/customer-portal/customers/me`, { headers: { authorization: `Bearer ${session}` } });
    const me = () => mine().then((r) => r.status);
    expect([await me(), await me()]).toEqual([200, 200]);
    const full = await mine();
    expect(full.status).toBe(429);
    expectRetryAfter(full, 60);
  });

  it("reuses a visitor's checkout on a checkout link's redirect; cookieless visits are limited per address", async () => {
    const url = await limited(only({ public: { points: 3, durationSeconds: 60 } }), `t${randomUUID().slice(0, 8)}:`);
    const { product } = await createCheckoutProduct(api.knex, org.id, { name: "Linked" });
    const link = await api.client(token).checkoutLinks.create({ paymentProcessor: "stripe", productId: product.id });
    const redirect = `${url}/v1/checkout-links/${link.clientSecret}/redirect`;
    const rows = () => api.knex("checkouts").where({ checkout_link_id: link.id });
    const first = await fetch(redirect, { redirect: "manual" });
    expect(first.status).toBe(302);
    expect(first.headers.get("cache-control")).toBe("no-store");
    const setCookie = first.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    const jar = setCookie.split(";")[0];
    for (let i = 0; i < 5; i++) {
      const again = await fetch(redirect, { redirect: "manual", headers: { cookie: jar } });
      expect(again.headers.get("location")).toBe(first.headers.get("location"));
    }
    expect(await rows()).toHaveLength(1);
    // Once that checkout is no longer open, the visitor gets a new one.
    await api.knex("checkouts").where({ checkout_link_id: link.id }).update({ status: "failed" });
    const after = await fetch(redirect, { redirect: "manual", headers: { cookie: jar } });
    expect(after.headers.get("location")).not.toBe(first.headers.get("location"));
    expect(await rows()).toHaveLength(2);
    // Without cookies each visit writes one, up to the address's limit.
    const cookieless = [(await fetch(redirect, { redirect: "manual" })).status, (await fetch(redirect, { redirect: "manual" })).status];
    expect(cookieless).toEqual([302, 429]);
    expect(await rows()).toHaveLength(3);
  });

  it("lists at most 100 products on the anonymous storefront, in the official client's shape", async () => {
    const shop = await orgWithToken(api.knex);
    const [first] = await api
      .knex("products")
      .insert(
        Array.from({ length: STOREFRONT_PRODUCTS_MAX + 5 }, (_, i) => ({
          organization_id: shop.org.id,
          name: `Item ${i}`,
          created_at: new Date(Date.UTC(2030, 0, 1, 0, i)),
        })),
      )
      .returning("id");
    const store = await new Polar({ serverURL: api.url }).customerPortal.organizations.get({ slug: shop.org.slug });
    expect(store.products).toHaveLength(STOREFRONT_PRODUCTS_MAX);
    expect(store.products[0].id).toBe(first.id);
  });
});
