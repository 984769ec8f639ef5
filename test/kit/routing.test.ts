// Routing edges: a method a path does not have answers 405 with the methods of the path the URL
// names — a concrete path (`/v1/license-keys/activate`) over a template it also fits
// (`/v1/license-keys/{id}`).
import { describe, expect, it } from "vitest";
import { useTestApi } from "../harness/index.js";

const api = useTestApi();

describe("routing", () => {
  it("answers 405 with the Allow header of the concrete path, or of the templates when there is none", async () => {
    const cases: [string, string, string][] = [
      ["OPTIONS", "/v1/license-keys/activate", "POST"],
      // (OPTIONS on a portal or public path is a CORS preflight: test/http/security.test.ts.)
      ["PUT", "/v1/customer-portal/license-keys/validate", "POST"],
      ["PUT", "/v1/subscriptions/export", "GET"],
      ["DELETE", "/v1/products/", "GET, POST"],
      ["PUT", "/v1/products/4b7d7b43-5d7a-4a3b-9d56-0cbbf0a3e0a1", "GET, PATCH"],
      // A template's method (DELETE /v1/customer-seats/{seat_id}) is not served on a concrete path it fits.
      ["DELETE", "/v1/customer-seats/claim", "POST"],
      ["DELETE", "/v1/customer-portal/seats/subscriptions", "GET"],
    ];
    for (const [method, path, allow] of cases) {
      const res = await fetch(`${api.url}${path}`, { method });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get("allow"), `${method} ${path}`).toBe(allow);
      expect(await res.json()).toEqual({ error: "MethodNotAllowed", detail: `${method} is not allowed on ${path}.` });
    }
  });
});

describe("routing of an empty path segment", () => {
  it("answers 405 for a collection path with a method only its items have, never the item's operation with an empty id", async () => {
    for (const [method, path, allow] of [
      ["PATCH", "/v1/benefits/", "GET, POST"],
      ["DELETE", "/v1/checkout-links/", "GET, POST"],
    ]) {
      const res = await fetch(`${api.url}${path}`, { method, headers: { "content-type": "application/json" }, body: "{}" });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get("allow"), `${method} ${path}`).toBe(allow);
    }
  });
});

describe("routing of a method nothing serves", () => {
  it("answers QUERY, which has no route here, with the path's 405 like any other method", async () => {
    const put = await fetch(`${api.url}/v1/benefits/0`, { method: "PUT" });
    expect(put.status).toBe(405);
    const query = await fetch(`${api.url}/v1/benefits/0`, { method: "QUERY" });
    expect(query.status).toBe(405);
    expect(query.headers.get("allow")).toBe(put.headers.get("allow"));
    expect(await query.json()).toEqual({ error: "MethodNotAllowed", detail: "QUERY is not allowed on /v1/benefits/0." });
  });
});
