// A customer's saved payment methods as the merchant reads them, through 0.49.0: by id and by
// external id, the default first, deleted ones left out, paging, and the error contract.
import { describe, expect, it, beforeAll } from "vitest";
import type { Polar as Polar049 } from "polar-sdk-049";
import { HTTPValidationError } from "polar-sdk-049/models/errors/httpvalidationerror.js";
import { ResourceNotFound } from "polar-sdk-049/models/errors/resourcenotfound.js";
import { SDKError } from "polar-sdk-049/models/errors/sdkerror.js";
import { collectPages, createCustomer, createPaymentMethod, orgWithToken, rejects, useTestApi } from "../harness/index.js";

const api = useTestApi();

describe("customers' payment methods", () => {
  let polar: Polar049;
  let orgId: string;

  beforeAll(async () => {
    const { org, token } = await orgWithToken(api.knex);
    orgId = org.id;
    polar = api.client049(token);
  });

  it("lists a customer's saved cards by id and by external id, the default first", async () => {
    const customer = await createCustomer(api.knex, orgId, { external_id: "pm-ext-1" });
    const older = await createPaymentMethod(api.knex, orgId, customer.id, { created_at: new Date("2025-01-01T00:00:00Z") });
    const fallback = await createPaymentMethod(api.knex, orgId, customer.id, {
      is_default: true,
      created_at: new Date("2024-06-01T00:00:00Z"),
      method_metadata: { brand: "mastercard", last4: "4444", exp_month: 3, exp_year: 2031 },
    });
    const newer = await createPaymentMethod(api.knex, orgId, customer.id, { created_at: new Date("2025-02-01T00:00:00Z") });
    await createPaymentMethod(api.knex, orgId, customer.id, { deleted_at: new Date() });
    const other = await createCustomer(api.knex, orgId);
    await createPaymentMethod(api.knex, orgId, other.id);

    const items = await collectPages(await polar.customers.listPaymentMethods({ id: customer.id }));
    expect(items.map((m) => m.id)).toEqual([fallback.id, newer.id, older.id]);
    expect(items[0]).toMatchObject({
      customerId: customer.id,
      processor: "stripe",
      type: "card",
      methodMetadata: { brand: "mastercard", last4: "4444", expMonth: 3, expYear: 2031 },
      isDefault: true,
    });
    const byExternal = await collectPages(await polar.customers.listPaymentMethodsExternal({ externalId: "pm-ext-1" }));
    expect(byExternal).toEqual(items);
    expect(items.slice(1).map((m) => m.isDefault)).toEqual([false, false]);

    const page = await polar.customers.listPaymentMethods({ id: customer.id, page: 2, limit: 2 });
    expect(page.result.items.map((m) => m.id)).toEqual([older.id]);
    expect(page.result.pagination).toEqual({ totalCount: 3, maxPage: 2 });
    expect((await polar.customers.listPaymentMethods({ id: other.id })).result.items).toHaveLength(1);
  });

  it("answers an empty page for a customer without saved methods", async () => {
    const customer = await createCustomer(api.knex, orgId);
    const page = await polar.customers.listPaymentMethods({ id: customer.id });
    expect(page.result).toEqual({ items: [], pagination: { totalCount: 0, maxPage: 0 } });
  });

  it("answers 404 for another organization's customer, a deleted one, or an unknown id", async () => {
    const foreignOrg = await orgWithToken(api.knex);
    const foreign = await createCustomer(api.knex, foreignOrg.org.id, { external_id: "pm-foreign" });
    await createPaymentMethod(api.knex, foreignOrg.org.id, foreign.id);
    await rejects(polar.customers.listPaymentMethods({ id: foreign.id }), ResourceNotFound);
    await rejects(polar.customers.listPaymentMethodsExternal({ externalId: "pm-foreign" }), ResourceNotFound);
    const deleted = await createCustomer(api.knex, orgId, { deleted_at: new Date() });
    await rejects(polar.customers.listPaymentMethods({ id: deleted.id }), ResourceNotFound);
    await rejects(polar.customers.listPaymentMethods({ id: "8a0f3b1e-0000-4000-8000-000000000000" }), ResourceNotFound);
    await rejects(polar.customers.listPaymentMethods({ id: "not-a-uuid" }), ResourceNotFound);
    expect((await api.client049(foreignOrg.token).customers.listPaymentMethods({ id: foreign.id })).result.items).toHaveLength(1);
  });

  it("answers 422 for a page or limit out of bounds", async () => {
    const customer = await createCustomer(api.knex, orgId);
    const tooBig = await rejects(polar.customers.listPaymentMethods({ id: customer.id, limit: 101 }), HTTPValidationError);
    expect(tooBig.detail?.[0]?.loc).toEqual(["query", "limit"]);
    const zero = await rejects(polar.customers.listPaymentMethodsExternal({ externalId: "x", page: 0 }), HTTPValidationError);
    expect(zero.detail?.[0]?.loc).toEqual(["query", "page"]);
  });

  it("answers 401 without a valid token and 403 without a customers scope", async () => {
    const customer = await createCustomer(api.knex, orgId);
    expect((await rejects(api.client049("polar_oat_nope").customers.listPaymentMethods({ id: customer.id }), SDKError)).statusCode).toBe(
      401,
    );
    const readOnly = await orgWithToken(api.knex, { scopes: ["customers:read"] });
    const mine = await createCustomer(api.knex, readOnly.org.id);
    expect((await api.client049(readOnly.token).customers.listPaymentMethods({ id: mine.id })).result.items).toEqual([]);
    const noScope = await orgWithToken(api.knex, { scopes: ["orders:read"] });
    const theirs = await createCustomer(api.knex, noScope.org.id);
    expect((await rejects(api.client049(noScope.token).customers.listPaymentMethods({ id: theirs.id }), SDKError)).statusCode).toBe(403);
  });
});
