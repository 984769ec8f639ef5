// The emails API: the list of an organization's sends with its filters and pages,
// resending a receipt (a new send that a real worker delivers to Mailpit, once), the refusals,
// and the preview of every kind in the organization's brand or a draft colour.
import { describe, expect, it } from "vitest";
import { EMAIL_KINDS } from "../../emails/src/index.js";
import { setWorkflowsDoor, temporalDoor } from "../../server/workflows-door.js";
import { createEmailActivities } from "../../workflows/activities/emails.js";
import {
  activityDeps,
  createCustomer,
  createOrder,
  createProductWithPrice,
  mailsTo,
  orgWithToken,
  useTestApi,
  useTestWorker,
} from "../harness/index.js";

const api = useTestApi();
const poll = { timeout: 30_000, interval: 100 };

type Send = {
  id: string;
  kind: string;
  status: string;
  recipient: string;
  customer_id: string | null;
  subject: string | null;
  sent_at: string | null;
};

async function call<T = Record<string, unknown>>(token: string, method: string, url: string, body?: unknown) {
  const res = await fetch(`${api.url}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T & { detail?: { loc: (string | number)[] }[]; error?: string } };
}

/** An organization with a customer, a paid order, and the sends the pipeline would have recorded for it. */
async function seed() {
  const { org, token } = await orgWithToken(api.knex);
  const customer = await createCustomer(api.knex, org.id);
  const { product } = await createProductWithPrice(api.knex, org.id);
  const order = await createOrder(api.knex, org.id, { customerId: customer.id, productId: product.id });
  const orderOut = (await call(token, "GET", `/v1/orders/${order.id}`)).body;
  const row = (kind: string, status: string, minutesAgo: number, customerId: string | null = customer.id) => ({
    id: crypto.randomUUID(),
    organization_id: org.id,
    kind,
    recipient: customerId ? customer.email : "owner@example.com",
    customer_id: customerId,
    dedupe_key: `outbox:${Math.floor(Math.random() * 1e9)}`,
    data: JSON.stringify({ order: orderOut }),
    message_id: `<${crypto.randomUUID()}@borealis>`,
    status,
    subject: status === "sent" ? `Sent ${kind}` : null,
    sent_at: status === "sent" ? new Date(Date.now() - minutesAgo * 60_000) : null,
    created_at: new Date(Date.now() - minutesAgo * 60_000),
  });
  const inserted: { id: string; kind: string }[] = await api
    .knex("email_sends")
    .insert([
      row("order_confirmation", "sent", 30),
      row("subscription_confirmation", "sent", 20),
      row("subscription_payment_failed", "failed", 10),
      row("notification_new_sale", "sent", 5, null),
    ])
    .returning(["id", "kind"]);
  const id = (kind: string) => inserted.find((r) => r.kind === kind)!.id;
  return { org, token, customer, id };
}

describe("the emails API", () => {
  useTestWorker("emails-api-test", {
    activities: () => createEmailActivities(activityDeps(api.knex)),
    install: (client, taskQueue) => {
      setWorkflowsDoor({ startEmailSends: temporalDoor(client, taskQueue).startEmailSends });
      return () => setWorkflowsDoor(null);
    },
  });

  it("lists the organization's sends newest first, filtered by customer, kind and status, in pages", async () => {
    const { token, customer } = await seed();
    await seed(); // another organization's sends are not listed
    const all = await call<{ items: Send[]; pagination: { total_count: number; max_page: number } }>(token, "GET", "/v1/emails/");
    expect(all.status).toBe(200);
    expect(all.body.items.map((s) => s.kind)).toEqual([
      "notification_new_sale",
      "subscription_payment_failed",
      "subscription_confirmation",
      "order_confirmation",
    ]);
    const mine = await call<{ items: Send[] }>(token, "GET", `/v1/emails/?customer_id=${customer.id}`);
    expect(mine.body.items).toHaveLength(3);
    expect(mine.body.items.every((s) => s.recipient === customer.email)).toBe(true);
    const failed = await call<{ items: Send[] }>(token, "GET", "/v1/emails/?status=failed");
    expect(failed.body.items.map((s) => s.kind)).toEqual(["subscription_payment_failed"]);
    const receipts = await call<{ items: Send[] }>(token, "GET", "/v1/emails/?kind=order_confirmation&kind=subscription_cycled");
    expect(receipts.body.items.map((s) => s.kind)).toEqual(["order_confirmation"]);
    const page = await call<{ items: Send[]; pagination: { total_count: number; max_page: number } }>(
      token,
      "GET",
      "/v1/emails/?limit=3&page=2",
    );
    expect(page.body.pagination).toEqual({ total_count: 4, max_page: 2 });
    expect(page.body.items.map((s) => s.kind)).toEqual(["order_confirmation"]);
    expect((await call(token, "GET", "/v1/emails/?kind=newsletter")).status).toBe(422);
  });

  it("resends a receipt as a new send, delivered once to the same recipient", async () => {
    const { token, customer, id } = await seed();
    const resent = await call<Send>(token, "POST", `/v1/emails/${id("order_confirmation")}/resend`);
    expect(resent.status).toBe(201);
    expect(resent.body).toMatchObject({
      kind: "order_confirmation",
      recipient: customer.email,
      customer_id: customer.id,
      status: "pending",
    });
    expect(resent.body.id).not.toBe(id("order_confirmation"));
    const stored = await api.knex("email_sends").where({ id: resent.body.id }).first("dedupe_key");
    expect(stored.dedupe_key).toMatch(/^resend:[0-9a-f-]{36}$/);
    await expect.poll(async () => (await api.knex("email_sends").where({ id: resent.body.id }).first("status")).status, poll).toBe("sent");
    const mails = await mailsTo(customer.email);
    expect(mails).toHaveLength(1);
    const list = await call<{ items: Send[] }>(token, "GET", `/v1/emails/?customer_id=${customer.id}&kind=order_confirmation`);
    expect(list.body.items).toHaveLength(2);
    expect(list.body.items[0]).toMatchObject({ id: resent.body.id, status: "sent", subject: mails[0]!.Subject });
  });

  it("resends only receipts (422), and only the organization's own (404)", async () => {
    const { token, id } = await seed();
    const other = await seed();
    const started = await call(token, "POST", `/v1/emails/${id("subscription_confirmation")}/resend`);
    expect(started.status).toBe(422);
    expect(started.body.detail?.[0]?.loc).toEqual(["path", "id"]);
    expect((await call(token, "POST", `/v1/emails/${other.id("order_confirmation")}/resend`)).status).toBe(404);
    expect((await call(token, "POST", "/v1/emails/not-a-uuid/resend")).status).toBe(404);
    expect(
      await api.knex("email_sends").where("dedupe_key", "like", "resend:%").whereIn("organization_id", [other.org.id]).select("id"),
    ).toEqual([]);
  });

  it("previews every kind with sample data in the organization's colour, or a draft one", async () => {
    const { org, token } = await orgWithToken(api.knex);
    await call(token, "PATCH", `/v1/organizations/${org.id}`, { email_settings: { brand_color: "#aa3300" } });
    for (const kind of EMAIL_KINDS) {
      const preview = await call<{ subject: string; html: string; text: string }>(token, "POST", "/v1/emails/preview", { kind });
      expect(preview.status, kind).toBe(200);
      expect(preview.body.subject, kind).not.toBe("");
      expect(preview.body.text.length, kind).toBeGreaterThan(20);
      expect(preview.body.html.toLowerCase(), kind).toContain("#aa3300");
    }
    const draft = await call<{ html: string }>(token, "POST", "/v1/emails/preview", { kind: "order_confirmation", brand_color: "#123456" });
    expect(draft.body.html).toContain("#123456");
    expect(draft.body.html.toLowerCase()).not.toContain("#aa3300");
    const bad = await call(token, "POST", "/v1/emails/preview", { kind: "order_confirmation", brand_color: "red" });
    expect(bad.status).toBe(422);
    expect(bad.body.detail?.[0]?.loc).toEqual(["body", "brand_color"]);
  });
});
