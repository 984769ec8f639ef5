// The headers the 1.x client (@polar-sh/sdk 1.0.1) sends. Polar-Version (server/kit/api-versions.ts):
// a served version shapes the answer and is named back, none is the default (2026-04), an unknown
// one is a 404 as in Polar; the shaping itself from the contract's `x-api-version` marks.
// Polar-Organization (server/auth/callers.ts): naming another organization than the credentials' is refused.
import { describe, expect, it } from "vitest";
import { PolarClientError } from "polar-sdk-1";
import { createPolar } from "polar-sdk-1/2026-10";
import { API_VERSIONS, DEFAULT_API_VERSION, versionedShapes, versionedWebhooks } from "../../server/kit/api-versions.js";
import { createCustomer, createCustomerSessionToken, createLicenseKey, orgWithToken, useTestApi } from "../harness/index.js";

const api = useTestApi();

async function call(path: string, bearer: string, version?: string, init: { method?: string; body?: unknown } = {}) {
  const res = await fetch(`${api.url}${path}`, {
    method: init.method ?? "GET",
    headers: {
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      ...(version === undefined ? {} : { "polar-version": version }),
      ...(init.body ? { "content-type": "application/json" } : {}),
    },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  return { status: res.status, version: res.headers.get("polar-version"), body: (await res.json()) as Record<string, unknown> };
}

describe("Polar-Version", () => {
  it("serves 2026-04 (the default) and 2026-10", () => {
    expect(API_VERSIONS).toEqual(["2026-04", "2026-10"]);
    expect(DEFAULT_API_VERSION).toBe("2026-04");
  });

  it("chooses the license key's shape: member_id and member from 2026-10 on, none before or without the header", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const key = await createLicenseKey(api.knex, org.id, {
      properties: { prefix: null, expires: null, activations: { limit: 3, enable_customer_admin: true }, limit_usage: null },
    });
    for (const [version, named] of [
      [undefined, "2026-04"],
      ["2026-04", "2026-04"],
      ["2026-10", "2026-10"],
    ] as const) {
      const got = await call(`/v1/license-keys/${key.id}`, token, version);
      expect(got.status).toBe(200);
      expect(got.version).toBe(named);
      expect(got.body.id).toBe(key.id);
      if (named === "2026-10") expect(got.body).toMatchObject({ member_id: null, member: null });
      expect("member_id" in got.body && "member" in got.body).toBe(named === "2026-10");
      // Nested too: the list's items, and the key inside an activation.
      const list = await call("/v1/license-keys/", token, version);
      expect("member_id" in (list.body.items as Record<string, unknown>[])[0]).toBe(named === "2026-10");
    }
    const activated = await call("/v1/license-keys/activate", token, "2026-04", {
      method: "POST",
      body: { key: key.key, organization_id: org.id, label: "Laptop" },
    });
    expect(activated.status).toBe(200);
    expect("member_id" in (activated.body.license_key as Record<string, unknown>)).toBe(false);
    const read = await call(`/v1/license-keys/${key.id}/activations/${String(activated.body.id)}`, token, "2026-10");
    expect((read.body.license_key as Record<string, unknown>).member).toBeNull();
    // The portal's and the public validation's answers too.
    const session = await createCustomerSessionToken(api.knex, key.customer_id);
    const portal = await call(`/v1/customer-portal/license-keys/${key.id}`, session, "2026-10");
    expect(portal.body).toMatchObject({ id: key.id, member_id: null, member: null });
    const validated = await call("/v1/customer-portal/license-keys/validate", "", "2026-04", {
      method: "POST",
      body: { key: key.key, organization_id: org.id },
    });
    expect(validated.status).toBe(200);
    expect("member" in validated.body).toBe(false);
  });

  it("answers an unknown version 404, like a route that does not exist, and names none", async () => {
    const { token } = await orgWithToken(api.knex);
    for (const version of ["2027-01", "2025-12", "latest", "2026-04, 2026-10"]) {
      const got = await call("/v1/products/", token, version);
      expect(got.status, version).toBe(404);
      expect(got.body).toEqual({ error: "ResourceNotFound", detail: expect.stringContaining("2026-04 or 2026-10") });
      expect(got.version).toBeNull();
    }
    // An empty header is no header.
    expect((await call("/v1/products/", token, "")).version).toBe("2026-04");
  });

  it("names the version on every /v1 answer, errors included", async () => {
    const { token } = await orgWithToken(api.knex);
    expect((await call("/v1/products/00000000-0000-4000-8000-000000000000", token, "2026-10")).version).toBe("2026-10");
    expect((await call("/v1/products/?limit=0", token, "2026-10")).status).toBe(422);
    expect((await call("/v1/products/?limit=0", token, "2026-10")).version).toBe("2026-10");
    expect((await call("/v1/no-such-route", token)).version).toBe("2026-04");
  });

  it("lets a browser send it to the portal and public calls, and read it back", async () => {
    const preflight = await fetch(`${api.url}/v1/customer-portal/customers/me`, {
      method: "OPTIONS",
      headers: {
        origin: "https://shop.example",
        "access-control-request-method": "GET",
        "access-control-request-headers": "authorization, polar-version",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-headers")?.split(", ")).toContain("polar-version");
    const answer = await fetch(`${api.url}/v1/checkouts/client/polar_c_nothing`, {
      headers: { origin: "https://shop.example", "polar-version": "2026-10" },
    });
    expect(answer.headers.get("access-control-expose-headers")?.split(", ")).toContain("polar-version");
    expect(answer.headers.get("polar-version")).toBe("2026-10");
  });
});

describe("Polar-Organization", () => {
  it("is the credentials' own organization, or the call is refused 403", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const other = await orgWithToken(api.knex);
    const own = createPolar({ accessToken: token, baseUrl: api.url, organizationId: org.id });
    expect((await own.products.list()).items).toEqual([]);
    const elsewhere = createPolar({ accessToken: token, baseUrl: api.url, organizationId: other.org.id });
    const refused = await elsewhere.products.list().then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(PolarClientError);
    expect(refused instanceof PolarClientError && refused.statusCode).toBe(403);
    expect(refused instanceof PolarClientError && String(refused.error)).toContain("NotPermitted");
    // A customer's session acts on the customer's organization.
    const session = await createCustomerSessionToken(api.knex, (await createCustomer(api.knex, org.id)).id);
    const portal = (organizationId: string) =>
      fetch(`${api.url}/v1/customer-portal/customers/me`, {
        headers: { authorization: `Bearer ${session}`, "polar-organization": organizationId },
      });
    expect((await portal(org.id)).status).toBe(200);
    expect((await portal(other.org.id)).status).toBe(403);
  });
});

describe("versionedShapes", () => {
  const NEW = { "x-api-version": { starting_from: "2026-10" } };
  const OLD = { "x-api-version": { up_to: "2026-04" } };
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  const doc = {
    components: {
      schemas: {
        Key: {
          type: "object",
          properties: { id: { type: "string" }, member: { type: ["string", "null"], ...NEW }, legacy: { type: "string", ...OLD } },
        },
        Cat: { type: "object", properties: { kind: { const: "cat" }, key: ref("Key") } },
        Dog: { type: "object", properties: { kind: { const: "dog" }, collar: { type: "string", ...NEW } } },
        Pet: { oneOf: [ref("Cat"), ref("Dog")], discriminator: { propertyName: "kind" } },
        Tree: {
          type: "object",
          properties: { key: { anyOf: [ref("Key"), { type: "null" }] }, children: { type: "array", items: ref("Tree") } },
        },
        Plain: { type: "object", properties: { id: { type: "string" } } },
        Map: { type: "object", additionalProperties: ref("Key") },
      },
    },
    paths: {
      "/pets": {
        get: {
          operationId: "pets",
          responses: { "200": { content: { "application/json": { schema: { type: "array", items: ref("Pet") } } } } },
        },
      },
      "/tree": { get: { operationId: "tree", responses: { "200": { content: { "application/json": { schema: ref("Tree") } } } } } },
      "/plain": { get: { operationId: "plain", responses: { "200": { content: { "application/json": { schema: ref("Plain") } } } } } },
      "/map": { get: { operationId: "map", responses: { "200": { content: { "application/json": { schema: ref("Map") } } } } } },
    },
  };
  const shape = versionedShapes(doc);
  const key = { id: "k", member: null, legacy: "x" };

  it("leaves out what a version does not have, through tagged unions, lists and maps", () => {
    const pets = [
      { kind: "cat", key },
      { kind: "dog", collar: "red" },
    ];
    expect(shape("pets", 200, "2026-04", pets)).toEqual([{ kind: "cat", key: { id: "k", legacy: "x" } }, { kind: "dog" }]);
    expect(shape("pets", 200, "2026-10", pets)).toEqual([
      { kind: "cat", key: { id: "k", member: null } },
      { kind: "dog", collar: "red" },
    ]);
    expect(shape("map", 200, "2026-10", { a: key, b: key })).toEqual({ a: { id: "k", member: null }, b: { id: "k", member: null } });
  });

  it("follows a schema that contains itself, and never writes to the handler's objects", () => {
    const tree = { key, children: [{ key: null, children: [{ key, children: [] }] }] };
    const before = JSON.stringify(tree);
    const old = shape("tree", 200, "2026-04", tree);
    expect(JSON.stringify(tree)).toBe(before);
    expect(old).toEqual({
      key: { id: "k", legacy: "x" },
      children: [{ key: null, children: [{ key: { id: "k", legacy: "x" }, children: [] }] }],
    });
  });

  it("hands on an answer without versioned properties as it is", () => {
    const body = { id: "p", member: "m" };
    expect(shape("plain", 200, "2026-04", body)).toBe(body);
    expect(shape("pets", 404, "2026-04", body)).toBe(body);
  });

  it("refuses, when built, a union without a tag whose members both have versioned properties", () => {
    const ambiguous = { ...doc, components: { schemas: { ...doc.components.schemas, Either: { oneOf: [ref("Key"), ref("Dog")] } } } };
    expect(() => versionedShapes(ambiguous)).toThrow(/several members with versioned properties/);
  });
});

describe("versionedWebhooks", () => {
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  const body = (schema: object) => ({ post: { requestBody: { content: { "application/json": { schema } } } } });
  const doc = {
    paths: {},
    components: {
      schemas: {
        Key: {
          type: "object",
          properties: { id: { type: "string" }, member: { type: ["string", "null"], "x-api-version": { starting_from: "2026-10" } } },
        },
        KeyPayload: { type: "object", properties: { type: { const: "key.created" }, data: ref("Key") } },
        Plain: { type: "object", properties: { type: { const: "plain" }, data: { type: "object" } } },
      },
    },
    webhooks: { "key.created": body(ref("KeyPayload")), plain: body(ref("Plain")) },
  };
  const shape = versionedWebhooks(doc);
  const payload = JSON.stringify({ type: "key.created", data: { id: "k", member: null } });

  it("shapes a payload in its event's version", () => {
    expect(JSON.parse(shape("key.created", "2026-10", payload))).toEqual({ type: "key.created", data: { id: "k", member: null } });
    expect(JSON.parse(shape("key.created", "2026-04", payload))).toEqual({ type: "key.created", data: { id: "k" } });
  });

  it("sends the stored text itself where no version differs", () => {
    const plain = '{"type":"plain",  "data":{"a":1}}';
    expect(shape("plain", "2026-04", plain)).toBe(plain);
    expect(shape("unknown.type", "2026-04", payload)).toBe(payload);
  });
});
