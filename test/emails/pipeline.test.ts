// The email pipeline end to end: real flows through the official client (the hosted checkout's
// confirm with a test card, a renewal by test clock) on a worker that runs the outbox relay, the
// subscription lifecycle and the email sends; each email read back from Mailpit, where it arrives
// once. Settings switched off send nothing; SMTP down never fails a payment, and the email goes
// out once SMTP is back; attempts that run out leave the send failed with its error.
import { randomUUID } from "node:crypto";
import { Polar } from "@polar-sh/sdk";
import { Polar as Polar049 } from "polar-sdk-049";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/services.js";
import type { EmailSendData, EmailSendInsert } from "../../server/emails/repository.js";
import { emailsForOutbox, enqueueEmails } from "../../server/emails/service.js";
import { mintOrganizationToken } from "../../server/organization-access-tokens/service.js";
import { setWorkflowsDoor, temporalDoor } from "../../server/workflows-door.js";
import { createBenefitGrantActivities } from "../../workflows/activities/benefit-grants.js";
import { createSubscriptionActivities } from "../../workflows/activities/subscriptions.js";
import { sweepEmailSends } from "../../workflows/backstop.js";
import { emailSendWorkflowId } from "../../workflows/shared/ids.js";
import type { EmailSendStart } from "../../workflows/shared/workflows.js";
import { activityDeps, createOrganization, latestMail, linkIn, mailsTo, testClocks, useWorkflowInfra } from "../harness/index.js";
import { useWebhookHarness } from "../webhooks/harness.js";

const infra = useWorkflowInfra();
const poll = { timeout: 30_000, interval: 200 };

interface SendRow {
  id: string;
  kind: string;
  recipient: string;
  status: string;
  message_id: string;
  subject: string | null;
  attempts: number;
  last_error: string | null;
  sent_at: Date | null;
  data: EmailSendData;
  organization_id: string;
}

describe("email pipeline", () => {
  const h = useWebhookHarness(infra, {
    activities: (knex) => {
      const deps = activityDeps(knex);
      return { ...createSubscriptionActivities(deps), ...createBenefitGrantActivities(deps) };
    },
  });
  const savedApiUrl = process.env.PUBLIC_API_URL;
  beforeAll(() => {
    const door = temporalDoor(h.client, h.taskQueue);
    setWorkflowsDoor({
      wakeWebhookEndpoints: h.waker,
      pokeSubscriptions: door.pokeSubscriptions,
      startBenefitGrantJobs: door.startBenefitGrantJobs,
      startEmailSends: door.startEmailSends,
    });
    // The links emails carry point at this file's API.
    process.env.PUBLIC_API_URL = h.api.url;
  });
  afterAll(() => {
    if (savedApiUrl === undefined) delete process.env.PUBLIC_API_URL;
    else process.env.PUBLIC_API_URL = savedApiUrl;
  });

  const sends = (organizationId: string): Promise<SendRow[]> =>
    infra.knex("email_sends").where({ organization_id: organizationId }).orderBy(["kind", "recipient"]);

  /** A shop: an organization with an owner, an admin and a plain member, its token and clients. */
  async function shop(overrides: Record<string, unknown> = {}) {
    const org = await createOrganization(infra.knex, overrides);
    const tag = randomUUID().slice(0, 8);
    const people: Record<string, string> = {};
    for (const role of ["owner", "admin", "member"]) {
      const email = `${role}-${tag}@example.com`;
      const [user] = await infra.knex("users").insert({ name: role, email, email_verified: true }).returning("id");
      await infra.knex("members").insert({ organization_id: org.id, user_id: user.id, role });
      people[role] = email;
    }
    const token = await mintOrganizationToken(infra.knex, org.id);
    return {
      org,
      people,
      token,
      polar: new Polar({ accessToken: token, serverURL: h.api.url }),
      anon: new Polar({ serverURL: h.api.url }),
      buyer: `buyer-${tag}@example.com`,
    };
  }

  async function buy(s: Awaited<ReturnType<typeof shop>>, productId: string, extra: { customerId?: string } = {}) {
    const checkout = await s.polar.checkouts.create({ products: [productId], ...extra });
    const confirmed = await s.anon.checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: {
        ...(extra.customerId ? {} : { customerEmail: s.buyer }),
        customerName: "Ada Buyer",
        customerBillingName: "Ada Buyer",
        customerBillingAddress: { country: "FR", line1: "1 rue de la Paix", city: "Paris", postalCode: "75002" },
        confirmationTokenId: "tok_sandbox_success",
      },
    });
    expect(confirmed.status).toMatch(/confirmed|succeeded/);
    await expect.poll(async () => (await s.polar.checkouts.get({ id: checkout.id })).status, poll).toBe("succeeded");
  }

  /** The buyer as a customer on a test clock (at 2028-03-10), subscribed to the product through the checkout. */
  async function subscribeOnClock(s: Awaited<ReturnType<typeof shop>>, productId: string) {
    const customer = await s.polar.customers.create({ email: s.buyer, name: "Ada Buyer" });
    const clocks = testClocks(h.api.url, s.token);
    const clockId = String((await clocks.call("POST", "", { name: "emails", frozen_time: "2028-03-10T12:00:00Z" })).json.id);
    await clocks.call("POST", `${clockId}/customers`, { customer_id: customer.id });
    await buy(s, productId, { customerId: customer.id });
    return { customer, clocks, clockId };
  }

  /** A purchase's receipt, sent, and a pending copy of it (as a resend makes) not started yet. */
  async function receiptAndCopy(name: string, createdAt = new Date()) {
    const s = await shop({ notification_settings: JSON.stringify({ new_order: false, new_subscription: false }) });
    const product = await s.polar.products.create({
      name,
      recurringInterval: null,
      prices: [{ amountType: "fixed", priceAmount: 800, priceCurrency: "eur" }],
    });
    await buy(s, product.id);
    const [sent] = await settled(s.org.id);
    const id = randomUUID();
    await infra.knex("email_sends").insert({
      id,
      organization_id: s.org.id,
      kind: sent.kind,
      recipient: sent.recipient,
      dedupe_key: `resend:${id}`,
      data: JSON.stringify(sent.data),
      message_id: `<${id}@borealis>`,
      created_at: createdAt,
    });
    return { s, id };
  }

  /** Waits until every send of the organization is done, and the outbox relayed. */
  async function settled(organizationId: string): Promise<SendRow[]> {
    await expect
      .poll(async () => {
        const [{ n }] = await infra.knex("outbox").where({ organization_id: organizationId }).whereNull("published_at").count({ n: "*" });
        const rows = await sends(organizationId);
        return Number(n) === 0 && rows.every((r) => r.status !== "pending");
      }, poll)
      .toBe(true);
    return sends(organizationId);
  }

  /** The messages to `address` with this send's Message-ID (exactly one when it arrived once). */
  async function arrivals(row: SendRow) {
    return (await mailsTo(row.recipient)).filter((m) => `<${m.MessageID}>` === row.message_id);
  }

  it("a purchase sends the buyer's receipt and the owners' and admins' new sale, once each, logged as sent", async () => {
    const s = await shop();
    const product = await s.polar.products.create({
      name: "Field Guide",
      recurringInterval: null,
      prices: [{ amountType: "fixed", priceAmount: 2500, priceCurrency: "eur" }],
    });
    await buy(s, product.id);
    const rows = await settled(s.org.id);
    expect(rows.map((r) => [r.kind, r.recipient, r.status])).toEqual([
      ["notification_new_sale", s.people.admin, "sent"],
      ["notification_new_sale", s.people.owner, "sent"],
      ["order_confirmation", s.buyer, "sent"],
    ]);
    for (const row of rows) {
      expect(row.message_id).toBe(`<${row.id}@borealis>`);
      expect(row.sent_at).toBeInstanceOf(Date);
      expect(row.attempts).toBe(1);
      expect(await arrivals(row)).toHaveLength(1);
      expect((await mailsTo(row.recipient)).length).toBe(1);
    }
    expect(await mailsTo(s.people.member)).toEqual([]);

    const receipt = await latestMail(s.buyer);
    expect(receipt.subject).toBe(rows[2].subject);
    expect(receipt.subject).toContain(s.org.name);
    // The invoice link opens the PDF without signing in; a tampered one is a 404.
    const invoice = linkIn(receipt, "/emails/invoices/");
    const pdf = await fetch(invoice);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toContain("application/pdf");
    expect((await pdf.text()).startsWith("%PDF")).toBe(true);
    expect((await fetch(invoice.replace(/signature=./, "signature=x"))).status).toBe(404);
    const sale = await latestMail(s.people.owner);
    expect(linkIn(sale, "/orders/")).toContain("/show");
  });

  it("a subscription on a test clock: confirmation, receipt, new sale and new subscription; its renewal's receipt once", async () => {
    const s = await shop();
    const product = await s.polar.products.create({
      name: "Pro",
      recurringInterval: "month",
      prices: [{ amountType: "fixed", priceAmount: 1500, priceCurrency: "usd" }],
    });
    const { clocks, clockId } = await subscribeOnClock(s, product.id);
    const first = await settled(s.org.id);
    expect(first.filter((r) => r.recipient === s.buyer).map((r) => r.kind)).toEqual(["order_confirmation", "subscription_confirmation"]);
    expect(first.filter((r) => r.recipient === s.people.owner).map((r) => r.kind)).toEqual([
      "notification_new_sale",
      "notification_new_subscription",
    ]);
    expect(first.every((r) => r.status === "sent")).toBe(true);

    await clocks.advance(clockId, "2028-04-10T13:00:00Z");
    await expect.poll(async () => (await sends(s.org.id)).filter((r) => r.kind === "subscription_cycled").length, poll).toBe(1);
    const rows = await settled(s.org.id);
    const cycled = rows.find((r) => r.kind === "subscription_cycled")!;
    expect(cycled).toMatchObject({ recipient: s.buyer, status: "sent" });
    // A renewal is no new sale.
    expect(rows.filter((r) => r.kind === "notification_new_sale")).toHaveLength(2);
    for (const row of rows) expect(await arrivals(row)).toHaveLength(1);
    expect(await mailsTo(s.buyer)).toHaveLength(3);
    const renewal = (await mailsTo(s.buyer)).find((m) => `<${m.MessageID}>` === cycled.message_id)!;
    expect(renewal.Subject).toBe(cycled.subject);
  });

  it("a trial's subscription is confirmed once, when it starts, not again when the trial converts", async () => {
    const s = await shop({ notification_settings: JSON.stringify({ new_order: false, new_subscription: true }) });
    const product = await new Polar049({ accessToken: s.token, serverURL: h.api.url }).products.create({
      name: "Trial plan",
      recurringInterval: "month",
      trialInterval: "day",
      trialIntervalCount: 7,
      prices: [{ amountType: "fixed", priceAmount: 1500, priceCurrency: "usd" }],
    });
    const { customer, clocks, clockId } = await subscribeOnClock(s, product.id);
    const started = await settled(s.org.id);
    const confirmation = started.find((r) => r.kind === "subscription_confirmation")!;
    expect(confirmation).toMatchObject({ recipient: s.buyer, status: "sent" });
    expect(confirmation.data).toMatchObject({ subscription: { status: "trialing" } });

    await clocks.advance(clockId, "2028-03-18T13:00:00Z");
    await expect
      .poll(async () => (await s.polar.subscriptions.list({ customerId: customer.id })).result.items.map((x) => x.status), poll)
      .toEqual(["active"]);
    const rows = await settled(s.org.id);
    expect(rows.filter((r) => r.kind === "subscription_confirmation")).toHaveLength(1);
    expect(rows.filter((r) => r.kind === "notification_new_subscription").map((r) => r.recipient)).toEqual([
      s.people.admin,
      s.people.owner,
    ]);
    for (const row of rows) expect(await arrivals(row)).toHaveLength(1);
  });

  it("enqueues an outbox event's emails once however often it is claimed, and the sweep sends a send whose start was lost", async () => {
    // The copy stands for a send whose workflow never started (the process died after the commit).
    const { s, id } = await receiptAndCopy("Twice", new Date(Date.now() - 60_000));
    const paid: { id: number; type: string } = await infra
      .knex("outbox")
      .where({ organization_id: s.org.id, type: "order.paid" })
      .first("id", "type");
    expect(await infra.knex.transaction((trx) => emailsForOutbox(trx, [paid]))).toEqual([]);
    expect(await sends(s.org.id)).toHaveLength(2);

    await sweepEmailSends(infra.knex, temporalDoor(h.client, h.taskQueue), 30_000);
    await expect.poll(async () => (await infra.knex("email_sends").where({ id }).first()).status, poll).toBe("sent");
    const row: SendRow = await infra.knex("email_sends").where({ id }).first();
    expect(await arrivals(row)).toHaveLength(1);
    expect(await mailsTo(s.buyer)).toHaveLength(2);
  });

  it("an event a trigger can't read loses only its own email: the batch's other events and emails go on", async () => {
    const s = await shop();
    const product = await s.polar.products.create({
      name: "After the odd one",
      recurringInterval: null,
      prices: [{ amountType: "fixed", priceAmount: 700, priceCurrency: "eur" }],
    });
    const odd = JSON.stringify({ type: "order.paid", timestamp: new Date().toISOString(), data: null });
    const [{ id: oddId }] = await infra
      .knex("outbox")
      .insert({ organization_id: s.org.id, type: "order.paid", payload: odd })
      .returning("id");
    const paid = await infra.knex.transaction(async (trx) => {
      const ids = await emailsForOutbox(trx, [{ id: Number(oddId), type: "order.paid" }]);
      // The claim's transaction is still usable after the failed trigger.
      return { ids, alive: (await trx.raw("select 1 as ok")).rows[0].ok };
    });
    expect(paid).toEqual({ ids: [], alive: 1 });
    await buy(s, product.id);
    const rows = await settled(s.org.id);
    expect(rows.map((r) => [r.kind, r.status])).toContainEqual(["order_confirmation", "sent"]);
    expect((await infra.knex("outbox").where({ id: oddId }).first("published_at")).published_at).not.toBeNull();
  });

  it("enqueueEmails starts its sends once the transaction commits, never after a rollback, and enqueues a repeat once", async () => {
    const { s } = await receiptAndCopy("Enqueued");
    const [sent] = (await sends(s.org.id)).filter((r) => r.status === "sent");
    const send = (key: string): EmailSendInsert => ({
      organization_id: s.org.id,
      kind: sent.kind,
      recipient: sent.recipient,
      dedupe_key: key,
      data: sent.data,
    });
    const rolledBack = infra.knex.transaction(async (trx) => {
      await enqueueEmails(trx, [send("resend:rolled-back")]);
      throw new Error("rolled back");
    });
    await expect(rolledBack).rejects.toThrow("rolled back");
    const [id] = await infra.knex.transaction((trx) => enqueueEmails(trx, [send("resend:committed")]));
    expect(await infra.knex.transaction((trx) => enqueueEmails(trx, [send("resend:committed")]))).toEqual([]);
    await expect.poll(async () => (await infra.knex("email_sends").where({ id }).first()).status, poll).toBe("sent");
    expect(
      await infra.knex("email_sends").where({ organization_id: s.org.id }).whereLike("dedupe_key", "resend:%").pluck("dedupe_key"),
    ).not.toContain("resend:rolled-back");
    expect(await arrivals(await infra.knex("email_sends").where({ id }).first())).toHaveLength(1);
    expect(await mailsTo(s.buyer)).toHaveLength(2);
  });

  it("sends nothing the organization switched off", async () => {
    const s = await shop({
      customer_email_settings: JSON.stringify({ order_confirmation: false }),
      notification_settings: JSON.stringify({ new_order: false, new_subscription: true }),
    });
    const product = await s.polar.products.create({
      name: "Quiet",
      recurringInterval: null,
      prices: [{ amountType: "fixed", priceAmount: 900, priceCurrency: "eur" }],
    });
    await buy(s, product.id);
    expect(await settled(s.org.id)).toEqual([]);
    expect(await mailsTo(s.buyer)).toEqual([]);
    expect(await mailsTo(s.people.owner)).toEqual([]);
  });

  it("with SMTP down the payment still succeeds, and the receipt goes out once SMTP is back", async () => {
    const s = await shop({ notification_settings: JSON.stringify({ new_order: false, new_subscription: false }) });
    const product = await s.polar.products.create({
      name: "Offline",
      recurringInterval: null,
      prices: [{ amountType: "fixed", priceAmount: 1200, priceCurrency: "eur" }],
    });
    const smtp = process.env.SMTP_URL;
    process.env.SMTP_URL = `smtp://127.0.0.1:${await freePort()}`;
    try {
      await buy(s, product.id);
      await expect
        .poll(async () => (await sends(s.org.id)).map((r) => [r.status, r.attempts > 0, r.last_error !== null]), poll)
        .toEqual([["pending", true, true]]);
    } finally {
      process.env.SMTP_URL = smtp;
    }
    const [row] = await settled(s.org.id);
    expect(row.status).toBe("sent");
    expect(row.attempts).toBeGreaterThan(1);
    expect(await arrivals(row)).toHaveLength(1);
    expect(await mailsTo(s.buyer)).toHaveLength(1);
  });

  it("a transaction lost after the mail server accepted the email marks it sent without sending it again", async () => {
    const { id } = await receiptAndCopy("Blip");
    // The first mark as sent of this row fails after the SMTP server's 250 (a sequence: its count survives the rollback).
    const seq = `lost_${id.slice(0, 8)}`;
    await infra.knex.raw(`create sequence ${seq}`);
    await infra.knex.raw(`
      create function ${seq}() returns trigger language plpgsql as $$
      begin
        if new.id = '${id}' and new.status = 'sent' and nextval('${seq}') = 1 then raise exception 'the connection was lost'; end if;
        return new;
      end $$`);
    await infra.knex.raw(`create trigger ${seq} before update on email_sends for each row execute function ${seq}()`);
    try {
      const input: EmailSendStart = { sendId: id };
      expect(
        await h.client.workflow.execute("emailSendWorkflow", {
          workflowId: emailSendWorkflowId(id),
          taskQueue: h.taskQueue,
          args: [input],
        }),
      ).toBe("sent");
    } finally {
      await infra.knex.raw(`drop trigger ${seq} on email_sends`);
    }
    const row: SendRow = await infra.knex("email_sends").where({ id }).first();
    expect(row).toMatchObject({ status: "sent", attempts: 1 });
    expect(await arrivals(row)).toHaveLength(1);
  });

  it("marks a send failed with its error once its attempts run out", async () => {
    // The copy is sent with two attempts while SMTP is down.
    const { s, id } = await receiptAndCopy("Doomed");
    const input: EmailSendStart = { sendId: id, maxAttempts: 2, initialIntervalMs: 100 };
    const smtp = process.env.SMTP_URL;
    process.env.SMTP_URL = `smtp://127.0.0.1:${await freePort()}`;
    try {
      expect(
        await h.client.workflow.execute("emailSendWorkflow", {
          workflowId: emailSendWorkflowId(id),
          taskQueue: h.taskQueue,
          args: [input],
        }),
      ).toBe("failed");
    } finally {
      process.env.SMTP_URL = smtp;
    }
    const row: SendRow = await infra.knex("email_sends").where({ id }).first();
    expect(row).toMatchObject({ status: "failed", attempts: 2, sent_at: null });
    expect(row.last_error).toMatch(/ECONNREFUSED|connect/i);
    // A failed send is not sent again by a later run.
    expect(
      await h.client.workflow.execute("emailSendWorkflow", {
        workflowId: `${emailSendWorkflowId(id)}:again`,
        taskQueue: h.taskQueue,
        args: [input],
      }),
    ).toBe("failed");
    expect(await mailsTo(s.buyer)).toHaveLength(1);
  });
});
