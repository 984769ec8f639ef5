// The platform core: tokens at rest, request ids, unknown routes docs.
import { describe, expect, it } from "vitest";
import { hashToken } from "../../server/kit/auth.js";
import { createCheckoutProduct, orgWithToken, useTestApi } from "../harness/index.js";

const api = useTestApi();

describe("core", () => {
  it("stores access tokens only as hashes", async () => {
    const { org, token } = await orgWithToken(api.knex);
    expect(token).toMatch(/^polar_oat_[0-9A-Za-z]{40}$/);
    const rows = await api.knex("organization_access_tokens").where({ organization_id: org.id });
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).toBe(hashToken(token));
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it("answers a revoked token with 401", async () => {
    const { org, token } = await orgWithToken(api.knex);
    await api.knex("organization_access_tokens").where({ organization_id: org.id }).update({ revoked_at: new Date() });
    const res = await fetch(`${api.url}/v1/products/`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: "Unauthorized" });
  });

  it("sets a request id on every response, echoing the caller's", async () => {
    const res = await fetch(`${api.url}/healthz`, { headers: { "x-request-id": "req-123" } });
    expect(res.headers.get("x-request-id")).toBe("req-123");
    const other = await fetch(`${api.url}/healthz`);
    expect(other.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("answers an unknown route with 404 in the documented shape", async () => {
    const res = await fetch(`${api.url}/v1/nothing-here/`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: "ResourceNotFound" });
  });

  it("answers NUL characters in any input with 422, not a database error", async () => {
    const { token } = await orgWithToken(api.knex);
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    let res = await fetch(`${api.url}/v1/products/?metadata[a%00]=x`, { headers });
    expect(res.status).toBe(422);
    res = await fetch(`${api.url}/v1/products/?query=a%00b`, { headers });
    expect(res.status).toBe(422);
    res = await fetch(`${api.url}/v1/products/`, {
      method: "POST",
      headers,
      body: JSON.stringify({ name: "Nul\u0000name", recurring_interval: null, prices: [{ amount_type: "free" }] }),
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { detail: { loc: unknown[] }[] }).detail[0].loc).toEqual(["body", "name"]);
  });

  it("answers numbers beyond 2^53 with 422 naming the key, instead of storing them rounded", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    // Raw bodies: JSON.stringify (and the official client) could not even write these digits.
    const post = async (path: string, body: string) => {
      const res = await fetch(`${api.url}${path}`, { method: "POST", headers, body });
      return { status: res.status, body: (await res.json()) as { detail: { loc: unknown[]; type: string }[] } };
    };
    let res = await post("/v1/customers/", '{"email": "big@example.com", "metadata": {"plan": "pro", "seats": 9007199254740993}}');
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([expect.objectContaining({ loc: ["body", "metadata", "seats"], type: "value_error" })]);
    res = await post(
      "/v1/events/ingest",
      '{"events": [{"name": "call", "external_customer_id": "c1", "metadata": {"tokens": -9007199254740993}}]}',
    );
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(["body", "events", 0, "metadata", "tokens"]);
    res = await post(
      "/v1/products/",
      '{"name": "Huge", "recurring_interval": null, "prices": [{"amount_type": "free"}], "metadata": {"f": 1e300}}',
    );
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(["body", "metadata", "f"]);
    const { product } = await createCheckoutProduct(api.knex, org.id);
    const checkout = await api.client(token).checkouts.create({ products: [product.id] });
    const buyer = await fetch(`${api.url}/v1/checkouts/client/${checkout.clientSecret}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: '{"custom_field_data": {"seats": 18446744073709551616}}',
    });
    expect(buyer.status).toBe(422);
    expect(((await buyer.json()) as { detail: { loc: unknown[] }[] }).detail[0].loc).toEqual(["body", "custom_field_data", "seats"]);
    expect(await api.knex("customers").where({ organization_id: org.id })).toEqual([]);
    expect(await api.knex("events").where({ organization_id: org.id })).toEqual([]);

    res = await post("/v1/customers/", '{"email": "safe@example.com", "metadata": {"seats": 9007199254740991, "ratio": 0.5}}');
    expect(res.status).toBe(201);
    expect((await api.knex("customers").where({ organization_id: org.id }).first()).metadata).toEqual({
      seats: 9007199254740991,
      ratio: 0.5,
    });
  });

  it("reads any number of repeated filter values as one list", async () => {
    const { token } = await orgWithToken(api.knex);
    const ids = Array.from({ length: 30 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`);
    const res = await fetch(`${api.url}/v1/products/?${ids.map((id) => `id=${id}`).join("&")}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ items: [], pagination: { total_count: 0, max_page: 0 } });
  });

  it("serves the contract and its HTML reference", async () => {
    const spec = await (await fetch(`${api.url}/openapi.json`)).json();
    expect(spec.openapi).toMatch(/^3\.1/);
    const docs = await fetch(`${api.url}/docs`);
    expect(docs.status).toBe(200);
    expect(docs.headers.get("content-type")).toContain("text/html");
  });
});
