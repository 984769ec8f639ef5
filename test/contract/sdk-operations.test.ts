/* eslint-disable @typescript-eslint/no-explicit-any -- walks the JSON contract generically */
// The contract against the official client: same operations (method, path, operationId), and
// beyond them only 0.49.0's; scopes on every merchant call, the 27 webhook events, and every
// schema compiling in ajv 2020.
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { operations } from "../../generated/operations.js";
import { validateResponse } from "../../generated/validators.js";
import { isExtension } from "../../codegen/lib/extensions.js";

const spec = JSON.parse(readFileSync(new URL("../../generated/openapi.json", import.meta.url), "utf8"));
const sdkOps: Array<{ fn: string; method: string; path: string; operationId: string }> = JSON.parse(
  readFileSync(new URL("../../../shared/sdk-operations.json", import.meta.url), "utf8"),
);
const METHODS = ["get", "post", "put", "patch", "delete"];

const WEBHOOK_EVENTS = [
  "checkout.created",
  "checkout.updated",
  "customer.created",
  "customer.updated",
  "customer.deleted",
  "customer.state_changed",
  "order.created",
  "order.updated",
  "order.paid",
  "order.refunded",
  "subscription.created",
  "subscription.updated",
  "subscription.active",
  "subscription.canceled",
  "subscription.uncanceled",
  "subscription.revoked",
  "refund.created",
  "refund.updated",
  "product.created",
  "product.updated",
  "benefit.created",
  "benefit.updated",
  "benefit_grant.created",
  "benefit_grant.cycled",
  "benefit_grant.updated",
  "benefit_grant.revoked",
  "organization.updated",
  // After 0.34.17's 27: a team customer's members (0.49.0).
  "member.created",
  "member.updated",
  "member.deleted",
  // Seats (0.49.0).
  "customer_seat.assigned",
  "customer_seat.claimed",
  "customer_seat.revoked",
];

/** The contract's operations, less our own extensions (tagged apart: they are not Polar's). */
function contractOps() {
  const out: Array<{ method: string; path: string; operationId: string; op: any }> = [];
  for (const [path, item] of Object.entries<any>(spec.paths)) {
    for (const m of METHODS) {
      if (item[m] && !isExtension({ tag: item[m].tags?.[0] ?? "" }))
        out.push({ method: m.toUpperCase(), path, operationId: item[m].operationId, op: item[m] });
    }
  }
  return out;
}

const isMerchant = (path: string) =>
  path.startsWith("/v1/") &&
  !path.startsWith("/v1/customer-portal/") &&
  !path.startsWith("/v1/checkouts/client/") &&
  !path.startsWith("/v1/oauth2/");

/** 0.49.0's (method, path, operationId) triples, read from its standalone functions. */
function sdk049Ops(): Set<string> {
  const dir = join(dirname(createRequire(import.meta.url).resolve("polar-sdk-049/package.json")), "src", "funcs");
  const out = new Set<string>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts"))) {
    const source = readFileSync(join(dir, file), "utf8");
    const path = /pathToFunc\(\s*"([^"]+)"/.exec(source)?.[1];
    const method = /\bmethod: "([A-Z]+)"/.exec(source)?.[1];
    const operationId = /\boperationID: "([^"]+)"/.exec(source)?.[1];
    if (path && method && operationId) out.add(`${method} ${path} ${operationId}`);
  }
  return out;
}

describe("contract vs @polar-sh/sdk@0.34.17", () => {
  it("has the client's 128 (method, path, operationId) triples, and beyond them only 0.49.0's", () => {
    const key = (o: { method: string; path: string; operationId: string }) => `${o.method} ${o.path} ${o.operationId}`;
    const ours = contractOps().map(key).sort();
    const theirs = sdkOps.map(key).sort();
    expect(theirs).toHaveLength(128);
    expect(theirs.filter((k) => !ours.includes(k))).toEqual([]);
    const newer = sdk049Ops();
    expect(ours.filter((k) => !theirs.includes(k) && !newer.has(k))).toEqual([]);
  });

  it("declares scopes on every merchant operation (security requirement and x-scopes)", () => {
    const merchant = contractOps().filter((o) => isMerchant(o.path));
    expect(merchant.length).toBeGreaterThanOrEqual(92);
    for (const { operationId, op } of merchant) {
      const scopes: string[] = op["x-scopes"];
      expect(scopes, operationId).toBeInstanceOf(Array);
      expect(scopes.length, operationId).toBeGreaterThan(0);
      expect(op.security, operationId).toEqual([{ access_token: scopes }]);
      expect(operations[operationId as keyof typeof operations].scopes, operationId).toEqual(scopes);
    }
  });

  it("authenticates portal calls with the customer session, except the public ones", () => {
    const portal = contractOps().filter((o) => o.path.startsWith("/v1/customer-portal/"));
    expect(portal.filter((o) => sdkOps.some((s) => s.operationId === o.operationId))).toHaveLength(28);
    const publicOnes = portal
      .filter((o) => o.op.security.length === 0)
      .map((o) => o.path)
      .sort();
    expect(publicOnes).toEqual([
      "/v1/customer-portal/customers/me/email-update/check",
      "/v1/customer-portal/customers/me/email-update/verify",
      "/v1/customer-portal/license-keys/activate",
      "/v1/customer-portal/license-keys/deactivate",
      "/v1/customer-portal/license-keys/validate",
      "/v1/customer-portal/organizations/{slug}",
    ]);
    for (const o of portal) if (o.op.security.length) expect(Object.keys(o.op.security[0]), o.operationId).toEqual(["customer_session"]);
  });

  it("lists the 27 webhook events, member.* and customer_seat.* under webhooks, each {type, timestamp, data}", () => {
    expect(Object.keys(spec.webhooks).sort()).toEqual([...WEBHOOK_EVENTS].sort());
    for (const [type, item] of Object.entries<any>(spec.webhooks)) {
      const ref: string = item.post.requestBody.content["application/json"].schema.$ref;
      const schema = spec.components.schemas[ref.replace("#/components/schemas/", "")];
      expect(schema.properties.type.const, type).toBe(type);
      expect(schema.properties.timestamp).toMatchObject({ type: "string", format: "date-time" });
      expect(schema.required).toEqual(expect.arrayContaining(["type", "timestamp", "data"]));
    }
  });

  it("uses the client's status codes for create, delete, invoice generation, redeliver and export", () => {
    for (const o of contractOps()) {
      const codes = Object.keys(o.op.responses).filter((c) => c.startsWith("2"));
      if (o.method === "DELETE" && !["subscriptions:revoke", "customer_portal:subscriptions:cancel"].includes(o.operationId)) {
        expect(codes, o.operationId).toEqual(["204"]);
        expect(o.op.responses["204"].content, o.operationId).toBeUndefined();
      }
    }
    expect(operations["orders:generate_invoice"]).toMatchObject({ successStatus: 202, successContentType: "application/json" });
    expect(operations["customer_portal:orders:generate_invoice"]).toMatchObject({
      successStatus: 202,
      successContentType: "application/json",
    });
    expect(operations["webhooks:redeliver_webhook_event"]).toMatchObject({ successStatus: 202, successContentType: "application/json" });
    expect(operations["subscriptions:export"]).toMatchObject({ successStatus: 200, successContentType: "text/csv" });
    expect(operations["products:create"].successStatus).toBe(201);
    expect(operations["oauth2:request_token"].security).toBe("client_credentials");
    expect(operations["checkouts:client_confirm"].security).toBe("optional_access_token");
    expect(operations["checkouts:client_get"].security).toBe("public");
  });

  it("compiles every component schema with ajv 2020", () => {
    const ajv = new Ajv2020.default({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema({ $id: "borealis", components: { schemas: spec.components.schemas } });
    for (const name of Object.keys(spec.components.schemas)) {
      expect(() => ajv.getSchema(`borealis#/components/schemas/${name}`), name).not.toThrow();
    }
  });

  it("validates typed error bodies and rejects naive datetimes", () => {
    expect(validateResponse("products:get", 404, { error: "ResourceNotFound", detail: "Not found" }).valid).toBe(true);
    expect(validateResponse("products:get", 404, { error: "Nope", detail: "x" }).valid).toBe(false);
    expect(validateResponse("products:list", 422, { detail: [{ loc: ["query", "limit"], msg: "bad", type: "int_parsing" }] }).valid).toBe(
      true,
    );
    expect(validateResponse("benefits:delete", 204, null).valid).toBe(true);
    const page = { items: [], pagination: { total_count: 0, max_page: 0 } };
    expect(validateResponse("products:list", 200, page).valid).toBe(true);
    expect(validateResponse("products:list", 200, { items: [] }).valid).toBe(false);
  });
});
