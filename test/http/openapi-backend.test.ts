// Pins every openapi-backend behaviour the HTTP layer relies on (server/http/contract.ts,
// routing.ts, errors.ts), against the real contract and without a server, so that upgrading the
// library is a test run: path matching (trailing slashes, a concrete path over a template, 404 and
// 405), our patched matcher and parser agreeing with the library's own, query and path coercion,
// and Ajv's complaints mapped to the contract's 422 issues.
import { describe, expect, it } from "vitest";
import type { Context, OpenAPIBackend, Operation, Request } from "openapi-backend";
import type { ErrorObject } from "ajv";
import { createBackend } from "../../server/http/contract.js";
import { toIssues } from "../../server/http/errors.js";
import {
  allowedMethods,
  dispatch,
  installFastParsing,
  installFastRouting,
  parseQuery,
  type RouteMisses,
} from "../../server/http/routing.js";

type Outcome = { handler: string; operationId?: string; params?: unknown; query?: unknown; body?: unknown; issues?: unknown };

/** A backend over the contract whose handlers answer what they saw; `patched` adds our routing and parsing. */
async function backend(patched: boolean): Promise<OpenAPIBackend> {
  const api = createBackend();
  const seen =
    (handler: string) =>
    (c: Context): Outcome => ({
      handler,
      operationId: c.operation?.operationId,
      params: c.request?.params,
      query: c.request?.query,
      body: c.request?.requestBody,
    });
  api.register({
    notImplemented: seen("operation"),
    notFound: seen("notFound"),
    methodNotAllowed: seen("methodNotAllowed"),
    validationFail: (c: Context): Outcome => ({
      handler: "validationFail",
      issues: toIssues((c.validation.errors ?? []) as ErrorObject[]),
    }),
  });
  await api.init();
  if (patched) {
    installFastRouting(api);
    installFastParsing(api);
  }
  return api;
}

const ours = await backend(true);
const library = await backend(false);

const misses: RouteMisses<[]> = { notFound: () => ({ handler: "notFound" }), methodNotAllowed: () => ({ handler: "methodNotAllowed" }) };

/**
 * The app's way (`dispatch` over our routing and parsing, handed the operation already matched as
 * the operation lane does, or routing itself on a miss) on `ours`, the library's handleRequest on `library`.
 */
async function call(api: OpenAPIBackend, method: string, url: string, body?: unknown): Promise<Outcome> {
  const [path, raw = ""] = url.split("?");
  const req = { method, path, query: parseQuery(raw) as Record<string, string>, body, headers: { "content-type": "application/json" } };
  return (api === ours ? await dispatch(ours, req, misses, ours.router.matchOperation(req)) : await api.handleRequest(req)) as Outcome;
}

describe("openapi-backend as the HTTP layer uses it", () => {
  it("matches collection paths only with their trailing slash, as the contract writes them", async () => {
    expect(await call(ours, "GET", "/v1/products/")).toMatchObject({ handler: "operation", operationId: "products:list" });
    expect(await call(ours, "GET", "/v1/products")).toMatchObject({ handler: "notFound" });
    expect(await call(ours, "GET", "/v1/products/4b7d7b43-5d7a-4a3b-9d56-0cbbf0a3e0a1/")).toMatchObject({ handler: "notFound" });
  });

  it("prefers a concrete path over a template it also fits, and answers 404 / 405 through their handlers", async () => {
    expect(ours.router.matchOperation({ method: "POST", path: "/v1/license-keys/activate", headers: {} })?.operationId).toBe(
      "license_keys:activate",
    );
    expect(ours.router.matchOperation({ method: "PATCH", path: "/v1/license-keys/activate", headers: {} })?.operationId).toBe(
      "license_keys:update",
    );
    expect(await call(ours, "DELETE", "/v1/products/")).toMatchObject({ handler: "methodNotAllowed" });
    expect(await call(ours, "GET", "/v1/no-such-thing/")).toMatchObject({ handler: "notFound" });
    expect(allowedMethods(ours, "/v1/products/")).toEqual(["GET", "POST"]);
    expect(allowedMethods(ours, "/v1/license-keys/activate")).toEqual(["POST"]);
  });

  it("routes every operation of the contract as the library's own matcher does", () => {
    const operations = library.router.getOperations();
    expect(operations.length).toBeGreaterThan(100);
    for (const op of operations) {
      const path = op.path.replace(/\{[^}]+\}/g, "x1");
      for (const method of [op.method, "patch", "put"]) {
        const req = { method, path, headers: {} };
        const mine = () => ours.router.matchOperation(req, true)?.operationId;
        const theirs = () => library.router.matchOperation(req, true)?.operationId;
        let expected: string | undefined;
        try {
          expected = theirs();
        } catch (err) {
          expect(mine, `${method} ${path}`).toThrow((err as Error).message.slice(0, 3));
          continue;
        }
        expect(mine(), `${method} ${path}`).toBe(expected);
      }
    }
  });

  // openapi-backend types a query as flat strings and lists; the app hands it deepObject
  // parameters (metadata[tier]=pro) parsed into objects, which its parser copies as they are.
  const deepQuery = (query: Record<string, unknown>) => query as Request["query"];

  it("parses a request as the library does: path parameters decoded, the query copied, the body as given", () => {
    const op = library.router.getOperation("products:get")!;
    const list = library.router.getOperation("products:list")!;
    const cases: Array<[Request, Operation]> = [
      [{ method: "GET", path: "/v1/products/a%20b", query: {}, headers: { Accept: "application/json" } }, op],
      [
        { method: "GET", path: "/v1/products/", query: deepQuery({ limit: "5", id: ["a", "b"], metadata: { tier: "pro" } }), headers: {} },
        list,
      ],
      [{ method: "POST", path: "/v1/products/", query: {}, body: { name: "x" }, headers: { "content-type": "application/json" } }, list],
    ];
    for (const [req, operation] of cases) {
      const mine = ours.router.parseRequest(structuredClone(req), operation);
      const theirs = library.router.parseRequest(structuredClone(req), operation);
      expect(mine).toEqual(theirs);
    }
    expect(ours.router.parseRequest({ method: "GET", path: "/v1/products/a%20b", query: {}, headers: {} }, op).params).toEqual({
      id: "a b",
    });
  });

  it("coerces query parameters to the contract's types after validation", async () => {
    const out = await call(ours, "GET", "/v1/products/?limit=100&page=2&is_archived=false&id=4b7d7b43-5d7a-4a3b-9d56-0cbbf0a3e0a1");
    expect(out).toMatchObject({ handler: "operation", operationId: "products:list" });
    expect(out.query).toMatchObject({ limit: 100, page: 2, is_archived: false });
    const many = await call(ours, "GET", "/v1/products/?id=4b7d7b43-5d7a-4a3b-9d56-0cbbf0a3e0a1&id=5b7d7b43-5d7a-4a3b-9d56-0cbbf0a3e0a1");
    expect((many.query as { id: string[] }).id).toHaveLength(2);
  });

  it("maps Ajv's complaints to the contract's issues: loc from body/query/path, a missing field named", async () => {
    const body = await call(ours, "POST", "/v1/products/", { prices: [] });
    expect(body.handler).toBe("validationFail");
    expect(body.issues).toEqual([
      { loc: ["body", "name"], msg: "Field required", type: "missing" },
      { loc: ["body", "prices"], msg: "must NOT have fewer than 1 items", type: "minItems" },
    ]);
    const query = await call(ours, "GET", "/v1/products/?limit=abc");
    expect(query.handler).toBe("validationFail");
    expect((query.issues as { loc: unknown[] }[])[0].loc).toEqual(["query", "limit"]);
  });

  it("dispatches as the library's handleRequest does: every operation, bad input, misses", async () => {
    const urls: Array<[string, string, unknown?]> = [];
    for (const op of library.router.getOperations()) {
      const path = op.path.replace(/\{[^}]+\}/g, "4b7d7b43-5d7a-4a3b-9d56-0cbbf0a3e0a1");
      urls.push([op.method.toUpperCase(), path, op.method === "get" || op.method === "delete" ? undefined : {}], ["PUT", path]);
    }
    urls.push(
      ["GET", "/v1/products/?limit=abc&page=2&metadata[tier]=pro"],
      ["GET", "/v1/products/?id=4b7d7b43-5d7a-4a3b-9d56-0cbbf0a3e0a1&id=x&is_archived=true"],
      ["POST", "/v1/products/", { name: "x", prices: [{ amount_type: "fixed", price_amount: "1" }] }],
      ["GET", "/v1/products"],
      ["GET", "/v1/no-such-thing/"],
    );
    for (const [method, url, body] of urls) {
      const mine = await call(ours, method, url, structuredClone(body));
      const theirs = await call(library, method, url, structuredClone(body));
      if (theirs.handler === "notFound" || theirs.handler === "methodNotAllowed")
        expect(mine, `${method} ${url}`).toEqual({ handler: theirs.handler });
      else expect(mine, `${method} ${url}`).toEqual(theirs);
    }
  });

  it("reads the query string as the contract does: repeated keys as lists, brackets as objects, prototype keys dropped", () => {
    expect(parseQuery("id=a&id=b&metadata[tier]=pro&limit=5&__proto__[x]=1")).toEqual({
      id: ["a", "b"],
      metadata: { tier: "pro" },
      limit: "5",
    });
  });
});
