// Benefit grants end to end (PostgreSQL, Temporal, the official client, a fake Discord/GitHub):
// a paid order grants every benefit type; a refund with revoke_benefits revokes; a benefit update
// updates grants; a cycle credits meters; a provider error is retried with the grant's error
// recorded; portal filters, account linking, 404 across customers; signed downloads.
import { randomUUID } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { Polar } from "@polar-sh/sdk";
import { ResourceNotFound } from "@polar-sh/sdk/models/errors/resourcenotfound.js";
import { NotPermitted } from "@polar-sh/sdk/models/errors/notpermitted.js";
import { WebhookBenefitGrantCreatedPayload$inboundSchema } from "@polar-sh/sdk/models/components/webhookbenefitgrantcreatedpayload.js";
import { WebhookBenefitGrantCycledPayload$inboundSchema } from "@polar-sh/sdk/models/components/webhookbenefitgrantcycledpayload.js";
import { WebhookBenefitGrantRevokedPayload$inboundSchema } from "@polar-sh/sdk/models/components/webhookbenefitgrantrevokedpayload.js";
import { WebhookBenefitGrantUpdatedPayload$inboundSchema } from "@polar-sh/sdk/models/components/webhookbenefitgrantupdatedpayload.js";
import { WebhookCustomerStateChangedPayload$inboundSchema } from "@polar-sh/sdk/models/components/webhookcustomerstatechangedpayload.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scheduleBenefitCycles } from "../../server/benefit-grants/service.js";
import { setWorkflowsDoor, temporalDoor, type WorkflowsDoor } from "../../server/workflows-door.js";
import { sweepBenefitGrantJobs } from "../../workflows/backstop.js";
import { setBenefitVerifier } from "../../server/benefits/verifier.js";
import { LocalStorage, setStorage } from "../../server/files/storage.js";
import { markOrderPaid } from "../../server/orders/service.js";
import { orderDependents } from "../../server/subscriptions/repository.js";
import { createBenefitGrantActivities } from "../../workflows/activities/benefit-grants.js";
import {
  activityDeps,
  createBenefit,
  createCustomer,
  createCustomerSessionToken,
  createFile,
  createMeter,
  createOrder,
  createPayment,
  createProductWithPrice,
  orgWithToken,
  rejects,
  useTestApi,
  useTestWorker,
} from "../harness/index.js";
import { sleep } from "../../server/kit/time.js";

const api = useTestApi();
const poll = { timeout: 30_000, interval: 100 };
const GUILD = "123456789012345678";
const ROLE = "223456789012345678";

/** A fake provider: records every call; `failures` answers the next N calls with a 500. */
class FakeProvider {
  calls: { method: string; path: string; auth: string | undefined; body: string }[] = [];
  failures = 0;
  server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      this.calls.push({ method: req.method!, path: req.url!, auth: req.headers.authorization, body });
      if (this.failures > 0) {
        this.failures--;
        res.writeHead(500, { "content-type": "application/json" }).end('{"message":"provider is down"}');
        return;
      }
      res.writeHead(204).end();
    });
  });
  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
}

describe("benefit grants", () => {
  const temporal = useTestWorker("benefit-grants-test", {
    activities: () => createBenefitGrantActivities(activityDeps(api.knex)),
    install: (client, taskQueue) => {
      setWorkflowsDoor({ startBenefitGrantJobs: temporalDoor(client, taskQueue).startBenefitGrantJobs });
      return () => setWorkflowsDoor(null);
    },
  });
  const provider = new FakeProvider();
  const env = { ...process.env };
  let filesDir: string;
  let polar: Polar;
  let orgId: string;
  let ids: Record<string, string>;
  let productId: string;
  let meterId: string;
  let fileId: string;

  beforeAll(async () => {
    const base = await provider.listen();
    Object.assign(process.env, {
      DISCORD_BOT_TOKEN: "bot-token",
      DISCORD_API_BASE_URL: `${base}/discord`,
      GITHUB_TOKEN: "gh-token",
      GITHUB_API_BASE_URL: `${base}/github`,
      PUBLIC_API_URL: api.url,
    });
    setBenefitVerifier({}); // benefits are checked for shape only: no call to the real providers
    filesDir = await mkdtemp(path.join(os.tmpdir(), "grants-"));
    setStorage(new LocalStorage(filesDir));

    const made = await orgWithToken(api.knex);
    orgId = made.org.id;
    polar = api.client(made.token);
    meterId = (await createMeter(api.knex, orgId)).id;
    const file = await createFile(api.knex, orgId, { service: "downloadable", name: "guide.pdf", mime_type: "application/pdf", size: 11 });
    fileId = file.id;
    const stored = (await api.knex("files").where({ id: fileId }).first()).path as string;
    await mkdir(path.dirname(path.join(filesDir, stored)), { recursive: true });
    await writeFile(path.join(filesDir, stored), "hello grant");
    const benefit = (type: string, properties: Record<string, unknown>) =>
      createBenefit(api.knex, orgId, { type, description: `${type} benefit`, properties: JSON.stringify(properties) }).then((b) => b.id);
    ids = {
      custom: await benefit("custom", { note: "Write to us" }),
      license_keys: await benefit("license_keys", {
        prefix: "ACME",
        expires: { ttl: 1, timeframe: "year" },
        activations: { limit: 3, enable_customer_admin: true },
        limit_usage: 10,
      }),
      downloadables: await benefit("downloadables", { files: [fileId], archived: {} }),
      meter_credit: await benefit("meter_credit", { units: 100, rollover: false, meter_id: meterId }),
      discord: await benefit("discord", { guild_id: GUILD, role_id: ROLE, kick_member: false, guild_token: GUILD }),
      github_repository: await benefit("github_repository", { repository_owner: "acme", repository_name: "sdk", permission: "pull" }),
    };
    productId = (await createProductWithPrice(api.knex, orgId)).product.id;
    await api
      .knex("product_benefits")
      .insert(Object.values(ids).map((benefitId, order) => ({ product_id: productId, benefit_id: benefitId, order })));
  }, 120_000);

  afterAll(async () => {
    setBenefitVerifier(null);
    setStorage(null);
    for (const k of ["DISCORD_BOT_TOKEN", "DISCORD_API_BASE_URL", "GITHUB_TOKEN", "GITHUB_API_BASE_URL", "PUBLIC_API_URL"]) {
      if (env[k] === undefined) delete process.env[k];
      else process.env[k] = env[k];
    }
    provider.server.close();
    if (filesDir) await rm(filesDir, { recursive: true, force: true });
  }, 60_000);

  /** A customer with a pending one-time order of the product, then paid (which schedules the grants). */
  async function buyer(product = productId) {
    const customer = await createCustomer(api.knex, orgId, { email: `${randomUUID().slice(0, 8)}@example.com` });
    const order = await createOrder(api.knex, orgId, { customerId: customer.id, productId: product }, { status: "pending" });
    await createPayment(api.knex, orgId, { order_id: order.id });
    await api.knex.transaction((trx) => markOrderPaid(trx, order.id, { reads: orderDependents }));
    const session = { customerSession: await createCustomerSessionToken(api.knex, customer.id) };
    return { customerId: customer.id, orderId: order.id, session };
  }

  const grantsOf = (customerId: string) => api.knex("benefit_grants").where({ customer_id: customerId });
  const grantOf = async (customerId: string, type: string) => (await grantsOf(customerId).where({ benefit_id: ids[type] }).first())!;
  const events = (customerId: string, name: string) =>
    api.knex("events").where({ customer_id: customerId, name, source: "system" }).orderBy("timestamp").orderBy("created_at");
  const outbox = async (type: string, grantId: string) =>
    (await api.knex("outbox").where({ organization_id: orgId, type }).orderBy("id"))
      .map((r) => r.payload)
      .filter((p) => p.data.id === grantId);
  const pendingJobs = async (customerId: string) =>
    Number(
      (
        await api
          .knex("benefit_grant_jobs")
          .join("benefit_grants", "benefit_grants.id", "benefit_grant_jobs.grant_id")
          .where({ customer_id: customerId })
          .whereNull("done_at")
          .count({ n: "*" })
      )[0].n,
    );

  it("grants every type when a one-time order is paid: portal, customer state, webhooks and system events", async () => {
    const b = await buyer();
    await expect.poll(() => pendingJobs(b.customerId), poll).toBe(0);
    const granted = (await grantsOf(b.customerId)).filter((g) => g.granted_at !== null).map((g) => g.benefit_id);
    // Discord and GitHub wait for the customer's linked account.
    expect(new Set(granted)).toEqual(new Set([ids.custom, ids.license_keys, ids.downloadables, ids.meter_credit]));
    expect((await grantOf(b.customerId, "discord")).properties).toEqual({ guild_id: GUILD, role_id: ROLE, account_id: null });
    expect((await grantOf(b.customerId, "discord")).error).toBeNull();
    expect((await grantOf(b.customerId, "downloadables")).properties).toEqual({ files: [fileId] });
    const keyGrant = (await grantOf(b.customerId, "license_keys")).properties;
    const key = await api.knex("license_keys").where({ id: keyGrant.license_key_id }).first();
    expect(key).toMatchObject({
      customer_id: b.customerId,
      benefit_id: ids.license_keys,
      status: "granted",
      limit_activations: 3,
      limit_usage: 10,
    });
    expect(key.key.startsWith("ACME-")).toBe(true);
    expect(keyGrant.display_key).toBe(key.display_key);
    const year = key.expires_at.getTime() - Date.now();
    expect(year).toBeGreaterThan(364 * 86_400_000);
    expect(year).toBeLessThan(367 * 86_400_000);
    const credit = (await grantOf(b.customerId, "meter_credit")).properties;
    expect(credit).toMatchObject({ last_credited_meter_id: meterId, last_credited_units: 100 });

    const portal = await polar.customerPortal.benefitGrants.list(b.session, {});
    expect(portal.result.items).toHaveLength(6);
    expect(
      portal.result.items
        .filter((g) => g.isGranted)
        .map((g) => g.benefit.type)
        .sort(),
    ).toEqual(["custom", "downloadables", "license_keys", "meter_credit"]);
    const custom = portal.result.items.find((g) => g.benefitId === ids.custom)!;
    expect(custom).toMatchObject({ orderId: b.orderId, subscriptionId: null, customerId: b.customerId, isRevoked: false, properties: {} });
    expect(custom.benefit).toMatchObject({ type: "custom", organizationId: orgId, properties: { note: "Write to us" } });

    const state = await polar.customers.getState({ id: b.customerId });
    expect(state.grantedBenefits.map((g) => g.benefitId).sort()).toEqual(
      [ids.custom, ids.license_keys, ids.downloadables, ids.meter_credit].sort(),
    );

    const grantId = (await grantOf(b.customerId, "custom")).id;
    const created = await outbox("benefit_grant.created", grantId);
    expect(created).toHaveLength(1);
    expect(created[0].data).toMatchObject({
      id: grantId,
      is_granted: true,
      benefit: { id: ids.custom, type: "custom" },
      customer: { id: b.customerId },
    });
    const changed = await api.knex("outbox").where({ organization_id: orgId, type: "customer.state_changed" }).orderBy("id");
    expect(changed.some((r) => r.payload.data.id === b.customerId && r.payload.data.granted_benefits.length >= 1)).toBe(true);

    const grantedEvents = await events(b.customerId, "benefit.granted");
    expect(grantedEvents.map((e) => e.metadata.benefit_type).sort()).toEqual(["custom", "downloadables", "license_keys", "meter_credit"]);
    expect(grantedEvents.find((e) => e.metadata.benefit_type === "custom")!.metadata).toEqual({
      benefit_id: ids.custom,
      benefit_grant_id: grantId,
      benefit_type: "custom",
    });
    expect((await events(b.customerId, "meter.credited")).map((e) => e.metadata)).toEqual([
      { meter_id: meterId, units: 100, rollover: false },
    ]);
  });

  it("revokes the order's grants on a refund with revoke_benefits", async () => {
    const b = await buyer();
    await expect.poll(() => pendingJobs(b.customerId), poll).toBe(0);
    await polar.refunds.create({ orderId: b.orderId, reason: "customer_request", amount: 2500, revokeBenefits: true });
    await expect.poll(() => pendingJobs(b.customerId), poll).toBe(0);
    const grants = await grantsOf(b.customerId);
    expect(grants.every((g) => g.revoked_at !== null && g.granted_at === null)).toBe(true);
    const portal = await polar.customerPortal.benefitGrants.list(b.session, {});
    expect(portal.result.items.every((g) => g.isRevoked && !g.isGranted)).toBe(true);
    expect((await polar.customers.getState({ id: b.customerId })).grantedBenefits).toEqual([]);
    expect((await events(b.customerId, "benefit.revoked")).length).toBe(6);
    const keyId = (await grantOf(b.customerId, "license_keys")).properties.license_key_id;
    expect((await api.knex("license_keys").where({ id: keyId }).first()).status).toBe("revoked");
    expect(await outbox("benefit_grant.revoked", (await grantOf(b.customerId, "custom")).id)).toHaveLength(1);
    // The meter credit of the grant is taken back.
    expect((await events(b.customerId, "meter.credited")).map((e) => e.metadata.units)).toEqual([100, -100]);
  });

  it("links a Discord account through the portal, retries a provider error with the grant's error recorded, then grants", async () => {
    const b = await buyer();
    await expect.poll(() => pendingJobs(b.customerId), poll).toBe(0);
    const grant = await grantOf(b.customerId, "discord");
    provider.calls = [];
    provider.failures = 2;
    const linked = await polar.customerPortal.benefitGrants.update(b.session, {
      id: grant.id,
      customerBenefitGrantUpdate: { benefitType: "discord", properties: { accountId: "323456789012345678" } },
    });
    expect(linked.properties).toMatchObject({ accountId: "323456789012345678" });
    // The first attempt fails: the error is recorded while the workflow retries.
    await expect.poll(async () => (await grantOf(b.customerId, "discord")).error, poll).toMatchObject({ type: "discord_error" });
    expect((await grantOf(b.customerId, "discord")).granted_at).toBeNull();
    await expect.poll(async () => (await grantOf(b.customerId, "discord")).granted_at, poll).not.toBeNull();
    const done = await grantOf(b.customerId, "discord");
    expect(done.error).toBeNull();
    expect(done.properties).toEqual({
      guild_id: GUILD,
      role_id: ROLE,
      account_id: "323456789012345678",
      granted_account_id: "323456789012345678",
    });
    const put = `/discord/guilds/${GUILD}/members/323456789012345678/roles/${ROLE}`;
    expect(provider.calls.map((c) => `${c.method} ${c.path}`)).toEqual([`PUT ${put}`, `PUT ${put}`, `PUT ${put}`]);
    expect(provider.calls[0].auth).toBe("Bot bot-token");

    const got = await polar.customerPortal.benefitGrants.get(b.session, { id: grant.id });
    expect(got).toMatchObject({ isGranted: true, benefit: { type: "discord", properties: { guildId: GUILD } } });
    // The guild token is a secret of the merchant: never shown to the customer.
    expect(JSON.stringify(got.benefit)).not.toContain("guildToken");
  });

  it("grants GitHub access on account linking and removes it on revocation", async () => {
    const b = await buyer();
    await expect.poll(() => pendingJobs(b.customerId), poll).toBe(0);
    const grant = await grantOf(b.customerId, "github_repository");
    provider.calls = [];
    await polar.customerPortal.benefitGrants.update(b.session, {
      id: grant.id,
      customerBenefitGrantUpdate: { benefitType: "github_repository", properties: { accountId: "octocat" } },
    });
    await expect.poll(async () => (await grantOf(b.customerId, "github_repository")).granted_at, poll).not.toBeNull();
    expect(provider.calls).toMatchObject([
      { method: "PUT", path: "/github/repos/acme/sdk/collaborators/octocat", auth: "Bearer gh-token" },
    ]);
    expect(JSON.parse(provider.calls[0].body)).toEqual({ permission: "pull" });
    await polar.refunds.create({ orderId: b.orderId, reason: "customer_request", amount: 2500, revokeBenefits: true });
    await expect.poll(async () => (await grantOf(b.customerId, "github_repository")).revoked_at, poll).not.toBeNull();
    expect(provider.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      "PUT /github/repos/acme/sdk/collaborators/octocat",
      "DELETE /github/repos/acme/sdk/collaborators/octocat",
    ]);
    // A revoked grant can't be linked again.
    await rejects(
      polar.customerPortal.benefitGrants.update(b.session, {
        id: grant.id,
        customerBenefitGrantUpdate: { benefitType: "github_repository", properties: { accountId: "other" } },
      }),
      NotPermitted,
    );
  });

  it("cycles meter credits: a reset then a credit without rollover, a credit only with rollover", async () => {
    const b = await buyer();
    await expect.poll(() => pendingJobs(b.customerId), poll).toBe(0);
    // Scope the grant to a subscription (as the subscriptions domain does) and renew it.
    const subscriptionId = randomUUID();
    await api.knex("benefit_grants").where({ customer_id: b.customerId }).update({ subscription_id: subscriptionId, order_id: null });
    await api.knex.transaction((trx) => scheduleBenefitCycles(trx, { subscriptionId }));
    await expect.poll(() => pendingJobs(b.customerId), poll).toBe(0);
    expect((await events(b.customerId, "meter.reset")).map((e) => e.metadata)).toEqual([{ meter_id: meterId }]);
    expect((await events(b.customerId, "meter.credited")).map((e) => e.metadata.units)).toEqual([100, 100]);
    expect((await events(b.customerId, "benefit.cycled")).map((e) => e.metadata.benefit_type).sort()).toEqual([
      "custom",
      "downloadables",
      "license_keys",
      "meter_credit",
    ]);
    expect(await outbox("benefit_grant.cycled", (await grantOf(b.customerId, "meter_credit")).id)).toHaveLength(1);

    await api
      .knex("benefits")
      .where({ id: ids.meter_credit })
      .update({ properties: JSON.stringify({ units: 100, rollover: true, meter_id: meterId }) });
    try {
      await api.knex.transaction((trx) => scheduleBenefitCycles(trx, { subscriptionId }));
      await expect.poll(() => pendingJobs(b.customerId), poll).toBe(0);
      expect(await events(b.customerId, "meter.reset")).toHaveLength(1);
      expect((await events(b.customerId, "meter.credited")).map((e) => e.metadata)).toEqual([
        { meter_id: meterId, units: 100, rollover: false },
        { meter_id: meterId, units: 100, rollover: false },
        { meter_id: meterId, units: 100, rollover: true },
      ]);
    } finally {
      await api
        .knex("benefits")
        .where({ id: ids.meter_credit })
        .update({ properties: JSON.stringify({ units: 100, rollover: false, meter_id: meterId }) });
    }
  });

  it("updates the granted grants when the benefit changes", async () => {
    const b = await buyer();
    await expect.poll(() => pendingJobs(b.customerId), poll).toBe(0);
    const other = await createFile(api.knex, orgId, { service: "downloadable", name: "extra.zip", mime_type: "application/zip" });
    await polar.benefits.update({
      id: ids.downloadables,
      requestBody: { type: "downloadables", properties: { files: [fileId, other.id], archived: { [fileId]: true } } },
    });
    try {
      await expect.poll(async () => (await grantOf(b.customerId, "downloadables")).properties, poll).toEqual({ files: [other.id] });
      const grantId = (await grantOf(b.customerId, "downloadables")).id;
      const updated = await outbox("benefit_grant.updated", grantId);
      expect(updated).toHaveLength(1);
      expect(updated[0].data).toMatchObject({ properties: { files: [other.id] }, previous_properties: { files: [fileId] } });
      expect((await events(b.customerId, "benefit.updated")).map((e) => e.metadata.benefit_grant_id)).toEqual([grantId]);
    } finally {
      await polar.benefits.update({ id: ids.downloadables, requestBody: { type: "downloadables", properties: { files: [fileId] } } });
      await expect.poll(async () => (await grantOf(b.customerId, "downloadables")).properties, poll).toEqual({ files: [fileId] });
    }
  });

  it("revokes a benefit's grants when the benefit is deleted", async () => {
    const benefitId = (
      await createBenefit(api.knex, orgId, { type: "custom", description: "Going away", properties: JSON.stringify({ note: "bye" }) })
    ).id;
    const product = (await createProductWithPrice(api.knex, orgId)).product.id;
    await api.knex("product_benefits").insert({ product_id: product, benefit_id: benefitId, order: 0 });
    const b = await buyer(product);
    await expect.poll(() => pendingJobs(b.customerId), poll).toBe(0);
    const granted = (await grantsOf(b.customerId).where({ benefit_id: benefitId }).first())!;
    expect(granted.granted_at).not.toBeNull();
    await polar.benefits.delete({ id: benefitId });
    await expect.poll(async () => (await grantsOf(b.customerId).where({ benefit_id: benefitId }).first())!.revoked_at, poll).not.toBeNull();
    expect(await outbox("benefit_grant.revoked", granted.id)).toHaveLength(1);
  });

  it("lists with filters, gets, and answers 404 for another customer's grant", async () => {
    const a = await buyer();
    const b = await buyer();
    await expect.poll(() => pendingJobs(a.customerId), poll).toBe(0);
    const byType = await polar.customerPortal.benefitGrants.list(a.session, { typeFilter: ["custom", "meter_credit"] });
    expect(byType.result.items.map((g) => g.benefit.type).sort()).toEqual(["custom", "meter_credit"]);
    expect(
      (await polar.customerPortal.benefitGrants.list(a.session, { benefitId: ids.discord })).result.items.map((g) => g.benefitId),
    ).toEqual([ids.discord]);
    expect((await polar.customerPortal.benefitGrants.list(a.session, { orderId: b.orderId })).result.items).toEqual([]);
    expect((await polar.customerPortal.benefitGrants.list(a.session, { orderId: a.orderId, limit: 2 })).result.pagination).toEqual({
      totalCount: 6,
      maxPage: 3,
    });
    expect((await polar.customerPortal.benefitGrants.list(a.session, { organizationId: randomUUID() })).result.items).toEqual([]);
    // A checkout's grants: those of the order it created.
    const checkoutId = randomUUID();
    await api.knex("orders").where({ id: a.orderId }).update({ checkout_id: checkoutId });
    expect((await polar.customerPortal.benefitGrants.list(a.session, { checkoutId, limit: 2 })).result.pagination).toEqual({
      totalCount: 6,
      maxPage: 3,
    });
    expect((await polar.customerPortal.benefitGrants.list(a.session, { checkoutId: randomUUID() })).result.items).toEqual([]);
    const sorted = await polar.customerPortal.benefitGrants.list(a.session, { sorting: ["type"] });
    expect(sorted.result.items.map((g) => g.benefit.type)).toEqual([
      "custom",
      "discord",
      "downloadables",
      "github_repository",
      "license_keys",
      "meter_credit",
    ]);

    const mine = await grantOf(a.customerId, "custom");
    expect((await polar.customerPortal.benefitGrants.get(a.session, { id: mine.id })).id).toBe(mine.id);
    await rejects(polar.customerPortal.benefitGrants.get(b.session, { id: mine.id }), ResourceNotFound);
    await rejects(polar.customerPortal.benefitGrants.get(a.session, { id: "not-a-uuid" }), ResourceNotFound);
    await rejects(
      polar.customerPortal.benefitGrants.update(b.session, { id: mine.id, customerBenefitGrantUpdate: { benefitType: "custom" } }),
      ResourceNotFound,
    );
    // Nothing a customer can change on a custom grant.
    const same = await polar.customerPortal.benefitGrants.update(a.session, {
      id: mine.id,
      customerBenefitGrantUpdate: { benefitType: "custom" },
    });
    expect(same.id).toBe(mine.id);
  });

  it("lists downloadables with signed URLs that download the file", async () => {
    const b = await buyer();
    await expect.poll(() => pendingJobs(b.customerId), poll).toBe(0);
    const page = await polar.customerPortal.downloadables.list(b.session, {});
    expect(page.result.items).toHaveLength(1);
    const [d] = page.result.items;
    expect(d).toMatchObject({ benefitId: ids.downloadables, file: { id: fileId, name: "guide.pdf", mimeType: "application/pdf" } });
    expect(d.file.download.expiresAt.getTime()).toBeGreaterThan(Date.now());
    const res = await fetch(d.file.download.url);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("hello grant");
    expect((await polar.customerPortal.downloadables.list(b.session, { benefitId: ids.custom })).result.items).toEqual([]);
    // Another customer holds none of them.
    const other = await createCustomer(api.knex, orgId, { email: `${randomUUID().slice(0, 8)}@example.com` });
    const otherSession = { customerSession: await createCustomerSessionToken(api.knex, other.id) };
    expect((await polar.customerPortal.downloadables.list(otherSession, {})).result.items).toEqual([]);
  });

  it("recovers a start lost after commit: the backstop sweep starts the pending jobs' workflows", async () => {
    setWorkflowsDoor({ startBenefitGrantJobs: () => Promise.reject(new Error("Temporal unreachable")) });
    let b: Awaited<ReturnType<typeof buyer>>;
    try {
      b = await buyer();
    } finally {
      setWorkflowsDoor({ startBenefitGrantJobs: temporalDoor(temporal.client, temporal.taskQueue).startBenefitGrantJobs });
    }
    await sleep(500);
    expect(await pendingJobs(b.customerId)).toBe(6);
    const mine = new Set((await grantsOf(b.customerId)).map((g) => g.id));
    // Only this customer's jobs: other test files share the database.
    const real = temporalDoor(temporal.client, temporal.taskQueue).startBenefitGrantJobs;
    const started: number[] = [];
    const pages: number[] = [];
    const scoped: Pick<WorkflowsDoor, "startBenefitGrantJobs"> = {
      startBenefitGrantJobs: (jobs) => {
        pages.push(jobs.length);
        const own = jobs.filter((j) => mine.has(j.grantId));
        started.push(...own.map((j) => j.jobId));
        return real(own);
      },
    };
    await sweepBenefitGrantJobs(api.knex, scoped, 3_600_000); // within the grace period: left alone
    expect(started).toEqual([]);
    pages.length = 0;
    await sweepBenefitGrantJobs(api.knex, scoped, 0, 2); // two jobs a page, page after page
    expect(started).toHaveLength(6);
    expect(pages.length).toBeGreaterThanOrEqual(4);
    expect(pages.slice(0, -1).every((n) => n === 2)).toBe(true);
    await expect.poll(() => pendingJobs(b.customerId), poll).toBe(0);
    expect((await grantsOf(b.customerId)).filter((g) => g.granted_at !== null)).toHaveLength(4);
    // Sweeping again finds nothing of this customer's, and a job already done is a no-op.
    started.length = 0;
    await sweepBenefitGrantJobs(api.knex, scoped, 0);
    expect(started).toEqual([]);
  });

  it("writes benefit_grant.* and customer.state_changed webhooks the official client decodes", async () => {
    const schemas: Record<string, { parse(v: unknown): unknown }> = {
      "benefit_grant.created": WebhookBenefitGrantCreatedPayload$inboundSchema,
      "benefit_grant.updated": WebhookBenefitGrantUpdatedPayload$inboundSchema,
      "benefit_grant.cycled": WebhookBenefitGrantCycledPayload$inboundSchema,
      "benefit_grant.revoked": WebhookBenefitGrantRevokedPayload$inboundSchema,
      "customer.state_changed": WebhookCustomerStateChangedPayload$inboundSchema,
    };
    const rows = await api.knex("outbox").where({ organization_id: orgId }).whereIn("type", Object.keys(schemas));
    expect(new Set(rows.map((r) => r.type))).toEqual(new Set(Object.keys(schemas)));
    for (const r of rows) expect(() => schemas[r.type].parse(r.payload)).not.toThrow();
  });
});
