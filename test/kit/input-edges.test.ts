// Money and input edges, each through the official client or raw HTTP:
// currencies are ISO 4217 codes only and a checkout has one; paging is bounded by the contract;
// every error status answers the contract's body; a tagged union's 422 names the chosen variant
// only; deep-object and list query parameters are validated like bodies; slow requests get a 408
// and lose their socket; a client's X-Request-Id is kept only when short and plain.
import net from "node:net";
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import { HTTPValidationError } from "@polar-sh/sdk/models/errors/httpvalidationerror.js";
import { isoCurrencies, currencyYaml } from "../../codegen/currencies.js";
import { schemaValidator, validateResponse } from "../../generated/validators.js";
import type { OperationId } from "../../generated/handlers.js";
import { operations } from "../../generated/operations.js";
import { type ApiHandle, createCheckoutProduct, orgWithToken, rejects, useTestApi } from "../harness/index.js";

const api = useTestApi();
const contract = JSON.parse(readFileSync(new URL("../../generated/openapi.json", import.meta.url), "utf8"));

describe("input edges", () => {
  let polar: Polar;
  let token: string;
  let orgId: string;
  const call = (method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}) =>
    fetch(`${api.url}${path}`, {
      method,
      body: init.body,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...init.headers },
    });
  const issues = async (p: Promise<unknown>) => (await rejects(p, HTTPValidationError)).detail?.map((d) => [d.loc.join("."), d.type]);

  beforeAll(async () => {
    const made = await orgWithToken(api.knex);
    token = made.token;
    orgId = made.org.id;
    polar = api.client(token);
  });

  describe("currencies", () => {
    it("the contract lists exactly ISO 4217's currencies, from the kept list", () => {
      expect(readFileSync(new URL("../../openapi/components/schemas/currency.yaml", import.meta.url), "utf8")).toBe(currencyYaml());
      const { codes } = isoCurrencies();
      expect(contract.components.schemas.Currency.enum).toEqual(codes);
      for (const c of ["usd", "eur", "jpy", "gbp", "chf", "xof"]) expect(codes).toContain(c);
      for (const c of ["xyz", "xau", "xts", "xxx", "bov", "usn"]) expect(codes).not.toContain(c);
    });

    it("refuses a price or a discount in a currency that does not exist", async () => {
      expect(
        await issues(
          polar.products.create({
            name: "Bad money",
            recurringInterval: null,
            prices: [{ amountType: "fixed", priceAmount: 1000, priceCurrency: "xyz" }],
          }),
        ),
      ).toEqual([["body.prices.0.price_currency", "enum"]]);
      // A discount's shapes are told apart by their fields, not by a tag: each shape that fits says why.
      expect(
        await issues(polar.discounts.create({ name: "Bad", type: "fixed", duration: "once", amount: 100, currency: "xyz" })),
      ).toContainEqual(["body.currency", "enum"]);
      expect(await api.knex("products").where({ organization_id: orgId, name: "Bad money" })).toHaveLength(0);
      const eur = await polar.products.create({
        name: "In euros",
        recurringInterval: null,
        prices: [{ amountType: "fixed", priceAmount: 1000, priceCurrency: "eur" }],
      });
      expect(eur.prices[0]).toMatchObject({ priceCurrency: "eur" });
    });

    it("one currency per checkout and per checkout link; a discount must match the price's currency", async () => {
      const usd = (await createCheckoutProduct(api.knex, orgId, { name: "Dollars" })).product;
      const eur = (
        await createCheckoutProduct(api.knex, orgId, {
          name: "Euros",
          price: { amount_type: "fixed", price_amount: 900, price_currency: "eur" },
        })
      ).product;
      expect(await issues(polar.checkouts.create({ products: [usd.id, eur.id] }))).toEqual([["body.products", "value_error"]]);
      expect(await issues(polar.checkoutLinks.create({ paymentProcessor: "stripe", products: [usd.id, eur.id] }))).toEqual([
        ["body.products", "value_error"],
      ]);
      const checkout = await polar.checkouts.create({ products: [eur.id] });
      const discount = await polar.discounts.create({
        name: "Five dollars",
        type: "fixed",
        duration: "once",
        amount: 500,
        currency: "usd",
        code: `USD${Date.now()}`,
      });
      expect(await issues(polar.checkouts.update({ id: checkout.id, checkoutUpdate: { discountId: discount.id } }))).toEqual([
        ["body.discount_id", "value_error"],
      ]);
    });
  });

  describe("paging", () => {
    it("bounds page and limit on every list operation of the contract", () => {
      let lists = 0;
      for (const [path, ops] of Object.entries<
        Record<string, { parameters?: { name: string; in: string; schema: Record<string, unknown> }[] }>
      >(contract.paths)) {
        for (const [method, op] of Object.entries(ops)) {
          for (const p of op.parameters ?? []) {
            if (p.in !== "query" || (p.name !== "page" && p.name !== "limit")) continue;
            if (p.name === "page") lists++;
            expect(p.schema, `${method} ${path} ${p.name}`).toMatchObject(
              p.name === "page" ? { type: "integer", minimum: 1, maximum: 2147483647 } : { type: "integer", minimum: 1, maximum: 100 },
            );
          }
        }
      }
      expect(lists).toBeGreaterThan(25);
    });

    it("answers 422 on query.page for a page out of range, and an empty page past the end", async () => {
      for (const q of ["page=1e20", "page=922337203685477580&limit=100", "page=0", "page=-1", "page=1.5", "page=abc"]) {
        const res = await call("GET", `/v1/products/?${q}`);
        expect(res.status, q).toBe(422);
        expect(
          (await res.json()).detail.map((d: { loc: string[] }) => d.loc.join(".")),
          q,
        ).toEqual(["query.page"]);
      }
      const limit = await call("GET", "/v1/products/?limit=101");
      expect(limit.status).toBe(422);
      const past = await polar.products.list({ page: 2147483647, limit: 100 });
      expect(past.result.items).toEqual([]);
      expect(past.result.pagination.totalCount).toBeGreaterThan(0);
    });
  });

  describe("error bodies", () => {
    const isError = (body: unknown) => schemaValidator("Error")(body) as boolean;

    it("405, 413, 415 and 400 from the HTTP layer answer {error, detail}", async () => {
      const notAllowed = await call("DELETE", "/v1/products/");
      expect(notAllowed.status).toBe(405);
      expect(await notAllowed.json()).toEqual({ error: "MethodNotAllowed", detail: "DELETE is not allowed on /v1/products/." });

      const tooLarge = await call("POST", "/v1/products/", { body: JSON.stringify({ name: "x".repeat(2 * 1024 * 1024) }) });
      expect(tooLarge.status).toBe(413);
      const large = await tooLarge.json();
      expect(large).toMatchObject({ error: "PayloadTooLarge" });
      expect(isError(large)).toBe(true);

      const charset = await call("POST", "/v1/products/", { body: "{}", headers: { "content-type": "application/json; charset=latin1" } });
      expect(charset.status).toBe(415);
      const unsupported = await charset.json();
      expect(unsupported).toMatchObject({ error: "UnsupportedMediaType" });
      expect(isError(unsupported)).toBe(true);
    });

    it("documents every status under the operation's default response", () => {
      for (const status of [405, 408, 413, 415, 500]) {
        expect(validateResponse("products:create" satisfies OperationId, status, { error: "X", detail: "y" }).valid, String(status)).toBe(
          true,
        );
        expect(validateResponse("products:create", status, { detail: "y" }).valid, String(status)).toBe(false);
      }
    });

    it("declares on every operation its 429 TooManyRequests with the Retry-After header (any can be rate limited)", () => {
      const ids = Object.keys(operations).filter((id): id is OperationId => id in operations);
      expect(ids.length).toBeGreaterThan(100);
      const missing: string[] = [];
      for (const id of ids) {
        const { method, path } = operations[id];
        if (!contract.paths[path][method].responses["429"]?.headers?.["Retry-After"]) missing.push(id);
        expect(validateResponse(id, 429, { error: "TooManyRequests", detail: "Too many requests; retry in 5 s." }).valid, id).toBe(true);
        expect(validateResponse(id, 429, { error: "X", detail: "y" }).valid, id).toBe(false);
      }
      expect(missing).toEqual([]);
      expect(contract.components.headers.RetryAfter.schema).toEqual({ type: "integer", minimum: 1 });
    });

    it("a tagged union's 422 speaks of the variant its tag names only", async () => {
      expect(
        await issues(
          polar.products.create({
            name: "Bad price",
            recurringInterval: null,
            prices: [{ amountType: "fixed", priceAmount: -5, priceCurrency: "usd" }],
          }),
        ),
      ).toEqual([["body.prices.0.price_amount", "minimum"]]);
      const raw = await call("POST", "/v1/products/", {
        body: JSON.stringify({ name: "Bad tag", prices: [{ amount_type: "nope", price_amount: 5 }] }),
      });
      expect(raw.status).toBe(422);
      expect((await raw.json()).detail).toEqual([
        {
          loc: ["body", "prices", 0, "amount_type"],
          msg: "Input tag 'nope' found using 'amount_type' does not match any of the expected tags",
          type: "union_tag_invalid",
        },
      ]);
      // Not an object at all where a tagged union is expected: refused as such, not let through.
      for (const [path, body] of [
        ["/v1/products/", { name: "Odd", prices: ["AAA"] }],
        ["/v1/files/", [null, null]],
      ] as const) {
        const res = await call("POST", path, { body: JSON.stringify(body) });
        expect(res.status, path).toBe(422);
        expect((await res.json()).detail[0].type, path).toBe("type");
      }
      const benefit = await call("POST", "/v1/benefits/", {
        body: JSON.stringify({ type: "custom", description: "Note", properties: { note: 5 } }),
      });
      expect(benefit.status).toBe(422);
      expect((await benefit.json()).detail.map((d: { loc: (string | number)[] }) => d.loc.join("."))).toEqual(["body.properties.note"]);
    });
  });

  describe("query parameters", () => {
    it("refuses nested deep objects, empty metadata values and ids shaped as objects on every list", async () => {
      const paths = ["/v1/orders/", "/v1/subscriptions/", "/v1/benefits/", "/v1/customers/", "/v1/products/"];
      for (const path of paths) {
        for (const q of [
          "metadata[x][y]=1",
          "metadata[x]=",
          "metadata[x]=null",
          "organization_id[a]=b",
          `organization_id=${orgId}&organization_id[a]=b`,
        ]) {
          const res = await call("GET", `${path}?${q}`);
          expect(res.status, `${path}?${q}`).toBe(422);
        }
      }
      for (const path of ["/v1/orders/", "/v1/subscriptions/"]) {
        const res = await call("GET", `${path}?customer_id[a]=b`);
        expect(res.status, path).toBe(422);
        expect((await res.json()).detail[0].loc.slice(0, 2)).toEqual(["query", "customer_id"]);
      }
      const grants = await call("GET", `/v1/benefits/00000000-0000-0000-0000-000000000000/grants?customer_id[a]=b`);
      expect(grants.status).toBe(422);
      const ok = await call("GET", `/v1/orders/?metadata[tier]=pro&metadata[tier]=gold&customer_id=${orgId}`);
      expect(ok.status).toBe(200);
    });

    it("the contract bounds a refund's amount to what a charge can take", async () => {
      const res = await call("POST", "/v1/refunds/", {
        body: JSON.stringify({ order_id: "00000000-0000-0000-0000-000000000000", reason: "other", amount: 1.1e23 }),
      });
      expect(res.status).toBe(422);
      expect((await res.json()).detail.map((d: { loc: string[] }) => d.loc.join("."))).toEqual(["body.amount"]);
    });
  });

  describe("slow and odd requests", () => {
    let quick: ApiHandle;
    beforeAll(async () => {
      quick = await api.startAnother({ requestTimeoutMs: 1500, headersTimeoutMs: 1000 });
    });

    /** Writes `raw` on a new socket and reads until the server closes it. */
    const exchange = (raw: string) =>
      new Promise<{ text: string; closedAfterMs: number }>((resolve, reject) => {
        const started = Date.now();
        const { port } = new URL(quick.url);
        const socket = net.connect(Number(port), "127.0.0.1", () => socket.write(raw));
        let text = "";
        socket.on("data", (d) => (text += d.toString()));
        socket.on("close", () => resolve({ text, closedAfterMs: Date.now() - started }));
        socket.on("error", reject);
        setTimeout(() => reject(new Error(`socket still open: ${text}`)), 10_000).unref();
      });

    it("a body that never arrives whole: 408 with the error body, and the socket is freed", async () => {
      const { text, closedAfterMs } = await exchange(
        'POST /v1/products/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":',
      );
      expect(text).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
      expect(JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4))).toEqual({
        error: "RequestTimeout",
        detail: "The request did not arrive in time.",
      });
      expect(closedAfterMs).toBeLessThan(5_000);
    });

    it("headers that never end: 408", async () => {
      const { text } = await exchange("GET /v1/products/ HTTP/1.1\r\nHost: x\r\nX-Slow: ");
      expect(text).toMatch(/^HTTP\/1\.1 408 /);
    });

    it("keeps a short plain X-Request-Id and replaces any other", async () => {
      const echo = async (id: string) =>
        (await fetch(`${quick.url}/healthz`, { headers: { "x-request-id": id } })).headers.get("x-request-id");
      expect(await echo("req-42.a:b_C")).toBe("req-42.a:b_C");
      for (const bad of ["x".repeat(129), "has space", "semi;colon", "<script>"]) {
        const got = await echo(bad);
        expect(got, bad).not.toBe(bad);
        expect(got, bad).toMatch(/^[0-9a-f-]{36}$/);
      }
    });
  });
});
