// A product's tax category, a Borealis extension: `digital_service` unless given, set
// at create and update, shown on every read; an unknown category is a 422. Read and written with
// plain JSON (the official client does not know the field); the client's own update keeps it.
import { describe, expect, it } from "vitest";
import { orgWithClient, plainJson, useTestApi } from "../harness/index.js";

const api = useTestApi();

const json = (token: string, method: string, path: string, body?: unknown) => plainJson(api.url, token)(method, path, body);

const prices = [{ amount_type: "fixed", price_amount: 1000, price_currency: "eur" }];

describe("product tax category", () => {
  it("defaults to digital_service, is set at create and update, and shown on every read", async () => {
    const { token, polar } = await orgWithClient(api);
    const plain = await json(token, "POST", "/v1/products/", { name: "Plain", prices });
    expect(plain.status).toBe(201);
    expect(plain.body.tax_category).toBe("digital_service");

    const book = await json(token, "POST", "/v1/products/", { name: "A book", prices, tax_category: "ebook" });
    expect(book.body.tax_category).toBe("ebook");
    const id = String(book.body.id);
    expect((await json(token, "GET", `/v1/products/${id}`)).body.tax_category).toBe("ebook");

    const updated = await json(token, "PATCH", `/v1/products/${id}`, { tax_category: "saas" });
    expect(updated.body.tax_category).toBe("saas");
    await polar.products.update({ id, productUpdate: { name: "Renamed book" } });
    const listed = await json(token, "GET", "/v1/products/?limit=100");
    const items = listed.body.items as { id: string; name: string; tax_category: string }[];
    expect(items.find((p) => p.id === id)).toMatchObject({ name: "Renamed book", tax_category: "saas" });
    expect((await api.knex("products").where({ id }).first()).tax_category).toBe("saas");
  });

  it("refuses an unknown category with a 422", async () => {
    const { token } = await orgWithClient(api);
    expect((await json(token, "POST", "/v1/products/", { name: "Food", prices, tax_category: "food" })).status).toBe(422);
    const made = await json(token, "POST", "/v1/products/", { name: "Thing", prices, tax_category: "general" });
    const res = await json(token, "PATCH", `/v1/products/${String(made.body.id)}`, { tax_category: "food" });
    expect(res.status).toBe(422);
    expect(res.body.detail?.[0].loc).toEqual(["body", "tax_category"]);
  });
});
