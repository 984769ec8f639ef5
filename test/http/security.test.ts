// Security headers and CORS (server/http/security.ts), and secrets kept out of logs
// (server/kit/logger.ts): nosniff, a CSP of our own assets with no framing, no-store on token
// answers; CORS without credentials on the public and portal calls only, with preflights answered.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { Writable } from "node:stream";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { frameableBy } from "../../server/buyer-pages.js";
import { REDACTED_PATHS } from "../../server/kit/logger.js";
import { createCheckoutProduct, createCustomer, orgWithToken, useTestApi } from "../harness/index.js";

const api = useTestApi();

describe("security headers", () => {
  it("sends nosniff, HSTS, a CSP that allows nothing, and no-store on an answer that carries a token", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const customer = await createCustomer(api.knex, org.id);
    const res = await fetch(`${api.url}/v1/customer-sessions/`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ customer_id: customer.id }),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none';frame-ancestors 'none'");
    expect(res.headers.get("strict-transport-security")).toContain("max-age=");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect(res.headers.get("x-powered-by")).toBeNull();
    // Headers that only govern documents are not spent on a JSON answer; a page still has them.
    for (const name of [
      "cross-origin-opener-policy",
      "origin-agent-cluster",
      "x-dns-prefetch-control",
      "x-download-options",
      "x-permitted-cross-domain-policies",
      "x-xss-protection",
    ]) {
      expect(res.headers.get(name)).toBeNull();
    }
    const page = await fetch(`${api.url}/docs`);
    expect(page.headers.get("cross-origin-opener-policy")).toBe("same-origin");
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    expect(page.headers.get("content-security-policy")).toContain("default-src 'self'");
  });

  it("lets the API docs page run its own inline scripts, by hash, and nothing else", async () => {
    const res = await fetch(`${api.url}/docs`);
    const csp = res.headers.get("content-security-policy")!;
    const html = readFileSync(new URL("../../generated/docs/index.html", import.meta.url), "utf8");
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const s of scripts) expect(csp).toContain(`'sha256-${createHash("sha256").update(s, "utf8").digest("base64")}'`);
    expect(csp).not.toContain("'unsafe-inline' ;");
    expect(csp).toMatch(/script-src 'self'( 'sha256-[^']+')+;/);
  });

  it("frames a hosted checkout page by its checkout's embed origin only, and lets the buyer's pages load Stripe.js", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const { product } = await createCheckoutProduct(api.knex, org.id);
    const open = async (embedOrigin: string | null) => {
      const res = await fetch(`${api.url}/v1/checkouts/`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ products: [product.id], embed_origin: embedOrigin }),
      });
      expect(res.status).toBe(201);
      return ((await res.json()) as { client_secret: string }).client_secret;
    };
    const cspOf = async (path: string) => (await fetch(api.url + path)).headers.get("content-security-policy")!;
    const embedded = await cspOf(`/checkout/${await open("https://shop.example.com")}`);
    expect(embedded).toContain("frame-ancestors https://shop.example.com");
    expect(embedded).not.toContain("frame-ancestors 'none'");
    expect(embedded).toMatch(/script-src 'self'[^;]* https:\/\/js\.stripe\.com/);
    expect(embedded).toContain("connect-src 'self' https://api.stripe.com");
    expect(await cspOf(`/checkout/${await open(null)}/confirmation`)).toContain("frame-ancestors 'none'");
    // Not a checkout of ours: never framed.
    expect(await cspOf("/checkout/polar_c_unknown")).toContain("frame-ancestors 'none'");
    const portal = await cspOf("/some-shop/portal/orders");
    expect(portal).toContain("frame-ancestors 'none'");
    expect(portal).toContain("https://js.stripe.com");
    // The API and its docs page load nothing of Stripe's.
    expect(await cspOf("/docs")).not.toContain("stripe");
  });

  it("lets a checkout page be framed by its embed origin alone", () => {
    const headers = new Map<string, string>([["Content-Security-Policy", "default-src 'self';frame-ancestors 'none'"]]);
    const res = { getHeader: (n: string) => headers.get(n), header: (n: string, v: string) => headers.set(n, v) };
    frameableBy(res, "https://shop.example.com");
    expect(headers.get("Content-Security-Policy")).toBe("default-src 'self';frame-ancestors https://shop.example.com");
  });
});

describe("CORS", () => {
  it("answers preflights of public and portal calls for any origin, without credentials", async () => {
    for (const path of ["/v1/checkouts/client/polar_c_x", "/v1/customer-portal/orders/", "/v1/customer-portal/license-keys/validate"]) {
      const res = await fetch(api.url + path, {
        method: "OPTIONS",
        headers: {
          origin: "https://merchant.example",
          "access-control-request-method": "POST",
          "access-control-request-headers": "content-type",
        },
      });
      expect(res.status, path).toBe(204);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.headers.get("access-control-allow-credentials")).toBeNull();
      expect(res.headers.get("access-control-allow-headers")).toContain("idempotency-key");
    }
    const methods = (await fetch(`${api.url}/v1/checkouts/client/polar_c_x`, { method: "OPTIONS" })).headers.get(
      "access-control-allow-methods",
    );
    expect(methods?.split(", ").sort()).toEqual(["GET", "PATCH"]);
    const get = await fetch(`${api.url}/v1/checkouts/client/polar_c_missing`, { headers: { origin: "https://merchant.example" } });
    expect(get.status).toBe(404);
    expect(get.headers.get("access-control-allow-origin")).toBe("*");
    expect(get.headers.get("access-control-expose-headers")).toContain("retry-after");
  });

  it("answers no CORS on the merchant API", async () => {
    const pre = await fetch(`${api.url}/v1/products/`, {
      method: "OPTIONS",
      headers: { origin: "https://evil.example", "access-control-request-method": "GET" },
    });
    expect(pre.status).toBe(405);
    expect(pre.headers.get("access-control-allow-origin")).toBeNull();
    const get = await fetch(`${api.url}/v1/products/`, { headers: { origin: "https://evil.example" } });
    expect(get.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("logs", () => {
  it("never write a secret, a token or an authorization header", () => {
    const lines: string[] = [];
    const out = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    const log = pino({ redact: { paths: REDACTED_PATHS, censor: "[redacted]" } }, out);
    log.warn(
      {
        endpoint: { url: "https://x.example", secret: "whsec_abcdef" },
        session: { token: "polar_cst_abc" },
        headers: { authorization: "Bearer polar_oat_x" },
      },
      "x",
    );
    log.warn({ secret: "whsec_top", checkout: { customer_session_token: "polar_cst_y" } }, "y");
    const text = lines.join("");
    for (const s of ["whsec_abcdef", "polar_cst_abc", "polar_oat_x", "whsec_top", "polar_cst_y"]) expect(text).not.toContain(s);
    expect(text).toContain("https://x.example");
  });
});
