// The merchant's list of all its benefit grants (GET /v1/benefit-grants/) through 0.49.0: every
// benefit's grants with their customer and benefit, each filter and sort key, paging, another
// organization's grants never shown, and the error contract.
import { describe, expect, it, beforeAll } from "vitest";
import type { Polar as Polar049 } from "polar-sdk-049";
import { HTTPValidationError } from "polar-sdk-049/models/errors/httpvalidationerror.js";
import { SDKError } from "polar-sdk-049/models/errors/sdkerror.js";
import { collectPages, createBenefit, createBenefitGrant, createCustomer, orgWithToken, rejects, useTestApi } from "../harness/index.js";

const api = useTestApi();
const at = (iso: string) => new Date(iso);

describe("benefit grants across benefits", () => {
  let polar: Polar049;
  let orgId: string;
  let token: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    const made = await orgWithToken(api.knex);
    const org = made.org;
    token = made.token;
    orgId = org.id;
    polar = api.client049(token);
    const support = await createBenefit(api.knex, orgId, { description: "Support" });
    const license = await createBenefit(api.knex, orgId, { description: "Extras" });
    const gone = await createBenefit(api.knex, orgId, { description: "Retired", deleted_at: new Date() });
    const ada = await createCustomer(api.knex, orgId, { email: "ada.grants@example.com", external_id: "ada-ext" });
    const bob = await createCustomer(api.knex, orgId, { email: "bob.grants@example.com" });
    ids.ada = ada.id;
    ids.bob = bob.id;
    ids.adaSupport = (
      await createBenefitGrant(api.knex, support.id, ada.id, {
        created_at: at("2025-01-01T00:00:00Z"),
        granted_at: at("2025-01-01T00:00:00Z"),
      })
    ).id;
    ids.adaExtras = (
      await createBenefitGrant(api.knex, license.id, ada.id, {
        created_at: at("2025-02-01T00:00:00Z"),
        granted_at: at("2025-02-01T00:00:00Z"),
      })
    ).id;
    ids.bobRevoked = (
      await createBenefitGrant(api.knex, support.id, bob.id, {
        created_at: at("2025-03-01T00:00:00Z"),
        granted_at: null,
        revoked_at: at("2025-03-02T00:00:00Z"),
      })
    ).id;
    await createBenefitGrant(api.knex, gone.id, bob.id);
    // Another organization's grant, to the same email.
    const other = await orgWithToken(api.knex);
    const theirs = await createCustomer(api.knex, other.org.id, { email: "ada.grants@example.com", external_id: "ada-ext" });
    ids.theirs = (await createBenefitGrant(api.knex, (await createBenefit(api.knex, other.org.id)).id, theirs.id)).id;
  });

  const list = async (req: Parameters<Polar049["benefitGrants"]["list"]>[0]) =>
    (await collectPages(await polar.benefitGrants.list(req))).map((g) => g.id);

  it("lists every grant of the organization's live benefits, newest first, with its customer and benefit", async () => {
    const grants = await collectPages(await polar.benefitGrants.list({}));
    expect(grants.map((g) => g.id)).toEqual([ids.bobRevoked, ids.adaExtras, ids.adaSupport]);
    expect(grants[2]).toMatchObject({
      customerId: ids.ada,
      isGranted: true,
      isRevoked: false,
      customer: { id: ids.ada, email: "ada.grants@example.com" },
      benefit: { description: "Support", organizationId: orgId },
    });
    expect(grants[0]).toMatchObject({ isGranted: false, isRevoked: true });
    const page = await polar.benefitGrants.list({ page: 2, limit: 2 });
    expect(page.result.items.map((g) => g.id)).toEqual([ids.adaSupport]);
    expect(page.result.pagination).toEqual({ totalCount: 3, maxPage: 2 });
  });

  it("filters by customer, external customer id, granted status and organization", async () => {
    expect(await list({ customerId: ids.ada })).toEqual([ids.adaExtras, ids.adaSupport]);
    expect(await list({ customerId: [ids.ada, ids.bob] })).toHaveLength(3);
    expect(await list({ externalCustomerId: "ada-ext" })).toEqual([ids.adaExtras, ids.adaSupport]);
    expect(await list({ externalCustomerId: "nobody" })).toEqual([]);
    expect(await list({ isGranted: true })).toEqual([ids.adaExtras, ids.adaSupport]);
    expect(await list({ isGranted: false })).toEqual([ids.bobRevoked]);
    expect(await list({ organizationId: orgId })).toHaveLength(3);
    expect(await list({ organizationId: "8a0f3b1e-0000-4000-8000-000000000000" })).toEqual([]);
  });

  it("sorts by created_at, granted_at and revoked_at", async () => {
    expect(await list({ sorting: ["created_at"] })).toEqual([ids.adaSupport, ids.adaExtras, ids.bobRevoked]);
    expect(await list({ sorting: ["-granted_at"] })).toEqual([ids.adaExtras, ids.adaSupport, ids.bobRevoked]);
    expect((await list({ sorting: ["-revoked_at"] }))[0]).toBe(ids.bobRevoked);
  });

  it("answers 422 for a malformed id filter, an unknown sort key or a bad page", async () => {
    let err = await rejects(polar.benefitGrants.list({ customerId: "not-a-uuid" }), HTTPValidationError);
    expect(err.detail?.[0]?.loc).toEqual(["query", "customer_id", 0]);
    // A sort key the client would not send.
    const res = await fetch(`${api.url}/v1/benefit-grants/?sorting=benefit`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(422);
    err = await rejects(polar.benefitGrants.list({ limit: 0 }), HTTPValidationError);
    expect(err.detail?.[0]?.loc).toEqual(["query", "limit"]);
  });

  it("answers 401 without a valid token and 403 without a benefits scope", async () => {
    expect((await rejects(api.client049("polar_oat_nope").benefitGrants.list({}), SDKError)).statusCode).toBe(401);
    const noScope = await orgWithToken(api.knex, { scopes: ["customers:read"] });
    expect((await rejects(api.client049(noScope.token).benefitGrants.list({}), SDKError)).statusCode).toBe(403);
    const readOnly = await orgWithToken(api.knex, { scopes: ["benefits:read"] });
    expect((await api.client049(readOnly.token).benefitGrants.list({})).result.items).toEqual([]);
  });
});
