// The contract's reading of a request: the query string (repeated keys as lists, brackets as
// objects, prototype keys dropped) and Ajv's complaints as the contract's 422 issues.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseQuery } from "../../server/http/parsers.js";
import { orgWithToken, useTestApi } from "../harness/index.js";

const api = useTestApi();

describe("the contract's input", () => {
  it("reads the query string as the contract does: repeated keys as lists, brackets as objects, prototype keys dropped", () => {
    expect(parseQuery("id=a&id=b&metadata[tier]=pro&limit=5&__proto__[x]=1")).toEqual({
      id: ["a", "b"],
      metadata: { tier: "pro" },
      limit: "5",
    });
  });

  it("maps Ajv's complaints to the contract's issues: loc from body/query/path, a missing field named", async () => {
    const { token } = await orgWithToken(api.knex);
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(api.url + path, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect(res.status, `${method} ${path}`).toBe(422);
      return ((await res.json()) as { detail: { loc: unknown[]; msg: string; type: string }[] }).detail;
    };
    expect(await call("POST", "/v1/products/", { prices: [] })).toEqual([
      { loc: ["body", "name"], msg: "Field required", type: "missing" },
      { loc: ["body", "prices"], msg: "must NOT have fewer than 1 items", type: "minItems" },
    ]);
    expect((await call("GET", "/v1/products/?limit=abc"))[0].loc).toEqual(["query", "limit"]);
  });
});

describe("a request bad in several parts", () => {
  it("gets one 422 listing the issues of its path, query and body, in that order", async () => {
    const { token } = await orgWithToken(api.knex);
    const patch = async (path: string, body: unknown) => {
      const res = await fetch(api.url + path, {
        method: "PATCH",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(res.status, path).toBe(422);
      return ((await res.json()) as { detail: unknown[] }).detail;
    };
    expect(await patch("/v1/organization-access-tokens/not-a-uuid?bogus=1", { comment: 5 })).toEqual([
      { loc: ["path", "id"], msg: "Input should be a valid UUID", type: "uuid_parsing" },
      { loc: ["query", "bogus"], msg: "Extra inputs are not permitted", type: "extra_forbidden" },
      { loc: ["body", "comment"], msg: "must be string,null", type: "type" },
    ]);
    // Fastify checks the body before the query: the query's issues are listed all the same.
    expect(await patch(`/v1/products/${randomUUID()}?bogus=1`, { name: 5 })).toEqual([
      { loc: ["query", "bogus"], msg: "Extra inputs are not permitted", type: "extra_forbidden" },
      { loc: ["body", "name"], msg: "must be string,null", type: "type" },
    ]);
  });
});
