// The contract's reading of a request: the query string (repeated keys as lists, brackets as
// objects, prototype keys dropped) and Ajv's complaints as the contract's 422 issues.
import { describe, expect, it } from "vitest";
import { parseQuery } from "../../server/http/contract.js";
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
