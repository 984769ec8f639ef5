// Webhook endpoints through the official client: create / get / list / update / delete, the
// secret and its reset, the URL policy (https, loopback, private ranges), tenant isolation, and
// the deliveries list and redelivery error contract.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import { HTTPValidationError } from "@polar-sh/sdk/models/errors/httpvalidationerror.js";
import { ResourceNotFound } from "@polar-sh/sdk/models/errors/resourcenotfound.js";
import { collectPages, orgWithToken, rejects, useTestApi } from "../harness/index.js";
import { checkWebhookUrl, refusedAddress } from "../../server/webhooks/url.js";

const api = useTestApi();
const FLAGS = ["WEBHOOKS_ALLOW_HTTP", "WEBHOOKS_ALLOW_LOOPBACK", "WEBHOOKS_ALLOW_PRIVATE"] as const;

describe("webhook endpoints", () => {
  let polar: Polar;
  let other: Polar;
  let orgId: string;

  beforeAll(async () => {
    const made = await orgWithToken(api.knex);
    orgId = made.org.id;
    polar = api.client(made.token);
    other = api.client((await orgWithToken(api.knex)).token);
  });
  afterEach(() => {
    for (const f of FLAGS) delete process.env[f];
  });

  it("creates, reads, lists, updates and deletes an endpoint", async () => {
    const created = await polar.webhooks.createWebhookEndpoint({
      url: "https://hooks.example.com/polar",
      format: "raw",
      events: ["product.created", "product.updated", "product.created"],
    });
    expect(created.organizationId).toBe(orgId);
    expect(created.url).toBe("https://hooks.example.com/polar");
    expect(created.events).toEqual(["product.created", "product.updated"]);
    expect(created.secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    expect(created.modifiedAt).toBeNull();

    expect(await polar.webhooks.getWebhookEndpoint({ id: created.id })).toEqual(created);
    const listed = await collectPages(await polar.webhooks.listWebhookEndpoints({ organizationId: orgId }));
    expect(listed.map((e) => e.id)).toContain(created.id);

    const updated = await polar.webhooks.updateWebhookEndpoint({
      id: created.id,
      webhookEndpointUpdate: { url: "https://hooks.example.com/v2", format: "slack", events: ["order.paid"], secret: null },
    });
    expect(updated).toMatchObject({ url: "https://hooks.example.com/v2", format: "slack", events: ["order.paid"], secret: created.secret });
    expect(updated.modifiedAt).toBeInstanceOf(Date);

    await polar.webhooks.deleteWebhookEndpoint({ id: created.id });
    await rejects(polar.webhooks.getWebhookEndpoint({ id: created.id }), ResourceNotFound);
    await rejects(polar.webhooks.deleteWebhookEndpoint({ id: created.id }), ResourceNotFound);
    const after = await collectPages(await polar.webhooks.listWebhookEndpoints({}));
    expect(after.map((e) => e.id)).not.toContain(created.id);
  });

  it("keeps a given secret, and reset replaces it with a new whsec_ secret", async () => {
    const created = await polar.webhooks.createWebhookEndpoint({
      url: "https://hooks.example.com/s",
      format: "raw",
      events: ["customer.created"],
      secret: "my-own-secret-value",
    });
    expect(created.secret).toBe("my-own-secret-value");
    const reset = await polar.webhooks.resetWebhookEndpointSecret({ id: created.id });
    expect(reset.secret).toMatch(/^whsec_/);
    expect(reset.secret).not.toBe(created.secret);
    expect((await polar.webhooks.getWebhookEndpoint({ id: created.id })).secret).toBe(reset.secret);
  });

  it("isolates organizations: another token sees nothing and gets 404", async () => {
    const mine = await polar.webhooks.createWebhookEndpoint({ url: "https://hooks.example.com/iso", format: "raw", events: [] });
    await rejects(other.webhooks.getWebhookEndpoint({ id: mine.id }), ResourceNotFound);
    await rejects(other.webhooks.resetWebhookEndpointSecret({ id: mine.id }), ResourceNotFound);
    await rejects(
      other.webhooks.updateWebhookEndpoint({ id: mine.id, webhookEndpointUpdate: { url: "https://x.example.com" } }),
      ResourceNotFound,
    );
    const theirs = await collectPages(await other.webhooks.listWebhookEndpoints({}));
    expect(theirs.map((e) => e.id)).not.toContain(mine.id);
    await rejects(polar.webhooks.getWebhookEndpoint({ id: "not-a-uuid" }), ResourceNotFound);
  });

  it("requires https unless allowed, and refuses loopback and private addresses unless allowed", async () => {
    const create = (url: string) => polar.webhooks.createWebhookEndpoint({ url, format: "raw", events: ["product.created"] });
    const refusedUrl = async (url: string) => {
      const err = await rejects(create(url), HTTPValidationError);
      expect(err.detail?.[0]?.loc).toEqual(["body", "url"]);
    };
    await refusedUrl("http://hooks.example.com/plain");
    await refusedUrl("ftp://hooks.example.com/");
    await refusedUrl("not a url");
    await refusedUrl("https://127.0.0.1/hook");
    await refusedUrl("https://localhost:8443/hook");
    await refusedUrl("https://[::1]/hook");
    await refusedUrl("https://10.1.2.3/hook");
    await refusedUrl("https://192.168.0.10/hook");
    await refusedUrl("https://172.20.0.1/hook");
    await refusedUrl("https://169.254.169.254/latest/meta-data");
    await refusedUrl("https://[::ffff:10.0.0.1]/hook");
    await refusedUrl("https://[fd00::1]/hook");

    process.env.WEBHOOKS_ALLOW_HTTP = "1";
    expect((await create("http://hooks.example.com/plain")).url).toBe("http://hooks.example.com/plain");
    await refusedUrl("http://127.0.0.1:9/hook");
    process.env.WEBHOOKS_ALLOW_LOOPBACK = "1";
    expect((await create("http://127.0.0.1:9/hook")).url).toBe("http://127.0.0.1:9/hook");
    await refusedUrl("http://10.1.2.3/hook");
    process.env.WEBHOOKS_ALLOW_PRIVATE = "1";
    expect((await create("http://10.1.2.3/hook")).url).toBe("http://10.1.2.3/hook");

    const mine = await create("https://hooks.example.com/ok");
    delete process.env.WEBHOOKS_ALLOW_PRIVATE;
    const err = await rejects(
      polar.webhooks.updateWebhookEndpoint({ id: mine.id, webhookEndpointUpdate: { url: "https://10.0.0.1/" } }),
      HTTPValidationError,
    );
    expect(err.detail?.[0]?.loc).toEqual(["body", "url"]);
  });

  it("classifies addresses by the policy", () => {
    const none = { allowHttp: false, allowLoopback: false, allowPrivate: false };
    expect(refusedAddress("93.184.216.34", none)).toBeNull();
    expect(refusedAddress("2606:2800:220:1::1", none)).toBeNull();
    expect(refusedAddress("127.0.0.2", none)).toMatch(/loopback/);
    expect(refusedAddress("100.64.0.1", none)).toMatch(/private/);
    expect(refusedAddress("fe80::1", none)).toMatch(/private/);
    expect(refusedAddress("0.0.0.0", none)).toMatch(/private/);
    expect(refusedAddress("127.0.0.1", { ...none, allowLoopback: true })).toBeNull();
    expect(() => checkWebhookUrl("https://user:pw@example.com/", none)).toThrow();
  });

  it("lists no deliveries for a new endpoint and answers 404 for an unknown event's redelivery", async () => {
    const ep = await polar.webhooks.createWebhookEndpoint({
      url: "https://hooks.example.com/d",
      format: "raw",
      events: ["product.created"],
    });
    const page = await polar.webhooks.listWebhookDeliveries({ endpointId: ep.id });
    expect(page.result.items).toEqual([]);
    expect(page.result.pagination).toEqual({ totalCount: 0, maxPage: 0 });
    await rejects(polar.webhooks.redeliverWebhookEvent({ id: "00000000-0000-4000-8000-000000000000" }), ResourceNotFound);
  });
});
