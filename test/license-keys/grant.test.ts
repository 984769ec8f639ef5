// The license key side of a license_keys benefit grant (what the grant strategy calls inside its
// transaction): create, re-enable an existing key, revoke, follow a benefit's new limits; and
// nothing is written when the grant's transaction rolls back.
import { beforeAll, describe, expect, it } from "vitest";
import { createBenefit, createCustomer, createLicenseKey, orgWithToken, useTestApi } from "../harness/index.js";
import { createLicenseKeyForGrant, revokeLicenseKey, updateLicenseKeyFromBenefit } from "../../server/license-keys/service.js";

const api = useTestApi();

describe("license keys for benefit grants", () => {
  let orgId: string;
  let benefitId: string;
  let customerId: string;

  beforeAll(async () => {
    orgId = (await orgWithToken(api.knex)).org.id;
    benefitId = (await createBenefit(api.knex, orgId, { type: "license_keys", description: "License", properties: JSON.stringify({}) })).id;
    customerId = (await createCustomer(api.knex, orgId)).id;
  });

  const props = {
    prefix: "PRO",
    expires: { ttl: 30, timeframe: "day" },
    activations: { limit: 4, enable_customer_admin: true },
    limit_usage: 100,
  };

  it("creates a key with the benefit's limits and expiry, and returns its id and display key", async () => {
    const now = new Date("2025-03-01T00:00:00Z");
    const made = await api.knex.transaction((trx) =>
      createLicenseKeyForGrant(trx, { organizationId: orgId, customerId, benefitId, properties: props, now }),
    );
    const row = await api.knex("license_keys").where({ id: made.license_key_id }).first();
    expect(row).toMatchObject({
      organization_id: orgId,
      customer_id: customerId,
      benefit_id: benefitId,
      status: "granted",
      limit_activations: 4,
      limit_usage: 100,
      usage: 0,
      validations: 0,
    });
    expect(row.key).toMatch(/^PRO-[0-9A-F-]{36}$/);
    expect(made.display_key).toBe(`****-${row.key.slice(-6)}`);
    expect(new Date(row.expires_at).toISOString()).toBe("2025-03-31T00:00:00.000Z");
    // Keys are unique: two grants never share one.
    const second = await api.knex.transaction((trx) =>
      createLicenseKeyForGrant(trx, { organizationId: orgId, customerId, benefitId, properties: props, now }),
    );
    expect(second.license_key_id).not.toBe(made.license_key_id);
  });

  it("revokes, re-enables the same key on a new grant, and follows the benefit's limits", async () => {
    const made = await createLicenseKey(api.knex, orgId, { benefitId, customerId, properties: props });
    await api.knex.transaction((trx) => revokeLicenseKey(trx, made.id));
    expect((await api.knex("license_keys").where({ id: made.id }).first()).status).toBe("revoked");

    const now = new Date("2026-01-01T00:00:00Z");
    const again = await api.knex.transaction((trx) =>
      createLicenseKeyForGrant(trx, {
        organizationId: orgId,
        customerId,
        benefitId,
        properties: { ...props, limit_usage: 7 },
        now,
        existingLicenseKeyId: made.id,
      }),
    );
    expect(again).toEqual({ license_key_id: made.id, display_key: made.display_key });
    const row = await api.knex("license_keys").where({ id: made.id }).first();
    expect(row).toMatchObject({ status: "granted", key: made.key, limit_usage: 7, limit_activations: 4 });
    expect(new Date(row.expires_at).toISOString()).toBe("2026-01-31T00:00:00.000Z");

    await api.knex.transaction((trx) =>
      updateLicenseKeyFromBenefit(trx, made.id, { prefix: "PRO", expires: null, activations: null, limit_usage: null }),
    );
    const followed = await api.knex("license_keys").where({ id: made.id }).first();
    expect(followed).toMatchObject({ limit_activations: null, limit_usage: null, key: made.key, status: "granted" });
    expect(followed.expires_at).not.toBeNull();
  });

  it("creates a new key when the existing id is unknown or belongs to another organization", async () => {
    const { org: other } = await orgWithToken(api.knex);
    const theirs = await createLicenseKey(api.knex, other.id);
    const made = await api.knex.transaction((trx) =>
      createLicenseKeyForGrant(trx, {
        organizationId: orgId,
        customerId,
        benefitId,
        properties: {},
        now: new Date(),
        existingLicenseKeyId: theirs.id,
      }),
    );
    expect(made.license_key_id).not.toBe(theirs.id);
    const row = await api.knex("license_keys").where({ id: made.license_key_id }).first();
    expect(row).toMatchObject({ organization_id: orgId, limit_activations: null, limit_usage: null, expires_at: null });
    expect(row.key).toMatch(/^[0-9A-F]{8}-/);
  });

  it("writes nothing when the grant's transaction rolls back", async () => {
    const before = await api.knex("license_keys").where({ customer_id: customerId }).count({ n: "*" }).first();
    await expect(
      api.knex.transaction(async (trx) => {
        await createLicenseKeyForGrant(trx, { organizationId: orgId, customerId, benefitId, properties: props, now: new Date() });
        throw new Error("grant failed");
      }),
    ).rejects.toThrow("grant failed");
    const after = await api.knex("license_keys").where({ customer_id: customerId }).count({ n: "*" }).first();
    expect(after).toEqual(before);
  });
});
