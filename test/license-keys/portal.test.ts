// The portal's license keys through the official client: list and get with a customer session
// (only the session's customer's keys; every filter; paging; the typed 401 on list), and the
// unauthenticated validate / activate / deactivate a key holder's app calls with the key and its
// organization id (no token needed; rules shared with the merchant calls).
import { beforeAll, describe, expect, it } from "vitest";
import { Polar } from "@polar-sh/sdk";
import { HTTPValidationError } from "@polar-sh/sdk/models/errors/httpvalidationerror.js";
import { NotPermitted } from "@polar-sh/sdk/models/errors/notpermitted.js";
import { ResourceNotFound } from "@polar-sh/sdk/models/errors/resourcenotfound.js";
import { SDKError } from "@polar-sh/sdk/models/errors/sdkerror.js";
import { Unauthorized } from "@polar-sh/sdk/models/errors/unauthorized.js";
import {
  collectPages,
  createBenefit,
  createCustomer,
  createCustomerSessionToken,
  createLicenseKey,
  orgWithToken,
  rejects,
  useTestApi,
} from "../harness/index.js";

const api = useTestApi();
const LICENSE = { type: "license_keys", description: "License" };
const ACTIVATIONS = { activations: { limit: 2, enable_customer_admin: true } };

describe("customer portal: license keys", () => {
  let portal: Polar;
  let orgId: string;
  let alice: { customerSession: string };
  let bob: { customerSession: string };
  let aliceId: string;
  let benefitA: string;
  let benefitB: string;
  const aliceKeys: { id: string; key: string; benefit_id: string }[] = [];
  let bobKey: { id: string; key: string };

  beforeAll(async () => {
    const k = api.knex;
    orgId = (await orgWithToken(k)).org.id;
    portal = new Polar({ serverURL: api.url });
    aliceId = (await createCustomer(k, orgId, { email: "alice@example.com" })).id;
    const bobId = (await createCustomer(k, orgId, { email: "bob@example.com" })).id;
    alice = { customerSession: await createCustomerSessionToken(k, aliceId) };
    bob = { customerSession: await createCustomerSessionToken(k, bobId) };
    benefitA = (await createBenefit(k, orgId, LICENSE)).id;
    benefitB = (await createBenefit(k, orgId, LICENSE)).id;
    for (const benefitId of [benefitA, benefitA, benefitB]) {
      aliceKeys.push(await createLicenseKey(k, orgId, { customerId: aliceId, benefitId, properties: ACTIVATIONS }));
    }
    bobKey = await createLicenseKey(k, orgId, { customerId: bobId, benefitId: benefitA, properties: ACTIVATIONS });
  });

  it("lists only the session's customer's keys, with each filter and paging", async () => {
    const all = await collectPages(await portal.customerPortal.licenseKeys.list(alice, { limit: 2 }));
    expect(all.map((k) => k.id).sort()).toEqual(aliceKeys.map((k) => k.id).sort());
    expect(all.every((k) => k.customerId === aliceId && k.customer.email === "alice@example.com")).toBe(true);
    const page = await portal.customerPortal.licenseKeys.list(alice, { limit: 2, page: 2 });
    expect(page.result.pagination).toEqual({ totalCount: 3, maxPage: 2 });
    expect(page.result.items).toHaveLength(1);

    const a = await collectPages(await portal.customerPortal.licenseKeys.list(alice, { benefitId: benefitA }));
    expect(a).toHaveLength(2);
    expect(a.every((k) => k.benefitId === benefitA)).toBe(true);
    expect(await collectPages(await portal.customerPortal.licenseKeys.list(alice, { organizationId: orgId }))).toHaveLength(3);
    expect(await collectPages(await portal.customerPortal.licenseKeys.list(alice, { organizationId: [orgId, aliceId] }))).toHaveLength(3);
    expect(await collectPages(await portal.customerPortal.licenseKeys.list(alice, { organizationId: aliceId }))).toHaveLength(0);

    const bobs = await collectPages(await portal.customerPortal.licenseKeys.list(bob, {}));
    expect(bobs.map((k) => k.id)).toEqual([bobKey.id]);
  });

  it("gets a key with its activations; another customer's key is 404", async () => {
    const mine = aliceKeys[0]!;
    const activation = await portal.customerPortal.licenseKeys.activate({ key: mine.key, organizationId: orgId, label: "laptop" });
    const got = await portal.customerPortal.licenseKeys.get(alice, { id: mine.id });
    expect(got).toMatchObject({ id: mine.id, key: mine.key, status: "granted", customerId: aliceId });
    expect(got.activations.map((x) => x.id)).toEqual([activation.id]);
    await rejects(portal.customerPortal.licenseKeys.get(bob, { id: mine.id }), ResourceNotFound);
    await rejects(portal.customerPortal.licenseKeys.get(alice, { id: bobKey.id }), ResourceNotFound);
    await rejects(portal.customerPortal.licenseKeys.get(alice, { id: "nope" }), ResourceNotFound);
    // Another organization's key, even the same customer email, is not reachable.
    const { org: other } = await orgWithToken(api.knex);
    const theirs = await createLicenseKey(api.knex, other.id);
    await rejects(portal.customerPortal.licenseKeys.get(alice, { id: theirs.id }), ResourceNotFound);
  });

  it("answers 401: typed on list, generic on get; expired and revoked sessions too", async () => {
    const e = await rejects(portal.customerPortal.licenseKeys.list({ customerSession: "polar_cst_nope" }, {}), Unauthorized);
    expect(e.error).toBe("Unauthorized");
    const expired = { customerSession: await createCustomerSessionToken(api.knex, aliceId, { expiresAt: new Date(Date.now() - 1000) }) };
    await rejects(portal.customerPortal.licenseKeys.list(expired, {}), Unauthorized);
    const revoked = { customerSession: await createCustomerSessionToken(api.knex, aliceId, { revokedAt: new Date() }) };
    await rejects(portal.customerPortal.licenseKeys.list(revoked, {}), Unauthorized);
    const g = await rejects(portal.customerPortal.licenseKeys.get(expired, { id: aliceKeys[0]!.id }), SDKError);
    expect(g.statusCode).toBe(401);
  });

  it("validates, activates and deactivates without any token", async () => {
    const mine = aliceKeys[1]!;
    const a1 = await portal.customerPortal.licenseKeys.activate({
      key: mine.key,
      organizationId: orgId,
      label: "one",
      conditions: { machine: "m1" },
      meta: { os: "mac" },
    });
    expect(a1.licenseKey).toMatchObject({ id: mine.id, limitActivations: 2 });
    await portal.customerPortal.licenseKeys.activate({ key: mine.key, organizationId: orgId, label: "two" });
    const full = await rejects(
      portal.customerPortal.licenseKeys.activate({ key: mine.key, organizationId: orgId, label: "three" }),
      NotPermitted,
    );
    expect(full.detail).toContain("only allows 2 activations");

    const v = await portal.customerPortal.licenseKeys.validate({
      key: mine.key,
      organizationId: orgId,
      activationId: a1.id,
      conditions: { machine: "m1" },
      benefitId: benefitA,
      customerId: aliceId,
    });
    expect(v).toMatchObject({ id: mine.id, validations: 1, activation: { id: a1.id, label: "one", meta: { os: "mac" } } });
    await rejects(
      portal.customerPortal.licenseKeys.validate({
        key: mine.key,
        organizationId: orgId,
        activationId: a1.id,
        conditions: { machine: "m2" },
      }),
      ResourceNotFound,
    );
    await rejects(
      portal.customerPortal.licenseKeys.validate({ key: mine.key, organizationId: orgId, benefitId: benefitB }),
      ResourceNotFound,
    );
    // The key is only known within its organization.
    const { org: other } = await orgWithToken(api.knex);
    await rejects(portal.customerPortal.licenseKeys.validate({ key: mine.key, organizationId: other.id }), ResourceNotFound);
    await rejects(portal.customerPortal.licenseKeys.activate({ key: mine.key, organizationId: other.id, label: "x" }), ResourceNotFound);
    await rejects(
      portal.customerPortal.licenseKeys.deactivate({ key: mine.key, organizationId: other.id, activationId: a1.id }),
      ResourceNotFound,
    );

    expect(
      await portal.customerPortal.licenseKeys.deactivate({ key: mine.key, organizationId: orgId, activationId: a1.id }),
    ).toBeUndefined();
    await rejects(
      portal.customerPortal.licenseKeys.deactivate({ key: mine.key, organizationId: orgId, activationId: a1.id }),
      ResourceNotFound,
    );
    const again = await portal.customerPortal.licenseKeys.activate({ key: mine.key, organizationId: orgId, label: "three" });
    expect(again.label).toBe("three");
    // Bob's key can't be deactivated with Alice's activation id.
    await rejects(
      portal.customerPortal.licenseKeys.deactivate({ key: bobKey.key, organizationId: orgId, activationId: again.id }),
      ResourceNotFound,
    );
  });

  it("refuses a revoked or expired key and a spent usage quota; 422 on bad bodies", async () => {
    const k = await createLicenseKey(api.knex, orgId, { customerId: aliceId, properties: { limit_usage: 1, ...ACTIVATIONS } });
    expect((await portal.customerPortal.licenseKeys.validate({ key: k.key, organizationId: orgId, incrementUsage: 1 })).usage).toBe(1);
    const spent = await rejects(
      portal.customerPortal.licenseKeys.validate({ key: k.key, organizationId: orgId, incrementUsage: 1 }),
      ResourceNotFound,
    );
    expect(spent.detail).toContain("only has 0 more usages");
    await api
      .knex("license_keys")
      .where({ id: k.id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    await rejects(portal.customerPortal.licenseKeys.validate({ key: k.key, organizationId: orgId }), ResourceNotFound);
    await rejects(portal.customerPortal.licenseKeys.activate({ key: k.key, organizationId: orgId, label: "x" }), NotPermitted);
    await api.knex("license_keys").where({ id: k.id }).update({ expires_at: null, status: "revoked" });
    await rejects(portal.customerPortal.licenseKeys.validate({ key: k.key, organizationId: orgId }), ResourceNotFound);
    await rejects(portal.customerPortal.licenseKeys.activate({ key: k.key, organizationId: orgId, label: "x" }), NotPermitted);

    const e1 = await rejects(portal.customerPortal.licenseKeys.validate({ key: k.key, organizationId: "org" }), HTTPValidationError);
    expect(e1.data$.detail?.[0]?.loc).toEqual(["body", "organization_id"]);
    const e2 = await rejects(
      portal.customerPortal.licenseKeys.activate({ key: k.key, organizationId: orgId, label: "" }),
      HTTPValidationError,
    );
    expect(e2.data$.detail?.[0]?.loc).toEqual(["body", "label"]);
    const e3 = await rejects(
      portal.customerPortal.licenseKeys.deactivate({ key: k.key, organizationId: orgId, activationId: "1" }),
      HTTPValidationError,
    );
    expect(e3.data$.detail?.[0]?.loc).toEqual(["body", "activation_id"]);
    const raw = await fetch(`${api.url}/v1/customer-portal/license-keys/activate`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ key: k.key, organization_id: orgId }),
    });
    expect(raw.status).toBe(422);
    expect((await raw.json()).detail[0].loc).toEqual(["body", "label"]);
  });
});
