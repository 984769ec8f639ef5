// An endpoint's webhook queue in the console, in Chromium against the running stack (no worker:
// nothing is sent while the test looks): the failing head with the receiver's answer and the
// events waiting behind it; Retry now queues the head again, Skip takes it out so the rest go on.
import { describe, expect, it } from "vitest";
import type { Knex } from "knex";
import { createWebhookEndpoint, orgWithToken } from "../harness/index.js";
import { useBrowserStack } from "./harness.js";
import { signIn } from "./console-helpers.js";

/** A pending event on the endpoint, created at `at`, with one failed delivery per code given. */
async function queued(knex: Knex, orgId: string, endpointId: string, type: string, at: string, codes: number[]): Promise<string> {
  const [outbox] = await knex("outbox")
    .insert({ organization_id: orgId, type, payload: JSON.stringify({}), published_at: new Date() })
    .returning("id");
  const [row] = await knex("webhook_events")
    .insert({
      organization_id: orgId,
      endpoint_id: endpointId,
      outbox_id: outbox.id,
      type,
      payload: JSON.stringify({ type, data: {} }),
      succeeded: codes.length ? false : null,
      last_http_code: codes.at(-1) ?? null,
      pending: true,
      created_at: new Date(at),
    })
    .returning("id");
  for (const [i, code] of codes.entries()) {
    await knex("webhook_deliveries").insert({
      organization_id: orgId,
      endpoint_id: endpointId,
      webhook_event_id: row.id,
      succeeded: false,
      http_code: code,
      response: '{"detail":"order table locked"}',
      created_at: new Date(Date.parse(at) + (i + 1) * 5_000),
    });
  }
  return row.id;
}

describe("merchant console: webhook queue", { timeout: 240_000 }, () => {
  const stack = useBrowserStack({ worker: false });

  it("shows the failing head and what waits behind it; retries it, then skips it", async () => {
    const { org, token } = await orgWithToken(stack.knex);
    const endpoint = await createWebhookEndpoint(stack.knex, org.id, { events: ["order.paid", "order.refunded"] });
    const head = await queued(stack.knex, org.id, endpoint.id, "order.paid", "2026-11-27T10:00:00Z", [500, 503]);
    await queued(stack.knex, org.id, endpoint.id, "order.refunded", "2026-11-27T10:05:00Z", []);
    await queued(stack.knex, org.id, endpoint.id, "order.paid", "2026-11-27T10:10:00Z", []);

    const page = await stack.newPage();
    await signIn(stack, page, token);
    await page.goto(`${stack.url}/dashboard/webhooks-endpoints/${endpoint.id}/show/queue`);
    const alert = page.getByRole("alert").filter({ hasText: "order.paid is failing; 2 events wait behind it" });
    await alert.waitFor();
    expect(await alert.innerText()).toContain('HTTP 503: {"detail":"order table locked"}');
    const items = page.getByRole("list", { name: "Queued events" }).getByRole("listitem");
    const texts = async () => (await items.allInnerTexts()).map((t) => t.replace(/\s+/g, " "));
    await expect.poll(() => items.count()).toBe(3);
    expect(await texts()).toEqual([
      expect.stringMatching(/^1\. order\.paid .*2 attempts, last .*HTTP 503/),
      expect.stringMatching(/^2\. order\.refunded .*not tried yet/),
      expect.stringMatching(/^3\. order\.paid .*not tried yet/),
    ]);
    await page.waitForLoadState("networkidle");
    await stack.check(page, "console-webhook-queue");

    // Retry now: a redelivery, the head queued again (its queueing number moves on)
    const before = (await stack.knex("webhook_events").where({ id: head }).first()).queued as number;
    await alert.getByRole("button", { name: "Retry now" }).click();
    await page.getByRole("button", { name: "Confirm" }).click();
    await page.getByText("Event queued to be sent now").waitFor();
    await expect.poll(async () => (await stack.knex("webhook_events").where({ id: head }).first()).queued).toBe(before + 1);

    // Skip: the head leaves the queue unsent, still failed; the next one is the head now
    await page.getByText("Event queued to be sent now").waitFor({ state: "hidden" });
    await alert.getByRole("button", { name: "Skip" }).click();
    await page.getByRole("dialog").getByText("the 2 event(s) behind it go on").waitFor();
    await page.getByRole("button", { name: "Confirm" }).click();
    await page.getByText("Event skipped").waitFor();
    await expect.poll(() => items.count()).toBe(2);
    expect(await items.first().innerText()).toMatch(/^1\. order\.refunded/);
    expect(await page.getByRole("alert").filter({ hasText: "is failing" }).count()).toBe(0);
    expect(await stack.knex("webhook_events").where({ id: head }).first()).toMatchObject({ pending: false, succeeded: false });
    await page.getByText("Event skipped").waitFor({ state: "hidden" });
    await page.waitForLoadState("networkidle");
    await stack.check(page, "console-webhook-queue-skipped", { screenshot: false });
    expect(stack.takeProblems(page)).toEqual([]);
  });
});
