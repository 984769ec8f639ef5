// Merchant license keys through the official client: list (every filter, paging), get with
// activations, update (status, usage, limits, expiry), activation get, and validate / activate /
// deactivate with each rule (organization, status, expiry, benefit, customer, usage limit,
// activation conditions, activation limit); 404 for another organization's key, the typed 401
// bodies where the contract documents them, 403 for a token without the scope, 422 bad bodies.
import { invalid } from "../harness/index.js";
import { beforeAll, describe, expect, it } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import { HTTPValidationError } from "@polar-sh/sdk/models/errors/httpvalidationerror.js";
import { NotPermitted } from "@polar-sh/sdk/models/errors/notpermitted.js";
import { ResourceNotFound } from "@polar-sh/sdk/models/errors/resourcenotfound.js";
import { SDKError } from "@polar-sh/sdk/models/errors/sdkerror.js";
import { Unauthorized } from "@polar-sh/sdk/models/errors/unauthorized.js";
import { collectPages, createBenefit, createCustomer, createLicenseKey, orgWithToken, rejects, useTestApi } from "../harness/index.js";
import { displayKey, expiryFrom, generateKey } from "../../server/license-keys/service.js";

const api = useTestApi();
const LICENSE = { type: "license_keys", description: "License" };

describe("license keys (merchant)", () => {
  let polar: Polar;
  let token: string;
  let orgId: string;
  let benefitA: string;
  let benefitB: string;
  let customerId: string;

  beforeAll(async () => {
    const k = api.knex;
    const made = await orgWithToken(k);
    orgId = made.org.id;
    token = made.token;
    polar = api.client(token);
    benefitA = (await createBenefit(k, orgId, { ...LICENSE, properties: JSON.stringify({ prefix: "A" }) })).id;
    benefitB = (await createBenefit(k, orgId, { ...LICENSE, properties: JSON.stringify({ prefix: "B" }) })).id;
    customerId = (await createCustomer(k, orgId)).id;
  });

  it("creates keys the way Polar shapes them: prefix, uppercase UUID, ****- display key, expiry", async () => {
    const key = generateKey("ACME");
    expect(key).toMatch(/^ACME-[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/);
    expect(generateKey(null)).toMatch(/^[0-9A-F]{8}-/);
    expect(displayKey(key)).toBe(`****-${key.slice(-6)}`);
    const now = new Date("2025-01-31T10:00:00Z");
    expect(expiryFrom(now, { ttl: 1, timeframe: "month" })?.toISOString()).toBe("2025-02-28T10:00:00.000Z");
    expect(expiryFrom(now, { ttl: 2, timeframe: "year" })?.toISOString()).toBe("2027-01-31T10:00:00.000Z");
    expect(expiryFrom(now, { ttl: 10, timeframe: "day" })?.toISOString()).toBe("2025-02-10T10:00:00.000Z");
    expect(expiryFrom(now, null)).toBeNull();

    const made = await createLicenseKey(api.knex, orgId, {
      benefitId: benefitA,
      customerId,
      properties: {
        prefix: "ACME",
        expires: { ttl: 1, timeframe: "year" },
        activations: { limit: 3, enable_customer_admin: true },
        limit_usage: 10,
      },
      now,
    });
    const got = await polar.licenseKeys.get({ id: made.id });
    expect(got).toMatchObject({
      id: made.id,
      organizationId: orgId,
      customerId,
      benefitId: benefitA,
      key: made.key,
      displayKey: `****-${made.key.slice(-6)}`,
      status: "granted",
      limitActivations: 3,
      usage: 0,
      limitUsage: 10,
      validations: 0,
      lastValidatedAt: null,
      activations: [],
    });
    expect(got.key.startsWith("ACME-")).toBe(true);
    expect(got.expiresAt?.toISOString()).toBe("2026-01-31T10:00:00.000Z");
    expect(got.customer.id).toBe(customerId);
    // 0.49.0 reads the same key, its customer with a type and a billing name.
    expect(await api.client049(token).licenseKeys.get({ id: made.id })).toMatchObject({
      id: made.id,
      key: made.key,
      customer: { id: customerId, type: "individual", billingName: "Jane Buyer" },
    });
  });

  it("lists with every filter and pages", async () => {
    const { org, token: theirToken } = await orgWithToken(api.knex);
    const client = api.client(theirToken);
    const bA = (await createBenefit(api.knex, org.id, LICENSE)).id;
    const bB = (await createBenefit(api.knex, org.id, LICENSE)).id;
    const made: { id: string }[] = [];
    for (let i = 0; i < 3; i++) made.push(await createLicenseKey(api.knex, org.id, { benefitId: bA }));
    for (let i = 0; i < 2; i++) made.push(await createLicenseKey(api.knex, org.id, { benefitId: bB }));

    const all = await collectPages(await client.licenseKeys.list({ limit: 2 }));
    expect(all.map((k) => k.id).sort()).toEqual(made.map((k) => k.id).sort());
    const first = await client.licenseKeys.list({ limit: 2, page: 1 });
    expect(first.result.pagination).toEqual({ totalCount: 5, maxPage: 3 });
    expect(first.result.items).toHaveLength(2);
    const last = await client.licenseKeys.list({ limit: 2, page: 3 });
    expect(last.result.items).toHaveLength(1);

    const onlyA = await collectPages(await client.licenseKeys.list({ benefitId: bA }));
    expect(onlyA).toHaveLength(3);
    expect(onlyA.every((k) => k.benefitId === bA)).toBe(true);
    const both = await collectPages(await client.licenseKeys.list({ benefitId: [bA, bB] }));
    expect(both).toHaveLength(5);
    expect(await collectPages(await client.licenseKeys.list({ organizationId: org.id }))).toHaveLength(5);
    // Another organization's id filters everything out: never another tenant's keys; a non-uuid is a 422.
    expect(await collectPages(await client.licenseKeys.list({ organizationId: orgId }))).toHaveLength(0);
    expect((await rejects(client.licenseKeys.list({ benefitId: "nope" }), HTTPValidationError)).detail?.[0].loc).toEqual([
      "query",
      "benefit_id",
      0,
    ]);
    // 0.49.0's status filter.
    await api.knex("license_keys").where({ id: made[0].id }).update({ status: "revoked" });
    await api.knex("license_keys").where({ id: made[1].id }).update({ status: "disabled" });
    const newer = api.client049(theirToken);
    const withStatus = async (status: Parameters<typeof newer.licenseKeys.list>[0]["status"]) =>
      (await newer.licenseKeys.list({ status, limit: 100 })).result.items.map((k) => k.id).sort();
    expect(await withStatus("revoked")).toEqual([made[0].id]);
    expect(await withStatus(["revoked", "disabled"])).toEqual([made[0].id, made[1].id].sort());
    expect(await withStatus("granted")).toEqual(
      made
        .slice(2)
        .map((k) => k.id)
        .sort(),
    );
    // The merchant of the first organization never sees these.
    const mine = await collectPages(await polar.licenseKeys.list({ limit: 100 }));
    expect(mine.some((k) => made.some((m) => m.id === k.id))).toBe(false);
  });

  it("answers 404 for another organization's key, its activation, and unknown or malformed ids", async () => {
    const { org } = await orgWithToken(api.knex);
    const theirs = await createLicenseKey(api.knex, org.id, { properties: { activations: { limit: 2, enable_customer_admin: false } } });
    await rejects(polar.licenseKeys.get({ id: theirs.id }), ResourceNotFound);
    await rejects(polar.licenseKeys.get({ id: "not-a-uuid" }), ResourceNotFound);
    await rejects(polar.licenseKeys.get({ id: "6f0c3a3e-0000-4000-8000-000000000000" }), ResourceNotFound);
    await rejects(polar.licenseKeys.update({ id: theirs.id, licenseKeyUpdate: { status: "revoked" } }), ResourceNotFound);
    await rejects(
      polar.licenseKeys.getActivation({ id: theirs.id, activationId: "6f0c3a3e-0000-4000-8000-000000000000" }),
      ResourceNotFound,
    );
    // Validate / activate / deactivate with the other organization's key and id: not found.
    await rejects(polar.licenseKeys.validate({ key: theirs.key, organizationId: org.id }), ResourceNotFound);
    await rejects(polar.licenseKeys.activate({ key: theirs.key, organizationId: org.id, label: "x" }), ResourceNotFound);
    // With our organization's id, their key does not exist either.
    await rejects(polar.licenseKeys.validate({ key: theirs.key, organizationId: orgId }), ResourceNotFound);
    const row = await api.knex("license_keys").where({ id: theirs.id }).first();
    expect(row.validations).toBe(0);
    expect(row.status).toBe("granted");
  });

  it("answers the typed Unauthorized body on get / list / update / activation get, and 403 without the scope", async () => {
    const anonymous = api.client("polar_oat_not-a-real-token");
    const made = await createLicenseKey(api.knex, orgId, { benefitId: benefitB });
    const e1 = await rejects(anonymous.licenseKeys.get({ id: made.id }), Unauthorized);
    expect(e1.error).toBe("Unauthorized");
    await rejects(anonymous.licenseKeys.list({}), Unauthorized);
    await rejects(anonymous.licenseKeys.update({ id: made.id, licenseKeyUpdate: {} }), Unauthorized);
    await rejects(anonymous.licenseKeys.getActivation({ id: made.id, activationId: made.id }), Unauthorized);
    // validate / activate / deactivate document no typed 401: a generic error with status 401.
    const e2 = await rejects(anonymous.licenseKeys.validate({ key: made.key, organizationId: orgId }), SDKError);
    expect(e2.statusCode).toBe(401);

    const { token: readOnly } = await orgWithToken(api.knex, { scopes: ["license_keys:read"] });
    const reader = api.client(readOnly);
    // The client decodes no typed 403 on these calls: a generic error carrying the NotPermitted body.
    // Thunks: each call starts only when awaited, so none rejects unobserved.
    for (const call of [
      () => reader.licenseKeys.update({ id: made.id, licenseKeyUpdate: {} }),
      () => reader.licenseKeys.validate({ key: made.key, organizationId: orgId }),
      () => reader.licenseKeys.deactivate({ key: made.key, organizationId: orgId, activationId: made.id }),
    ]) {
      const e = await rejects(call(), SDKError);
      expect(e.statusCode).toBe(403);
      expect(JSON.parse(e.body).error).toBe("NotPermitted");
    }
    await rejects(reader.licenseKeys.activate({ key: made.key, organizationId: orgId, label: "x" }), NotPermitted);
    const { token: none } = await orgWithToken(api.knex, { scopes: ["products:read"] });
    const e4 = await rejects(api.client(none).licenseKeys.list({}), SDKError);
    expect(e4.statusCode).toBe(403);
    // The read scope suffices for reads.
    expect((await reader.licenseKeys.list({})).result.pagination.totalCount).toBe(0);
  });

  it("updates status, usage, limits and expiry; rejects bad values with 422", async () => {
    const made = await createLicenseKey(api.knex, orgId, { benefitId: benefitA, properties: { limit_usage: 5 } });
    const expiresAt = new Date("2030-06-01T00:00:00Z");
    const updated = await polar.licenseKeys.update({
      id: made.id,
      licenseKeyUpdate: { status: "disabled", usage: 3, limitActivations: 7, limitUsage: 20, expiresAt },
    });
    expect(updated).toMatchObject({ id: made.id, status: "disabled", usage: 3, limitActivations: 7, limitUsage: 20 });
    expect(updated.expiresAt?.toISOString()).toBe(expiresAt.toISOString());
    expect(updated.modifiedAt).not.toBeNull();
    // Nulls lift the limits and the expiry; the status stays when not given.
    const lifted = await polar.licenseKeys.update({
      id: made.id,
      licenseKeyUpdate: { usage: 3, limitActivations: null, limitUsage: null, expiresAt: null },
    });
    expect(lifted).toMatchObject({ status: "disabled", usage: 3, limitActivations: null, limitUsage: null, expiresAt: null });
    const reenabled = await polar.licenseKeys.update({ id: made.id, licenseKeyUpdate: { status: "granted", usage: 3 } });
    expect(reenabled.status).toBe("granted");

    const bad = async (body: Record<string, unknown>, field: string) => {
      const e = await rejects(polar.licenseKeys.update({ id: made.id, licenseKeyUpdate: invalid(body) }), HTTPValidationError);
      expect(e.data$.detail?.[0]?.loc).toEqual(["body", field]);
    };
    await bad({ usage: -1 }, "usage");
    await bad({ limitActivations: 0 }, "limit_activations");
    await bad({ limitActivations: 51 }, "limit_activations");
    await bad({ limitUsage: 0 }, "limit_usage");
    await bad({ usage: 9, limitUsage: 4 }, "usage");
    const res = await fetch(`${api.url}/v1/license-keys/${made.id}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ status: "lost" }),
    });
    expect(res.status).toBe(422);
    for (const expires_at of ["0000-01-01T00:00:00Z", "not a date"]) {
      const r = await fetch(`${api.url}/v1/license-keys/${made.id}`, {
        method: "PATCH",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ expires_at }),
      });
      expect(r.status).toBe(422);
      expect((await r.json()).detail[0].loc).toEqual(["body", "expires_at"]);
    }
    // A raw body without usage leaves it alone (the official client always sends one, 0 by default).
    const raw = await fetch(`${api.url}/v1/license-keys/${made.id}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ limit_usage: 50 }),
    });
    expect(raw.status).toBe(200);
    expect(await raw.json()).toMatchObject({ usage: 3, limit_usage: 50 });
    expect((await polar.licenseKeys.get({ id: made.id })).usage).toBe(3);
  });

  it("answers odd inputs with 4xx, never 5xx", async () => {
    const made = await createLicenseKey(api.knex, orgId, { properties: { activations: { limit: 1, enable_customer_admin: false } } });
    const huge = 2 ** 53;
    const cases: [string, string, unknown][] = [
      ["POST", "/v1/license-keys/validate", { key: "x".repeat(100_000), organization_id: orgId }],
      ["POST", "/v1/license-keys/validate", { key: made.key, organization_id: orgId, increment_usage: huge }],
      ["POST", "/v1/license-keys/validate", { key: made.key, organization_id: orgId, conditions: { "": 1 } }],
      ["POST", "/v1/license-keys/validate", { key: made.key, organization_id: orgId, conditions: { a: { nested: 1 } } }],
      ["POST", "/v1/license-keys/validate", { key: 1, organization_id: orgId }],
      ["POST", "/v1/license-keys/activate", { key: made.key, organization_id: orgId, label: "x".repeat(256) }],
      ["POST", "/v1/license-keys/activate", { key: made.key, organization_id: orgId, label: "ok", meta: null }],
      ["POST", "/v1/license-keys/deactivate", { key: made.key, organization_id: orgId }],
      ["PATCH", `/v1/license-keys/${made.id}`, { usage: huge }],
      ["PATCH", `/v1/license-keys/${made.id}`, { limit_usage: -5, limit_activations: huge }],
      ["PATCH", `/v1/license-keys/${made.id}`, { expires_at: "9999-12-31T23:59:59+14:00" }],
      ["GET", "/v1/license-keys/?organization_id=x&benefit_id=y&page=3&limit=100", undefined],
      ["GET", `/v1/license-keys/${made.id}/activations/%20`, undefined],
    ];
    for (const [method, path, body] of cases) {
      const res = await fetch(`${api.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect(res.status, `${method} ${path} ${JSON.stringify(body)?.slice(0, 80)}`).toBeLessThan(500);
    }
  });

  describe("validate", () => {
    it("counts validations, stamps last_validated_at, increments usage within its limit", async () => {
      const made = await createLicenseKey(api.knex, orgId, { benefitId: benefitA, customerId, properties: { limit_usage: 5 } });
      const v1 = await polar.licenseKeys.validate({ key: made.key, organizationId: orgId });
      expect(v1).toMatchObject({ id: made.id, status: "granted", validations: 1, usage: 0, activation: null });
      expect(v1.lastValidatedAt).toBeInstanceOf(Date);
      const v2 = await polar.licenseKeys.validate({
        key: made.key,
        organizationId: orgId,
        incrementUsage: 3,
        benefitId: benefitA,
        customerId,
      });
      expect(v2).toMatchObject({ validations: 2, usage: 3 });
      const over = await rejects(polar.licenseKeys.validate({ key: made.key, organizationId: orgId, incrementUsage: 3 }), ResourceNotFound);
      expect(over.detail).toContain("only has 2 more usages");
      const exact = await polar.licenseKeys.validate({ key: made.key, organizationId: orgId, incrementUsage: 2 });
      expect(exact).toMatchObject({ usage: 5, validations: 3 });
      // A refused validation changes nothing.
      const row = await api.knex("license_keys").where({ id: made.id }).first();
      expect(row).toMatchObject({ usage: 5, validations: 3 });
      // Without a usage limit, usage grows freely.
      const free = await createLicenseKey(api.knex, orgId, { benefitId: benefitA });
      expect((await polar.licenseKeys.validate({ key: free.key, organizationId: orgId, incrementUsage: 1000 })).usage).toBe(1000);
    });

    it("refuses a wrong organization, benefit or customer, a revoked or disabled key and an expired one", async () => {
      const made = await createLicenseKey(api.knex, orgId, { benefitId: benefitA, customerId });
      const { org: other } = await orgWithToken(api.knex);
      await rejects(polar.licenseKeys.validate({ key: made.key, organizationId: other.id }), ResourceNotFound);
      await rejects(polar.licenseKeys.validate({ key: `${made.key}X`, organizationId: orgId }), ResourceNotFound);
      const wrongBenefit = await rejects(
        polar.licenseKeys.validate({ key: made.key, organizationId: orgId, benefitId: benefitB }),
        ResourceNotFound,
      );
      expect(wrongBenefit.detail).toContain("benefit");
      const otherCustomer = (await createCustomer(api.knex, orgId)).id;
      const wrongCustomer = await rejects(
        polar.licenseKeys.validate({ key: made.key, organizationId: orgId, customerId: otherCustomer }),
        ResourceNotFound,
      );
      expect(wrongCustomer.detail).toContain("customer");

      for (const status of ["revoked", "disabled"] as const) {
        await polar.licenseKeys.update({ id: made.id, licenseKeyUpdate: { status } });
        const e = await rejects(polar.licenseKeys.validate({ key: made.key, organizationId: orgId }), ResourceNotFound);
        expect(e.detail).toContain("no longer active");
      }
      await polar.licenseKeys.update({ id: made.id, licenseKeyUpdate: { status: "granted", expiresAt: new Date(Date.now() - 1000) } });
      const expired = await rejects(polar.licenseKeys.validate({ key: made.key, organizationId: orgId }), ResourceNotFound);
      expect(expired.detail).toContain("expired");
      await polar.licenseKeys.update({ id: made.id, licenseKeyUpdate: { expiresAt: new Date(Date.now() + 86_400_000) } });
      expect((await polar.licenseKeys.validate({ key: made.key, organizationId: orgId })).validations).toBe(1);

      // A key created with an expiry in the past (its ttl elapsed) is expired too.
      const old = await createLicenseKey(api.knex, orgId, {
        properties: { expires: { ttl: 1, timeframe: "day" } },
        now: new Date(Date.now() - 2 * 86_400_000),
      });
      await rejects(polar.licenseKeys.validate({ key: old.key, organizationId: orgId }), ResourceNotFound);
    });

    it("checks the activation id and the activation's conditions", async () => {
      const made = await createLicenseKey(api.knex, orgId, { properties: { activations: { limit: 2, enable_customer_admin: true } } });
      const plain = await polar.licenseKeys.activate({ key: made.key, organizationId: orgId, label: "laptop", meta: { os: "linux" } });
      const bound = await polar.licenseKeys.activate({
        key: made.key,
        organizationId: orgId,
        label: "desktop",
        conditions: { major_version: 2, machine: "abc", pro: true },
      });
      const v = await polar.licenseKeys.validate({ key: made.key, organizationId: orgId, activationId: plain.id });
      expect(v.activation).toMatchObject({ id: plain.id, label: "laptop", meta: { os: "linux" }, licenseKeyId: made.id });
      // An activation without conditions matches whatever is sent.
      await polar.licenseKeys.validate({ key: made.key, organizationId: orgId, activationId: plain.id, conditions: { anything: 1 } });

      const ok = await polar.licenseKeys.validate({
        key: made.key,
        organizationId: orgId,
        activationId: bound.id,
        conditions: { pro: true, machine: "abc", major_version: 2 },
      });
      expect(ok.activation?.id).toBe(bound.id);
      const mismatches: Record<string, string | number | boolean>[] = [
        {},
        { major_version: 3, machine: "abc", pro: true },
        { major_version: 2, machine: "abc" },
        { major_version: 2, machine: "abc", pro: true, extra: 1 },
        { major_version: "2", machine: "abc", pro: true },
      ];
      for (const conditions of mismatches) {
        const e = await rejects(
          polar.licenseKeys.validate({ key: made.key, organizationId: orgId, activationId: bound.id, conditions }),
          ResourceNotFound,
        );
        expect(e.detail).toContain("conditions");
      }
      await rejects(
        polar.licenseKeys.validate({ key: made.key, organizationId: orgId, activationId: "6f0c3a3e-0000-4000-8000-000000000000" }),
        ResourceNotFound,
      );
      // Another key's activation is not this key's.
      const second = await createLicenseKey(api.knex, orgId, { properties: { activations: { limit: 1, enable_customer_admin: true } } });
      await rejects(polar.licenseKeys.validate({ key: second.key, organizationId: orgId, activationId: plain.id }), ResourceNotFound);
    });

    it("rejects malformed bodies with 422", async () => {
      const made = await createLicenseKey(api.knex, orgId);
      const bad = async (body: Record<string, unknown>, loc: (string | number)[]) => {
        const e = await rejects(
          polar.licenseKeys.validate(invalid({ key: made.key, organizationId: orgId, ...body })),
          HTTPValidationError,
        );
        expect(e.data$.detail?.[0]?.loc).toEqual(loc);
      };
      await bad({ organizationId: "not-a-uuid" }, ["body", "organization_id"]);
      await bad({ activationId: "nope" }, ["body", "activation_id"]);
      await bad({ benefitId: "nope" }, ["body", "benefit_id"]);
      await bad({ customerId: "nope" }, ["body", "customer_id"]);
      await bad({ incrementUsage: -1 }, ["body", "increment_usage"]);
      await bad({ conditions: { ["k".repeat(41)]: 1 } }, ["body", "conditions", "k".repeat(41)]);
      await bad({ conditions: { long: "x".repeat(501) } }, ["body", "conditions", "long"]);
      const res = await fetch(`${api.url}/v1/license-keys/validate`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ key: made.key }),
      });
      expect(res.status).toBe(422);
      expect((await res.json()).detail[0].loc).toEqual(["body", "organization_id"]);
    });
  });

  describe("activate, get activation, deactivate", () => {
    it("activates up to the limit (then 403 NotPermitted), reads and deactivates activations", async () => {
      const made = await createLicenseKey(api.knex, orgId, { properties: { activations: { limit: 2, enable_customer_admin: false } } });
      const a1 = await polar.licenseKeys.activate({
        key: made.key,
        organizationId: orgId,
        label: "one",
        meta: { seats: 1, beta: false, ratio: 0.5 },
      });
      expect(a1).toMatchObject({ licenseKeyId: made.id, label: "one", meta: { seats: 1, beta: false, ratio: 0.5 }, modifiedAt: null });
      expect(a1.licenseKey).toMatchObject({ id: made.id, key: made.key, limitActivations: 2 });
      const a2 = await polar.licenseKeys.activate({ key: made.key, organizationId: orgId, label: "two" });
      expect(a2.meta).toEqual({});
      const full = await rejects(polar.licenseKeys.activate({ key: made.key, organizationId: orgId, label: "three" }), NotPermitted);
      expect(full.detail).toContain("only allows 2 activations");

      const withActivations = await polar.licenseKeys.get({ id: made.id });
      expect(withActivations.activations.map((a) => a.label)).toEqual(["one", "two"]);
      const read = await polar.licenseKeys.getActivation({ id: made.id, activationId: a1.id });
      expect(read).toMatchObject({ id: a1.id, label: "one", licenseKey: { id: made.id } });

      expect(await polar.licenseKeys.deactivate({ key: made.key, organizationId: orgId, activationId: a1.id })).toBeUndefined();
      await rejects(polar.licenseKeys.getActivation({ id: made.id, activationId: a1.id }), ResourceNotFound);
      await rejects(polar.licenseKeys.deactivate({ key: made.key, organizationId: orgId, activationId: a1.id }), ResourceNotFound);
      await rejects(polar.licenseKeys.validate({ key: made.key, organizationId: orgId, activationId: a1.id }), ResourceNotFound);
      expect((await polar.licenseKeys.get({ id: made.id })).activations.map((a) => a.id)).toEqual([a2.id]);
      // The freed slot can be used again.
      await polar.licenseKeys.activate({ key: made.key, organizationId: orgId, label: "three" });
      // An activation of another key can't be reached through this one.
      const other = await createLicenseKey(api.knex, orgId, { properties: { activations: { limit: 1, enable_customer_admin: false } } });
      await rejects(polar.licenseKeys.getActivation({ id: other.id, activationId: a2.id }), ResourceNotFound);
      await rejects(polar.licenseKeys.deactivate({ key: other.key, organizationId: orgId, activationId: a2.id }), ResourceNotFound);
    });

    it("concurrent activations never pass the limit", async () => {
      const made = await createLicenseKey(api.knex, orgId, { properties: { activations: { limit: 3, enable_customer_admin: false } } });
      const results = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) => polar.licenseKeys.activate({ key: made.key, organizationId: orgId, label: `m${i}` })),
      );
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(3);
      for (const r of results) if (r.status === "rejected") expect(r.reason).toBeInstanceOf(NotPermitted);
    });

    it("refuses keys without activations, inactive or expired keys, and bad bodies", async () => {
      const noActivations = await createLicenseKey(api.knex, orgId);
      const e = await rejects(polar.licenseKeys.activate({ key: noActivations.key, organizationId: orgId, label: "x" }), NotPermitted);
      expect(e.detail).toContain("does not support activations");

      const made = await createLicenseKey(api.knex, orgId, { properties: { activations: { limit: 5, enable_customer_admin: false } } });
      await polar.licenseKeys.update({ id: made.id, licenseKeyUpdate: { status: "revoked" } });
      await rejects(polar.licenseKeys.activate({ key: made.key, organizationId: orgId, label: "x" }), NotPermitted);
      await polar.licenseKeys.update({ id: made.id, licenseKeyUpdate: { status: "granted", expiresAt: new Date(Date.now() - 1000) } });
      await rejects(polar.licenseKeys.activate({ key: made.key, organizationId: orgId, label: "x" }), NotPermitted);
      await polar.licenseKeys.update({ id: made.id, licenseKeyUpdate: { expiresAt: null } });

      const bad = async (body: Record<string, unknown>, loc: (string | number)[]) => {
        const err = await rejects(
          polar.licenseKeys.activate(invalid({ key: made.key, organizationId: orgId, label: "ok", ...body })),
          HTTPValidationError,
        );
        expect(err.data$.detail?.[0]?.loc).toEqual(loc);
      };
      await bad({ label: "" }, ["body", "label"]);
      await bad({ label: "   " }, ["body", "label"]);
      await bad({ organizationId: "x" }, ["body", "organization_id"]);
      await bad({ meta: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) }, ["body", "meta"]);
      await bad({ conditions: { v: "x".repeat(501) } }, ["body", "conditions", "v"]);
      const d = await rejects(
        polar.licenseKeys.deactivate({ key: made.key, organizationId: orgId, activationId: "nope" }),
        HTTPValidationError,
      );
      expect(d.data$.detail?.[0]?.loc).toEqual(["body", "activation_id"]);
      expect((await polar.licenseKeys.get({ id: made.id })).activations).toEqual([]);
    });
  });
});
