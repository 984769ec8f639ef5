// Id filters in queries (`?product_id=…`, `?organization_id=…`) are UUIDs, typed so in the contract
// and checked by its validator for every operation: a malformed one is a 422 naming the query field,
// as Polar answers (uuid_parsing), not a 200 with an empty page.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { createCustomer, createCustomerSessionToken, orgWithToken, useTestApi } from "../harness/index.js";

const api = useTestApi();
const contract = JSON.parse(readFileSync(new URL("../../generated/openapi.json", import.meta.url), "utf8"));

interface Schema {
  type?: string | string[];
  format?: string;
  items?: Schema;
}
interface QueryFilter {
  operationId: string;
  method: string;
  path: string;
  name: string;
  schema: Schema;
}

/** Query parameters that name rows by id: `id` and `…_id`, but not the caller's own external ids or an OAuth2 client's id. */
const ID_FILTER = /^(id|\w+_id)$/;
const NOT_UUIDS = new Set(["external_customer_id", "client_id"]);

const idFilters: QueryFilter[] = Object.entries(
  contract.paths as Record<string, Record<string, { operationId: string; parameters?: { name: string; in: string; schema: Schema }[] }>>,
).flatMap(([path, item]) =>
  Object.entries(item).flatMap(([method, op]) =>
    (op.parameters ?? [])
      .filter((p) => p.in === "query" && ID_FILTER.test(p.name) && !NOT_UUIDS.has(p.name))
      .map((p) => ({ operationId: op.operationId, method: method.toUpperCase(), path, name: p.name, schema: p.schema })),
  ),
);

describe("id filters", () => {
  let merchant: string;
  let customer: string;

  beforeAll(async () => {
    const { org, token } = await orgWithToken(api.knex);
    merchant = token;
    customer = await createCustomerSessionToken(api.knex, (await createCustomer(api.knex, org.id)).id);
  });

  const call = (filter: QueryFilter, value: string) => {
    const path = filter.path.replace(/\{[^}]+\}/g, randomUUID());
    const token = filter.path.startsWith("/v1/customer-portal/") ? customer : merchant;
    return fetch(`${api.url}${path}?${new URLSearchParams({ [filter.name]: value })}`, {
      method: filter.method,
      headers: { authorization: `Bearer ${token}` },
    });
  };

  it("are typed as UUIDs in the contract, lists and scalars alike", () => {
    expect(idFilters.length).toBeGreaterThan(60);
    for (const f of idFilters) expect(f.schema.items?.format ?? f.schema.format, `${f.operationId} ${f.name}`).toBe("uuid");
  });

  it("answer a malformed id with 422 naming the query field, on every operation", async () => {
    for (const filter of idFilters) {
      for (const bad of ["not-a-uuid", "urn:uuid:8a0f3b1e-0000-4000-8000-000000000000", "8a0f3b1e00004000800000000000000"]) {
        const res = await call(filter, bad);
        const where = `${filter.operationId} ${filter.name}=${bad}`;
        expect(res.status, where).toBe(422);
        const loc = filter.schema.type === "array" ? ["query", filter.name, 0] : ["query", filter.name];
        expect((await res.json()).detail, where).toContainEqual({ loc, msg: "Input should be a valid UUID", type: "uuid_parsing" });
      }
    }
  });

  it("take well-formed ids, given once or repeated", async () => {
    const headers = { authorization: `Bearer ${merchant}` };
    for (const qs of [`product_id=${randomUUID()}`, `product_id=${randomUUID()}&product_id=${randomUUID().toUpperCase()}`]) {
      const res = await fetch(`${api.url}/v1/orders/?${qs}`, { headers });
      expect(res.status, qs).toBe(200);
      expect(((await res.json()) as { items: unknown[] }).items).toEqual([]);
    }
    const mixed = await fetch(`${api.url}/v1/products/?id=${randomUUID()}&id=nope`, { headers });
    expect((await mixed.json()).detail).toEqual([{ loc: ["query", "id", 1], msg: "Input should be a valid UUID", type: "uuid_parsing" }]);
  });
});
