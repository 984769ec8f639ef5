// What the lifecycle email tests share: a worker of the file's own (outbox relay, webhook
// deliveries, email sends, subscription lifecycles, benefit grants and the periodic emails, whose
// Schedule is created in the file's namespace), the API over the file's database, a shop with an
// owner, an admin and a plain member, a buyer subscribed through the hosted checkout on a test
// clock, and the checks that an email arrived exactly once, read back from Mailpit.
import { randomUUID } from "node:crypto";
import { Polar } from "@polar-sh/sdk";
import { afterAll, beforeAll, expect } from "vitest";
import type { EmailSendRow } from "../../server/emails/repository.js";
import { mintOrganizationToken } from "../../server/organization-access-tokens/service.js";
import { setWorkflowsDoor, temporalDoor } from "../../server/workflows-door.js";
import { createBenefitGrantActivities } from "../../workflows/activities/benefit-grants.js";
import { createEmailReminderActivities } from "../../workflows/activities/email-reminders.js";
import { createSubscriptionActivities } from "../../workflows/activities/subscriptions.js";
import { ensureEmailReminderSchedule } from "../../workflows/schedules.js";
import {
  activityDeps,
  createOrganization,
  mailsWithMessageId,
  testClocks,
  type MailMessage,
  type TestClocks,
  type WorkflowInfra,
} from "../harness/index.js";
import { useWebhookHarness, type WebhookHarness } from "../webhooks/harness.js";

export const poll = { timeout: 30_000, interval: 200 };

/** A send log row as the tests read it. */
export type SendRow = EmailSendRow;

export interface Shop {
  org: { id: string; slug: string; name: string };
  people: { owner: string; admin: string; member: string };
  token: string;
  polar: Polar;
  anon: Polar;
  buyer: string;
  clocks: TestClocks;
}

export interface Subscribed {
  customerId: string;
  clockId: string;
  subscriptionId: string;
}

export interface EmailFlows {
  h: WebhookHarness;
  shop(overrides?: Record<string, unknown>): Promise<Shop>;
  /** The buyer on a new test clock at `at`, subscribed to the product through the hosted checkout with `token`. */
  subscribe(s: Shop, productId: string, at: string, token?: string): Promise<Subscribed>;
  /** The organization's sends once the outbox is relayed and none is pending. */
  settled(organizationId: string): Promise<SendRow[]>;
  /** The one send of `kind` to `recipient`, arrived exactly once (its Message-ID), with its subject; the message. */
  onceArrived(organizationId: string, kind: string, recipient: string): Promise<{ row: SendRow; mail: MailMessage }>;
}

/** Registers the beforeAll/afterAll hooks; read `h` inside tests. */
export function useEmailFlows(infra: WorkflowInfra): EmailFlows {
  const h = useWebhookHarness(infra, {
    // A failing endpoint is retried every 100 ms and disabled after failing for a second.
    workflow: { retryDelaysMs: Array(50).fill(100), disableAfterMs: 1_000 },
    activities: (knex) => {
      const deps = activityDeps(knex);
      return Object.assign(createSubscriptionActivities(deps), createBenefitGrantActivities(deps), createEmailReminderActivities(deps));
    },
  });
  const saved = { PUBLIC_API_URL: process.env.PUBLIC_API_URL };
  beforeAll(async () => {
    const door = temporalDoor(h.client, h.taskQueue, { retryDelaysMs: Array(50).fill(100), disableAfterMs: 1_000 });
    await ensureEmailReminderSchedule(h.client, h.taskQueue);
    setWorkflowsDoor({
      wakeWebhookEndpoints: h.waker,
      pokeSubscriptions: door.pokeSubscriptions,
      startBenefitGrantJobs: door.startBenefitGrantJobs,
      startEmailSends: door.startEmailSends,
      runEmailReminders: door.runEmailReminders,
    });
    // The links emails carry point at this file's API.
    process.env.PUBLIC_API_URL = h.api.url;
  });
  afterAll(() => {
    if (saved.PUBLIC_API_URL === undefined) delete process.env.PUBLIC_API_URL;
    else process.env.PUBLIC_API_URL = saved.PUBLIC_API_URL;
  });

  const sends = (organizationId: string): Promise<SendRow[]> =>
    infra.knex("email_sends").where({ organization_id: organizationId }).orderBy(["kind", "recipient", "created_at"]);

  async function shop(overrides: Record<string, unknown> = {}): Promise<Shop> {
    const org = await createOrganization(infra.knex, overrides);
    const tag = randomUUID().slice(0, 8);
    const people = { owner: `owner-${tag}@example.com`, admin: `admin-${tag}@example.com`, member: `member-${tag}@example.com` };
    for (const [role, email] of Object.entries(people)) {
      const [user] = await infra.knex("users").insert({ name: role, email, email_verified: true }).returning("id");
      await infra.knex("members").insert({ organization_id: org.id, user_id: user.id, role });
    }
    const token = await mintOrganizationToken(infra.knex, org.id);
    const polar = new Polar({ accessToken: token, serverURL: h.api.url });
    return {
      org,
      people,
      token,
      polar,
      anon: new Polar({ serverURL: h.api.url }),
      buyer: `buyer-${tag}@example.com`,
      clocks: testClocks(h.api.url, token, poll),
    };
  }

  async function subscribe(s: Shop, productId: string, at: string, token = "tok_sandbox_success"): Promise<Subscribed> {
    const customer = await s.polar.customers.create({ email: s.buyer, name: "Ada Buyer" });
    const clockId = String((await s.clocks.call("POST", "", { name: "emails", frozen_time: at })).json.id);
    expect((await s.clocks.call("POST", `${clockId}/customers`, { customer_id: customer.id })).status).toBe(200);
    const checkout = await s.polar.checkouts.create({ products: [productId], customerId: customer.id });
    await s.anon.checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: { customerBillingAddress: { country: "FR" }, confirmationTokenId: token },
    });
    await expect.poll(async () => (await s.polar.checkouts.get({ id: checkout.id })).status, poll).toBe("succeeded");
    const [sub] = (await s.polar.subscriptions.list({ customerId: customer.id })).result.items;
    return { customerId: customer.id, clockId, subscriptionId: sub.id };
  }

  async function settled(organizationId: string): Promise<SendRow[]> {
    await expect
      .poll(async () => {
        const [{ n }] = await infra.knex("outbox").where({ organization_id: organizationId }).whereNull("published_at").count({ n: "*" });
        return Number(n) === 0 && (await sends(organizationId)).every((r) => r.status !== "pending");
      }, poll)
      .toBe(true);
    return sends(organizationId);
  }

  async function onceArrived(organizationId: string, kind: string, recipient: string) {
    const rows = (await settled(organizationId)).filter((r) => r.kind === kind && r.recipient === recipient);
    expect(
      rows.map((r) => r.status),
      `${kind} to ${recipient}`,
    ).toEqual(["sent"]);
    const mails = await mailsWithMessageId(recipient, rows[0].message_id);
    expect(mails, `${kind} to ${recipient}`).toHaveLength(1);
    expect(mails[0].subject).toBe(rows[0].subject);
    expect(mails[0].to).toEqual([recipient]);
    return { row: rows[0], mail: mails[0] };
  }

  return { h, shop, subscribe, settled, onceArrived };
}
