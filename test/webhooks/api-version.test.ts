// A webhook endpoint's `api_version` (1.x client): the version its events' payloads are in, set at
// creation (the creating call's version unless given; 2026-04 for the 0.x clients, which send no
// Polar-Version) and by an update; each event keeps the version its endpoint had when it was
// recorded (the shaping itself: test/http/polar-headers.test.ts).
// `uses_standard_webhook_signature` is false: deliveries are signed with the secret's UTF-8 bytes.
import { describe, expect, it } from "vitest";
import { createPolar } from "polar-sdk-1/2026-10";
import { createPolar as createPolar04 } from "polar-sdk-1/2026-04";
import { fanOut } from "../../server/webhooks/repository.js";
import { orgWithToken, useTestApi } from "../harness/index.js";

const api = useTestApi();
const URL = "https://hooks.example.com/polar";

describe("a webhook endpoint's api_version", () => {
  it("is the creating call's version unless given, and an update changes it", async () => {
    const { token } = await orgWithToken(api.knex);
    const v10 = createPolar({ accessToken: token, baseUrl: api.url });
    const v04 = createPolar04({ accessToken: token, baseUrl: api.url });

    const spoken = await v10.webhooks.createWebhookEndpoint({ url: URL, format: "raw", events: ["order.paid"] });
    expect(spoken).toMatchObject({ api_version: "2026-10", uses_standard_webhook_signature: false });
    const given = await v10.webhooks.createWebhookEndpoint({ url: URL, format: "raw", events: ["order.paid"], api_version: "2026-04" });
    expect(given.api_version).toBe("2026-04");
    expect((await v04.webhooks.createWebhookEndpoint({ url: URL, format: "raw", events: ["order.paid"] })).api_version).toBe("2026-04");
    // The 0.x client sends no Polar-Version: the default.
    const old = await api.client(token).webhooks.createWebhookEndpoint({ url: URL, format: "raw", events: ["order.paid"] });
    expect((await v10.webhooks.getWebhookEndpoint(old.id)).api_version).toBe("2026-04");

    const updated = await v10.webhooks.updateWebhookEndpoint(given.id, { api_version: "2026-10" });
    expect(updated.api_version).toBe("2026-10");
    // `null` (and leaving it out) keeps it.
    expect((await v10.webhooks.updateWebhookEndpoint(given.id, { api_version: null, name: "kept" })).api_version).toBe("2026-10");
  });

  it("refuses a version not served with a 422", async () => {
    const { token } = await orgWithToken(api.knex);
    const res = await fetch(`${api.url}/v1/webhooks/endpoints`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ url: URL, format: "raw", events: ["order.paid"], api_version: "2027-01" }),
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { detail: { loc: string[] }[] }).detail[0]?.loc).toEqual(["body", "api_version"]);
  });

  it("is recorded on each event as its endpoint's when the event is recorded", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const v10 = createPolar({ accessToken: token, baseUrl: api.url });
    const endpoint = await v10.webhooks.createWebhookEndpoint({ url: URL, format: "raw", events: ["order.paid"] });
    const record = async () => {
      const [outbox] = await api
        .knex("outbox")
        .insert({
          organization_id: org.id,
          type: "order.paid",
          payload: JSON.stringify({ type: "order.paid", timestamp: new Date().toISOString(), data: { id: "o" } }),
          published_at: new Date(),
        })
        .returning("id");
      await api.knex.transaction((trx) => fanOut(trx, [outbox.id]));
      const event = await api.knex("webhook_events").where({ outbox_id: outbox.id }).first();
      await api.knex("webhook_deliveries").insert({
        organization_id: org.id,
        endpoint_id: endpoint.id,
        webhook_event_id: event.id,
        http_code: 200,
        response: "",
        succeeded: true,
      });
      return event.id as string;
    };
    const first = await record();
    await v10.webhooks.updateWebhookEndpoint(endpoint.id, { api_version: "2026-04" });
    const second = await record();

    const page = await v10.webhooks.listWebhookDeliveries({ endpoint_id: endpoint.id });
    const versionOf = new Map(page.items.map((d) => [d.webhook_event.id, d.webhook_event.api_version]));
    expect(versionOf.get(first)).toBe("2026-10");
    expect(versionOf.get(second)).toBe("2026-04");
  });
});
